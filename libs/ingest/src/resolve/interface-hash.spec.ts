import { ParserService } from '../parse/parser.service';
import { interfaceHash } from './interface-hash';

const parser = new ParserService();
const hash = (path: string, source: string) => interfaceHash(parser.parseFile(path, source));

beforeAll(() => parser.init());

describe('interfaceHash', () => {
  const PY = [
    'from .base import Document',
    '',
    'class Invoice(Document):',
    '    def __init__(self, repo: Repo):',
    '        self.repo = repo',
    '',
    '    def total(self):',
    '        return compute(self.amount)',
    '',
  ].join('\n');

  it('stays the same for edits other files cannot see: comments, bodies, lines moved', () => {
    const base = hash('billing/invoice.py', PY);
    expect(hash('billing/invoice.py', `# a comment\n\n${PY}# another\n`)).toBe(base);
    expect(hash('billing/invoice.py', PY.replace('return compute(self.amount)', 'print("x")\n        return other(self.amount) + 1'))).toBe(base);
  });

  it.each([
    ['a method renamed', (s: string) => s.replace('def total(', 'def grand_total(')],
    ['a method added', (s: string) => `${s}    def tax(self):\n        return 0\n`],
    ['a base class changed', (s: string) => s.replace('class Invoice(Document):', 'class Invoice(Base):')],
    ['an import added', (s: string) => `import json\n${s}`],
    ['a typed field changed', (s: string) => s.replace('self.repo = repo', 'self.repo = Store()')],
    ['a parameter type changed', (s: string) => s.replace('repo: Repo', 'repo: Store')],
  ])('changes for a Python file when %s', (_what, edit) => {
    expect(hash('billing/invoice.py', edit(PY))).not.toBe(hash('billing/invoice.py', PY));
  });

  const TS = "import { b } from './b';\nexport function run() { return b(); }\nfunction local() {}\nexport { local as alias };\n";

  it.each([
    ['an export list changed', (s: string) => s.replace('local as alias', 'local as other')],
    ['a function no longer exported', (s: string) => s.replace('export function run', 'function run')],
    ['a re-export added', (s: string) => `${s}export * from './c';\n`],
  ])('changes for a TS file when %s', (_what, edit) => {
    expect(hash('src/a.ts', edit(TS))).not.toBe(hash('src/a.ts', TS));
  });

  it('stays the same for a TS body edit, and differs between paths', () => {
    expect(hash('src/a.ts', TS.replace('return b();', 'return b() + b();'))).toBe(hash('src/a.ts', TS));
    expect(hash('src/other.ts', TS)).not.toBe(hash('src/a.ts', TS));
  });

  it('changes for a C# file when a using or a base list changes, not for a method body', () => {
    const CS = 'using App.Data;\nnamespace App { public class S : Base { public void M() { Run(); } } }';
    expect(hash('S.cs', CS.replace('Run();', 'Run(); Run2();'))).toBe(hash('S.cs', CS));
    expect(hash('S.cs', CS.replace('using App.Data;', 'using App.Other;'))).not.toBe(hash('S.cs', CS));
    expect(hash('S.cs', CS.replace(': Base', ': Other'))).not.toBe(hash('S.cs', CS));
  });
});
