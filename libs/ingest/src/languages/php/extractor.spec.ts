import { ParserService } from '../../parse/parser.service';
import type { ParsedFile } from '../../parse/types';

const parser = new ParserService({ languages: ['php'] });
beforeAll(() => parser.init());

const short = (id: string) => id.split('#')[1];

describe('PhpExtractor', () => {
  const src = [
    '<?php', //                                                                   1
    'namespace App\\Billing;', //                                                 2
    'use App\\Models\\{Invoice, Customer as Client};', //                         3
    'use function App\\Util\\format_money;', //                                   4
    "require_once __DIR__ . '/helpers.php';", //                                  5
    '/**', //                                                                     6
    ' * Bills customers.', //                                                     7
    ' */', //                                                                     8
    'final class InvoiceService extends BaseService implements HasTotal, \\Countable', // 9
    '{', //                                                                       10
    '    use LogsActivity;', //                                                   11
    '    private const LIMIT = 10;', //                                           12
    '    private ?Repo $repo = null;', //                                         13
    '    public function __construct(private Mailer $mailer) { parent::__construct(); }', // 14
    '    /** @param Invoice $inv */', //                                           15
    '    public function create(Model $inv): Invoice', //                         16
    '    {', //                                                                   17
    '        $c = new Client();', //                                              18
    '        $c->notify($this->mailer->send($inv));', //                          19
    '        self::helper(); static::helper(); \\App\\Util\\log(1);', //          20
    '        $f = $this->repo; $f->save(); $g(); format_money(2);', //            21
    '        return $inv;', //                                                    22
    '    }', //                                                                   23
    '    protected static function helper(): void {}', //                         24
    '}', //                                                                       25
    'enum Status: string { case Paid = \'paid\'; }', //                           26
    'function top_level(int $a): int { return $a; }', //                          27
    '?>', //                                                                      28
    '<p>html after the code</p>', //                                              29
  ].join('\n');
  let f: ParsedFile;
  beforeAll(() => {
    f = parser.parseFile('src/InvoiceService.php', src);
  });

  it('parses PHP with inline HTML without errors', () => expect(f.errors).toEqual([]));

  it('extracts namespaces, types, members (promoted properties too) and functions, qualified with the namespace', () => {
    expect(f.scopes.map((s) => [short(s.id), s.startLine, s.endLine, s.exported])).toEqual([
      ['src/InvoiceService.php|file', 1, 29, undefined],
      ['App.Billing|namespace', 2, 29, undefined],
      ['App.Billing.InvoiceService|class', 9, 25, true],
      ['App.Billing.InvoiceService.LIMIT|variable', 12, 12, false],
      ['App.Billing.InvoiceService.repo|property', 13, 13, false],
      ['App.Billing.InvoiceService.__construct|constructor', 14, 14, true],
      ['App.Billing.InvoiceService.mailer|property', 14, 14, false],
      ['App.Billing.InvoiceService.create|method', 16, 23, true],
      ['App.Billing.InvoiceService.helper|method', 24, 24, false],
      ['App.Billing.Status|enum', 26, 26, true],
      ['App.Billing.Status.Paid|variable', 26, 26, true],
      ['App.Billing.top_level|function', 27, 27, true],
    ]);
    const cls = f.scopes.find((s) => s.name === 'InvoiceService')!;
    expect(cls.signature).toBe('final class InvoiceService extends BaseService implements HasTotal, \\Countable');
    expect(cls.docComment).toBe('Bills customers.');
    expect(f.scopes.find((s) => s.name === 'create')!.signature).toBe('public function create(Model $inv): Invoice');
  });

  it('records uses (group, alias, function), includes, heritage, trait use and calls as written', () => {
    expect(f.imports.map((i) => `${i.specifier} ${i.names.map((n) => `${n.imported}:${n.local}`).join(',')}`)).toEqual([
      'App.Models.Invoice class:Invoice',
      'App.Models.Customer class:Client',
      'App.Util.format_money function:format_money',
      './helpers.php ',
    ]);
    expect(f.references.filter((r) => r.kind !== 'REFERENCES').map((r) => `${short(r.fromId).split('|')[0].replace('App.Billing.', '')} ${r.kind} ${r.targetName}`)).toEqual([
      'InvoiceService EXTENDS BaseService',
      'InvoiceService IMPLEMENTS HasTotal',
      'InvoiceService IMPLEMENTS \\Countable',
      'InvoiceService IMPLEMENTS LogsActivity',
      'InvoiceService.__construct CALLS parent.__construct',
      'InvoiceService.create CALLS Client.__construct',
      'InvoiceService.create CALLS $c.notify',
      'InvoiceService.create CALLS this.mailer.send',
      'InvoiceService.create CALLS self.helper',
      'InvoiceService.create CALLS static.helper',
      'InvoiceService.create CALLS \\App.Util.log',
      'InvoiceService.create CALLS $f.save',
      'InvoiceService.create CALLS $g',
      'InvoiceService.create CALLS format_money',
    ]);
  });

  it('types parameters (PHPDoc over the declared type), properties, promoted parameters, locals and return types', () => {
    expect(f.bindings.map((b) => `${short(b.scopeId).split('|')[0].replace('App.Billing.', '')} ${b.name}: ${b.typeName}${b.member ? ' (member)' : ''}`)).toEqual([
      'InvoiceService repo: Repo (member)',
      'InvoiceService.__construct $mailer: Mailer',
      'InvoiceService mailer: Mailer (member)',
      'InvoiceService.create $inv: Invoice',
      'InvoiceService.create (): Invoice',
      'InvoiceService.create $c: Client',
      'InvoiceService.create $f: this.repo',
    ]);
  });
});
