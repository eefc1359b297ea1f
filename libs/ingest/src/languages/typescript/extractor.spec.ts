import { ParserService } from '../../parse/parser.service';
import type { ParsedFile } from '../../parse/types';

const parser = new ParserService({ languages: ['typescript', 'tsx', 'javascript'] });
beforeAll(() => parser.init());

/** [id, kind, qualifiedName, startLine, endLine] per scope. */
function table(f: ParsedFile): [string, string, string, number, number][] {
  return f.scopes.map((s) => [s.id, s.kind, s.qualifiedName, s.startLine, s.endLine]);
}

function refs(f: ParsedFile): string[] {
  return f.references.map((r) => `${r.fromId.split('#')[1].split('|')[0]} ${r.kind} ${r.targetName} @${r.line}`);
}

describe('TypeScriptExtractor', () => {
  const src = [
    "import { Base } from './base';", //                           1
    "import * as utils from './utils';", //                         2
    '', //                                                          3
    '/** A service. */', //                                         4
    '@Injectable()', //                                             5
    'export class Service extends Base implements Runner, IStop {', // 6
    '  private cache = new Map<string, Item>();', //                7
    '  constructor(private readonly repo: Repo) {', //              8
    '    super();', //                                              9
    '  }', //                                                       10
    '', //                                                          11
    '  /** Runs it. */', //                                         12
    '  @Log()', //                                                  13
    '  async run(input: Input): Promise<Output> {', //              14
    '    this.repo.save(input);', //                                15
    '    return utils.parse(helper(input));', //                    16
    '  }', //                                                       17
    '', //                                                          18
    '  stop = (): void => this.run(null);', //                      19
    '}', //                                                         20
    '', //                                                          21
    'export function helper<T>(value: T): T {', //                  22
    '  function inner(): void {}', //                               23
    '  const nested = () => inner();', //                           24
    '  return value;', //                                           25
    '}', //                                                         26
    '', //                                                          27
    'export const toUpper = (s: string): string => s.toUpperCase();', // 28
    'export const config = { retries: 3, log() { console.log(1); } };', // 29
    'export interface Runner extends Stoppable { run(input: Input): Promise<Output>; }', // 30
    "export type Mode = 'a' | Other;", //                           31
    'export enum Color { Red, Green }', //                          32
    'namespace NS { export function g() {} }', //                   33
    'const notExported = 1;', //                                    34
  ].join('\n');

  let f: ParsedFile;
  beforeAll(() => {
    f = parser.parseFile('src/service.ts', src);
  });

  it('extracts the exact scope list', () => {
    expect(f.errors).toEqual([]);
    expect(table(f)).toEqual([
      ['src/service.ts#src/service.ts|file', 'file', 'src/service.ts', 1, 34],
      ['src/service.ts#Service|class', 'class', 'Service', 5, 20],
      ['src/service.ts#Service.constructor|constructor', 'constructor', 'Service.constructor', 8, 10],
      ['src/service.ts#Service.run|method', 'method', 'Service.run', 13, 17],
      ['src/service.ts#Service.stop|method', 'method', 'Service.stop', 19, 19],
      ['src/service.ts#helper|function', 'function', 'helper', 22, 26],
      ['src/service.ts#helper.inner|function', 'function', 'helper.inner', 23, 23],
      ['src/service.ts#helper.nested|function', 'function', 'helper.nested', 24, 24],
      ['src/service.ts#toUpper|function', 'function', 'toUpper', 28, 28],
      ['src/service.ts#config|variable', 'variable', 'config', 29, 29],
      ['src/service.ts#config.log|method', 'method', 'config.log', 29, 29],
      ['src/service.ts#Runner|interface', 'interface', 'Runner', 30, 30],
      ['src/service.ts#Runner.run|method', 'method', 'Runner.run', 30, 30],
      ['src/service.ts#Mode|type_alias', 'type_alias', 'Mode', 31, 31],
      ['src/service.ts#Color|enum', 'enum', 'Color', 32, 32],
      ['src/service.ts#NS|namespace', 'namespace', 'NS', 33, 33],
      ['src/service.ts#NS.g|function', 'function', 'NS.g', 33, 33],
    ]);
  });

  it('fills signature, doc, parent, exported, tokens and hash', () => {
    const byId = new Map(f.scopes.map((s) => [s.id, s]));
    const cls = byId.get('src/service.ts#Service|class')!;
    expect(cls.signature).toBe('class Service extends Base implements Runner, IStop');
    expect(cls.docComment).toBe('A service.');
    expect(cls.exported).toBe(true);
    expect(cls.parentId).toBe('src/service.ts#src/service.ts|file');
    expect(cls.source.startsWith('@Injectable()')).toBe(true);
    expect(cls.contentHash).toMatch(/^[0-9a-f]{64}$/);
    const run = byId.get('src/service.ts#Service.run|method')!;
    expect(run.signature).toBe('async run(input: Input): Promise<Output>');
    expect(run.docComment).toBe('Runs it.');
    expect(run.parentId).toBe('src/service.ts#Service|class');
    expect(run.nameTokens).toBe('service run');
    expect(byId.get('src/service.ts#toUpper|function')!.signature).toBe('const toUpper = (s: string): string =>');
    expect(byId.get('src/service.ts#helper.inner|function')!.parentId).toBe('src/service.ts#helper|function');
    expect(byId.get('src/service.ts#NS|namespace')!.exported).toBe(false);
    expect(byId.get('src/service.ts#src/service.ts|file')!.source).toBe(src);
  });

  it('records calls, heritage and type references per scope', () => {
    expect(refs(f)).toEqual([
      'Service CALLS Injectable @5',
      'Service EXTENDS Base @6',
      'Service IMPLEMENTS Runner @6',
      'Service IMPLEMENTS IStop @6',
      'Service CALLS Map @7',
      'Service REFERENCES Item @7',
      'Service.constructor REFERENCES Repo @8',
      'Service.constructor CALLS super @9',
      'Service.run CALLS Log @13',
      'Service.run REFERENCES Input @14',
      'Service.run REFERENCES Promise @14',
      'Service.run REFERENCES Output @14',
      'Service.run CALLS this.repo.save @15',
      'Service.run CALLS utils.parse @16',
      'Service.run CALLS helper @16',
      'Service.stop CALLS this.run @19',
      'helper.nested CALLS inner @24',
      'toUpper CALLS s.toUpperCase @28',
      'config.log CALLS console.log @29',
      'Runner EXTENDS Stoppable @30',
      'Runner.run REFERENCES Input @30',
      'Runner.run REFERENCES Promise @30',
      'Runner.run REFERENCES Output @30',
      'Mode REFERENCES Other @31',
    ]);
  });

  it('records imports and typed bindings', () => {
    expect(f.imports).toEqual([
      { fromPath: 'src/service.ts', specifier: './base', names: [{ imported: 'Base', local: 'Base' }], line: 1 },
      { fromPath: 'src/service.ts', specifier: './utils', names: [{ imported: '*', local: 'utils' }], isNamespace: true, line: 2 },
    ]);
    expect(f.bindings).toEqual(expect.arrayContaining([
      { scopeId: 'src/service.ts#Service|class', name: 'repo', typeName: 'Repo', member: true },
      { scopeId: 'src/service.ts#Service.run|method', name: 'input', typeName: 'Input', member: false },
    ]));
  });

  it('handles re-exports, export lists, default exports and CommonJS', () => {
    const g = parser.parseFile('lib/index.js', [
      "const { a, b: c } = require('./a');",
      "export * from './x';",
      "export { y as z } from './y';",
      'function local() {}',
      'export { local as renamed };',
      'export default function () {}',
      'exports.handler = function (event) { return local(event); };',
      'Widget.prototype.render = function () {};',
    ].join('\n'));
    expect(g.errors).toEqual([]);
    expect(g.imports).toEqual([
      { fromPath: 'lib/index.js', specifier: './a', names: [{ imported: 'a', local: 'a' }, { imported: 'b', local: 'c' }], line: 1 },
      { fromPath: 'lib/index.js', specifier: './x', names: [{ imported: '*', local: '*' }], line: 2, reexport: true },
      { fromPath: 'lib/index.js', specifier: './y', names: [{ imported: 'y', local: 'z' }], line: 3, reexport: true },
    ]);
    expect(g.exports).toEqual([{ local: 'local', exported: 'renamed', line: 5 }]);
    expect(table(g).map((r) => r[0])).toEqual([
      'lib/index.js#lib/index.js|file',
      'lib/index.js#local|function',
      'lib/index.js#default|function',
      'lib/index.js#handler|function',
      'lib/index.js#Widget.render|method',
    ]);
    expect(g.scopes.find((s) => s.name === 'local')!.exported).toBe(true);
  });

  it('keeps overload signatures out when an implementation exists, and TSX components', () => {
    const g = parser.parseFile('ui/app.tsx', [
      'export function pick(a: string): string;',
      'export function pick(a: number): number;',
      'export function pick(a: any) { return a; }',
      'export const App = () => <Layout><Button onClick={() => pick(1)} /></Layout>;',
    ].join('\n'));
    expect(g.language).toBe('tsx');
    expect(g.scopes.map((s) => s.id)).toEqual(['ui/app.tsx#ui/app.tsx|file', 'ui/app.tsx#pick|function', 'ui/app.tsx#App|function']);
    expect(refs(g).filter((r) => r.startsWith('App'))).toEqual(['App CALLS Layout @4', 'App CALLS Button @4', 'App CALLS pick @4']);
  });
});
