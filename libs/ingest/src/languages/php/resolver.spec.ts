import { ParserService } from '../../parse/parser.service';
import { resolveRepository } from '../../resolve/resolver';
import type { ResolveResult } from '../../resolve/types';

const parser = new ParserService({ languages: ['php'] });
beforeAll(() => parser.init());

const parse = (entries: Record<string, string>) => Object.entries(entries).map(([p, src]) => parser.parseFile(p, src));
const calls = (r: ResolveResult) => r.edges.filter((e) => e.type === 'CALLS').map((e) => `${e.fromId.split('#')[1].split('|')[0]} -> ${e.toId.split('#')[1]}`).sort();
const misses = (r: ResolveResult) => r.unresolved.filter((u) => u.type === 'CALLS').map((u) => `${u.targetName}: ${u.reason}`).sort();
const links = (r: ResolveResult) => r.fileImports.map((i) => `${i.fromPath} ${i.specifier} -> ${i.toPath ?? i.external ?? 'missing'}`);

describe('PhpResolver', () => {
  it('links `use` to the declaring file, PSR-4 prefixes of composer.json to missing files, other namespaces to packages', () => {
    const files = parse({
      'app/src/Model/Item.php': '<?php\nnamespace Acme\\Model;\nclass Item {}',
      'app/src/Main.php': '<?php\nnamespace Acme;\nuse Acme\\Model\\Item;\nuse Acme\\Gone\\Thing;\nuse Psr\\Log\\LoggerInterface;\nclass Main {}',
    });
    const manifests = { 'app/composer.json': JSON.stringify({ autoload: { 'psr-4': { 'Acme\\': 'src/' } } }) };
    expect(links(resolveRepository(files, { manifests }))).toEqual([
      'app/src/Main.php Acme.Model.Item -> app/src/Model/Item.php',
      'app/src/Main.php Acme.Gone.Thing -> missing',
      'app/src/Main.php Psr.Log.LoggerInterface -> Psr\\Log',
    ]);
    // without the manifest nothing says Acme\Gone is the repository's: an outside package
    expect(links(resolveRepository(files))[1]).toBe('app/src/Main.php Acme.Gone.Thing -> Acme\\Gone');
  });

  it('follows typed chains, return types, inherited constructors, and members only subtypes declare', () => {
    const r = resolveRepository(parse({
      'a.php': [
        '<?php',
        'namespace A;',
        'interface Handler { public function handle(): void; }',
        'interface Formattable { public function setFormatter(): void; }',
        'class Base { public function __construct() {} }',
        'class Repo extends Base implements Handler, Formattable {',
        '  public function handle(): void {}',
        '  public function setFormatter(): void {}',
        '  public static function make(): self { return new self(); }',
        '}',
        'class Service {',
        '  private Handler $handler;',
        '  public function run(): void {',
        '    $r = Repo::make();',
        '    $r->handle();',
        '    $h = $this->handler;',
        '    $h->handle();',
        '    if ($h instanceof Formattable) { $this->handler->setFormatter(); }',
        '    $x = new Repo();',
        '  }',
        '}',
      ].join('\n'),
    }));
    expect(calls(r)).toEqual([
      'A.Repo.make -> A.Base.__construct|constructor',
      'A.Service.run -> A.Base.__construct|constructor',
      'A.Service.run -> A.Handler.handle|method',
      'A.Service.run -> A.Repo.handle|method',
      'A.Service.run -> A.Repo.make|method',
      'A.Service.run -> A.Repo.setFormatter|method',
    ]);
  });

  it('prefers the trait body to the interface declaration a class gets both from', () => {
    const r = resolveRepository(parse({
      'c.php': '<?php\ninterface I { public function f(); }\ntrait T { public function f() {} }\nclass A implements I { use T; public function g() { $this->f(); } }',
    }));
    expect(calls(r)).toEqual(['A.g -> T.f|method']);
  });

  it('labels PHP functions builtin, callables dynamic, and dependency classes external', () => {
    const r = resolveRepository(parse({
      'b.php': [
        '<?php',
        'namespace B;',
        'use Monolog\\Logger;',
        'function go(Logger $log, $any) {',
        '  strlen("x"); \\array_map(null, []); call_user_func("go"); $f = "go"; $f();',
        '  $log->info("x"); (new Logger("a"))->debug("y"); $any->thing(); new \\DateTime(); nowhere();',
        '}',
      ].join('\n'),
    }));
    expect(misses(r)).toEqual([
      '$any.thing: unknown-receiver',
      '$f: dynamic',
      '$log.info: external',
      'Logger.__construct: external',
      '\\DateTime.__construct: builtin',
      '\\array_map: builtin',
      'call_user_func: dynamic',
      'nowhere: external',
      'strlen: builtin',
    ]);
  });
});
