import { entryPoint } from './dead-code.service';
import { inAbstractClass, pluginBaseMember, pythonApiContext } from './python-api';
import { frameworkConvention, isAlembicRevision, mkdocsHookFiles, pythonContext } from './python-conventions';

// Rules from samples J and J2 (Alembic revisions, Jupyter extension hooks, mkdocs hook modules,
// .pyi stubs, plugin base classes): each test fails when its rule is taken out.
describe('python hooks read off samples J and J2', () => {
  const fn = (name: string, path: string, kind = 'function') => ({ name, kind, path, language: 'python' });

  it('takes upgrade/downgrade of a module with top-level revision and down_revision as Alembic hooks', () => {
    const revision = ['"""add column"""', 'from alembic import op', '', "revision = '1fa46383a9d3'", "down_revision: str | None = 'bcfefa1f1299'", 'branch_labels = None', '', 'def upgrade():', '    pass', '', 'def downgrade():', '    pass', ''].join('\n');
    // A helper module with its own upgrade() but no revision identifiers, and one that names them only inside a function.
    const helper = 'def upgrade():\n    pass\n';
    const nested = 'def f():\n    revision = 1\n    down_revision = 0\n\ndef downgrade():\n    pass\n';
    expect(isAlembicRevision(revision)).toBe(true);
    expect(isAlembicRevision(nested)).toBe(false);
    const ctx = pythonContext([
      { path: 'alembic/versions/1fa4_add.py', text: revision },
      { path: 'pkg/db.py', text: helper },
      { path: 'pkg/nested.py', text: nested },
    ]);
    expect(frameworkConvention(fn('downgrade', 'alembic/versions/1fa4_add.py'), ctx)).toMatch(/Alembic/);
    expect(frameworkConvention(fn('upgrade', 'alembic/versions/1fa4_add.py'), ctx)).toMatch(/Alembic/);
    expect(frameworkConvention(fn('upgrade', 'pkg/db.py'), ctx)).toBeNull();
    expect(frameworkConvention(fn('downgrade', 'pkg/nested.py'), ctx)).toBeNull();
    // Other functions of a revision file are judged on their uses.
    expect(frameworkConvention(fn('_backfill', 'alembic/versions/1fa4_add.py'), ctx)).toBeNull();
  });

  it('takes _jupyter_* functions as Jupyter extension hooks, wherever they are', () => {
    const ctx = pythonContext([{ path: 'nbdime/__init__.py', text: 'def _jupyter_nbextension_paths():\n    return []\n' }]);
    expect(frameworkConvention(fn('_jupyter_nbextension_paths', 'nbdime/__init__.py'), ctx)).toMatch(/Jupyter/);
    expect(frameworkConvention(fn('_jupyter_server_extension_points', 'pkg/ext.py'), ctx)).toMatch(/Jupyter/);
    expect(frameworkConvention(fn('_load_jupyter_server_extension', 'pkg/ext.py'), ctx)).toMatch(/Jupyter/);
    expect(frameworkConvention(fn('_jupyterish', 'pkg/ext.py'), ctx)).toBeNull();
    expect(frameworkConvention(fn('_jupyter_nbextension_paths', 'pkg/ext.py', 'method'), ctx)).toBeNull();
  });

  it('reads hook modules from mkdocs.yml (with python tags) and takes their on_* functions as mkdocs events', () => {
    const yml = ['site_name: Copier', 'markdown_extensions:', '  - pymdownx.emoji:', '      emoji_index: !!python/name:material.extensions.emoji.twemoji', 'hooks:', '  - mkdocs_hooks.py', '  - ../tools/hooks.py', ''].join('\n');
    expect(mkdocsHookFiles('mkdocs.yml', yml)).toEqual(['mkdocs_hooks.py', '../tools/hooks.py']);
    expect(mkdocsHookFiles('docs/mkdocs.yml', yml)).toEqual(['docs/mkdocs_hooks.py', 'tools/hooks.py']);
    expect(mkdocsHookFiles('mkdocs.yml', 'site_name: x\n')).toEqual([]);
    const files = [{ path: 'mkdocs_hooks.py', text: 'def on_page_markdown(markdown, **kw):\n    return markdown\n' }];
    const ctx = pythonContext(files, new Set(mkdocsHookFiles('mkdocs.yml', yml)));
    expect(frameworkConvention(fn('on_page_markdown', 'mkdocs_hooks.py'), ctx)).toMatch(/mkdocs/);
    expect(frameworkConvention(fn('helper', 'mkdocs_hooks.py'), ctx)).toBeNull();
    // An on_* function of a module mkdocs.yml does not list.
    expect(frameworkConvention(fn('on_page_markdown', 'other.py'), ctx)).toBeNull();
    expect(frameworkConvention(fn('on_page_markdown', 'mkdocs_hooks.py'), pythonContext(files))).toBeNull();
  });

  it('never lists declarations of .pyi stubs', () => {
    const row = { name: '_MicroBitMicrophone', kind: 'class', path: 'thonny/api_stubs/microbit/__init__.pyi', exported: false, head: null, parentKind: 'file', parentExported: false, externalBase: false, language: 'python' };
    expect(entryPoint(row, new Set())).toMatch(/\.pyi stub/);
    expect(entryPoint({ ...row, path: 'thonny/api_stubs/microbit/__init__.py' }, new Set())).toBeNull();
  });

  it('counts protected methods of a public plugin base class (abstract members, plugin module) as API', () => {
    const files = [
      { path: 'src/certbot/__init__.py' },
      { path: 'src/certbot/plugins/__init__.py' },
      { path: 'src/certbot/plugins/dns_common_lexicon.py' },
      { path: 'src/certbot/_internal/__init__.py' },
      { path: 'src/certbot/_internal/client.py' },
      { path: 'src/certbot/display/__init__.py' },
      { path: 'src/certbot/display/util.py' },
    ];
    const ctx = pythonApiContext(files, ['pyproject.toml']);
    const m = (qualifiedName: string, path: string) => ({ name: qualifiedName.split('.').pop()!, kind: 'method', path, language: 'python', qualifiedName, parentKind: 'class' });
    const lexicon = ['import abc', 'class LexiconDNSAuthenticator(dns_common.DNSAuthenticator):', '    @property', '    @abc.abstractmethod', '    def _provider_name(self) -> str:', '        """The lexicon provider."""', '', '    def _add_provider_option(self, name):', '        pass', ''];
    const plugin = ['class SortByWeight(Plugin):', '    def on_task(self, task):', '        pass', '', '    def _add_debug_info(self, entry):', '        pass', ''];
    expect(inAbstractClass(lexicon, 8)).toBe(true);
    expect(inAbstractClass(plugin, 5)).toBe(false);
    // An internal base that only raises NotImplementedError (thonny's MicroPythonConnection) is no plugin contract.
    expect(inAbstractClass(['class B:', '    def run(self):', '        raise NotImplementedError', '    def _x(self):', '        pass'], 4)).toBe(false);
    expect(pluginBaseMember(m('LexiconDNSAuthenticator._add_provider_option', 'src/certbot/plugins/dns_common_lexicon.py'), ctx, true)).toMatch(/plugin base class LexiconDNSAuthenticator/);
    // Not: a plugin itself (no abstract members), a module outside plugin modules, a private module or
    // class, a name-mangled method, a repository that is no installable package.
    expect(pluginBaseMember(m('LexiconDNSAuthenticator._add_provider_option', 'src/certbot/plugins/dns_common_lexicon.py'), ctx, false)).toBeNull();
    expect(pluginBaseMember(m('BaseDisplay._wrap', 'src/certbot/display/util.py'), ctx, true)).toBeNull();
    expect(pluginBaseMember(m('Client._helper', 'src/certbot/_internal/client.py'), ctx, true)).toBeNull();
    expect(pluginBaseMember(m('_Lexicon._add', 'src/certbot/plugins/dns_common_lexicon.py'), ctx, true)).toBeNull();
    expect(pluginBaseMember(m('LexiconDNSAuthenticator.__add', 'src/certbot/plugins/dns_common_lexicon.py'), ctx, true)).toBeNull();
    expect(pluginBaseMember(m('LexiconDNSAuthenticator._add_provider_option', 'src/certbot/plugins/dns_common_lexicon.py'), pythonApiContext(files, []), true)).toBeNull();
  });
});
