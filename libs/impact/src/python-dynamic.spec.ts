import { entryPoint, judge } from './dead-code.service';
import { attributePrefixMaps, builtFromFileStrings, builtNameHeads, identifierStrings, moduleGetattrHead, moduleGetattrHeads, prefixMappedUse } from './python-dynamic';

// Rules read off sample H's live candidates, each by the shape of code (never a package's name);
// each test fails when its rule is taken out.
describe('python names reached by run-time name building', () => {
  const manifests = { entryFiles: new Set<string>(), entryFunctions: new Map(), library: false, application: true, read: [] };
  const row = { name: '_StarFive', kind: 'method', path: 'pkg/markers.py', exported: false, parentKind: 'class', parentExported: false, repoBase: false, extends: false, language: 'python' };
  const none = { quoted: 0, prefix: null, unresolved: 0, uses: [], manifests };

  it('takes a one-character head joined to a value whose values are strings of the same file', () => {
    const file = [
      'class Marker(Widget):',
      "    kind = AttrMapValue(OneOf(None, 'Square', 'StarFive', 'Hexagon'))",
      '    def _StarFive(self): ...',
      '    def draw(self):',
      "        m = getattr(self, '_' + self.kind)",
    ].join('\n');
    const heads = builtNameHeads(file);
    expect(heads.has('_')).toBe(true);
    expect(builtFromFileStrings('_StarFive', heads, identifierStrings(file))).toBe("'_' + 'StarFive'");
    // f-strings and % formats are the same head; a name whose rest is no string of the file stays dead.
    expect(builtNameHeads("m = getattr(self, f'_{self.kind}')").has('_')).toBe(true);
    expect(builtNameHeads("m = getattr(self, '_%s' % kind)").has('_')).toBe(true);
    expect(builtFromFileStrings('_Octagon', heads, identifierStrings(file))).toBeNull();
    // Without a head joined to a value, strings alone prove nothing.
    expect(builtFromFileStrings('_StarFive', builtNameHeads("x = 'StarFive'"), identifierStrings("x = 'StarFive'"))).toBeNull();
    expect(judge(row, { ...none, builtName: "'_' + 'StarFive'" }).confidence).toBeLessThan(0.7);
  });

  it('counts module names a module __getattr__ hands out of globals() as module API below the default', () => {
    const file = [
      'class _AnsibleVaultEncryptedUnicode: ...',
      'def __getattr__(name: str) -> t.Any:',
      "    if name.startswith('Ansible'):",
      "        return globals()[f'_{name}']",
      '    raise AttributeError(name)',
    ].join('\n');
    const heads = moduleGetattrHeads(file);
    expect(moduleGetattrHead('_AnsibleVaultEncryptedUnicode', heads)).toBe('_');
    // A method __getattr__ or one that does not read globals() is not this.
    expect(moduleGetattrHeads(file.replace('globals()', 'self._d'))).toEqual(new Set());
    expect(moduleGetattrHeads(file.replace(/^def/m, '    def'))).toEqual(new Set());
    const top = { ...row, name: '_AnsibleVaultEncryptedUnicode', kind: 'class', parentKind: 'file' };
    const c = judge(top, { ...none, moduleGetattr: '_' }).confidence;
    expect(c).toBeLessThan(0.7);
    expect(c).toBeGreaterThan(0.5);
  });

  it('counts prefix + name as a use where a class __getattribute__ strips or adds a literal prefix', () => {
    const strips = [
      'class PyWrapper:',
      '    def __getattribute__(self, key):',
      "        if key.startswith('_sa_'):",
      '            return object.__getattribute__(self, key[4:])',
      '        return self._sa__add_getter(key)',
    ].join('\n');
    const maps = attributePrefixMaps(strips);
    expect(maps.has('_sa_')).toBe(true);
    expect(prefixMappedUse('_add_getter', maps, new Set(['_sa__add_getter']))).toBe('_sa__add_getter');
    expect(prefixMappedUse('_add_getter', maps, new Set(['other']))).toBeNull();
    const adds = ['class Proxy:', '    def __getattr__(self, name):', "        return getattr(self, '_impl_' + name)"].join('\n');
    expect(prefixMappedUse('_impl_fetch', attributePrefixMaps(adds), new Set(['fetch']))).toBe('fetch');
    // A module-level __getattr__ is not a class's map.
    expect(attributePrefixMaps(adds.replace(/^ {4}def/m, 'def'))).toEqual(new Set());
    expect(judge({ ...row, name: '_add_getter' }, { ...none, prefixMapped: '_sa__add_getter' }).confidence).toBeLessThan(0.7);
  });

  it("takes the standard library's by-name protocol methods (socket's _decref_socketios) as called by name", () => {
    const m = { ...row, head: null, externalBase: false, name: '_decref_socketios' };
    // Sample L: a socket wrapper's _decref_socketios, which socket.SocketIO.close() calls on it.
    expect(entryPoint(m, new Set())).toMatch(/socket\.SocketIO/);
    for (const name of ['_reuse', '_drop', '_release_save', '_acquire_restore', '_is_owned', '_at_fork_reinit', '_dispatch', '_get_child_mock', '_missing_', '_generate_next_value_', '_asdict']) {
      expect(entryPoint({ ...m, name }, new Set())).toMatch(/standard-library protocol/);
    }
    // Only the exact names, and only in Python.
    expect(entryPoint({ ...m, name: '_decref' }, new Set())).toBeNull();
    expect(entryPoint({ ...m, name: '_reuse_conn' }, new Set())).toBeNull();
    expect(entryPoint({ ...m, language: 'typescript' }, new Set())).toBeNull();
  });

  it('takes the notebook display protocol (_repr_*_) as called by name', () => {
    const m = { ...row, head: null, externalBase: false, name: '_repr_latex_' };
    expect(entryPoint(m, new Set())).toMatch(/display protocol/);
    for (const name of ['_repr_html_', '_repr_markdown_', '_repr_svg_', '_repr_png_', '_repr_jpeg_', '_repr_json_', '_repr_pretty_', '_repr_mimebundle_', '_ipython_display_']) {
      expect(entryPoint({ ...m, name }, new Set())).not.toBeNull();
    }
    expect(entryPoint({ ...m, name: '_repr_helper' }, new Set())).toBeNull();
    expect(entryPoint({ ...m, name: '_repr_html_', language: 'typescript' }, new Set())).toBeNull();
  });
});
