import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isBundle, walkRepository } from './file-walker';

const supported = (p: string) => /\.(ts|mts|cts|js|mjs|cjs|py)$/.test(p);

describe('walkRepository: what is not source a person wrote', () => {
  let root: string;
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'walker-'));
    write('src/index.ts', 'export class Store {}\n');
    write('src/legacy/old.ts', 'export function old() {}\n');
    write('dist/index.js', 'class Store {}\n');
    write('dist/index.d.mts', 'export declare class Store {}\n');
    write('build/out.js', 'x\n');
    write('vendor/lib.py', 'def f(): pass\n');
    write('node_modules/dep/index.js', 'x\n');
    write('src/types.d.cts', 'export {};\n');
    write('src/compiled.js', 'var a = 1;\n//# sourceMappingURL=compiled.js.map\n');
    write('src/minified.js', `var a=${'1+'.repeat(4000)}1;\n`);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('skips build output, vendored code, declaration bundles and bundles by default, counting each reason', async () => {
    const walk = await walkRepository(root, supported);
    expect(walk.files.map((f) => f.path)).toEqual(['src/index.ts', 'src/legacy/old.ts']);
    expect(walk.skipped).toMatchObject({ buildOutput: 2, vendored: 2, generated: 1, bundle: 2, excluded: 0 });
  });

  it('lets a repository bring build output back and skip more', async () => {
    const walk = await walkRepository(root, supported, undefined, { include: ['dist/**'], exclude: ['src/legacy/'] });
    expect(walk.files.map((f) => f.path)).toEqual(['dist/index.d.mts', 'dist/index.js', 'src/index.ts']);
    expect(walk.skipped).toMatchObject({ buildOutput: 1, excluded: 1 });
  });

  it('tells bundles from sources', () => {
    expect(isBundle('export const a = 1;\n')).toBe(false);
    expect(isBundle('const s = "//# sourceMappingURL= is what compilers append";\n')).toBe(false);
    expect(isBundle('/******/ (() => {\n')).toBe(true);
    expect(isBundle(`x${'y'.repeat(6000)}`)).toBe(true);
  });
});
