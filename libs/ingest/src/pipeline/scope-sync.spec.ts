import { stripDocComments } from './scope-sync';

describe('stripDocComments', () => {
  it('removes JSDoc blocks and keeps code and plain comments', () => {
    const src = '/**\n * Adds two numbers.\n */\nexport function add(a, b) {\n  // plain\n  return a + b;\n}';
    const out = stripDocComments(src);
    expect(out).not.toContain('Adds two numbers');
    expect(out).toContain('// plain');
    expect(out).toContain('return a + b;');
  });

  it('removes C# XML doc lines', () => {
    const out = stripDocComments('/// <summary>Creates it.</summary>\npublic int Create() { return 1; }');
    expect(out).toBe('public int Create() { return 1; }');
  });

  it('removes a Python docstring that opens a body', () => {
    const out = stripDocComments('def total(self):\n    """Sum of the lines."""\n    return sum(self.lines)\n');
    expect(out).not.toContain('Sum of the lines');
    expect(out).toContain('return sum(self.lines)');
  });
});
