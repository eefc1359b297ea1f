import { ParserService } from '../../parse/parser.service';
import type { ParsedFile } from '../../parse/types';

const parser = new ParserService({ languages: ['ruby'] });
beforeAll(() => parser.init());

const short = (id: string) => id.split('#')[1];
const refs = (f: ParsedFile) => f.references.map((r) => `${short(r.fromId).split('|')[0]} ${r.kind} ${r.targetName} @${r.line}`);

describe('RubyExtractor', () => {
  const src = [
    '# frozen_string_literal: true', //                 1
    "require 'json'", //                                 2
    "require_relative 'lib/base'", //                    3
    'module Shop::Billing', //                           4
    '  # An invoice.', //                                5
    '  # Second line.', //                               6
    '  class Invoice < Base::Entity', //                 7
    '    include Comparable', //                         8
    '    extend Forwardable', //                         9
    '    attr_accessor :total', //                       10
    "    RATE = 0.2", //                                 11
    '    def initialize(repo, *rest, **opts)', //        12
    '      @repo = Repo.new', //                         13
    '      super(repo)', //                              14
    '    end', //                                        15
    '    # @param [Printer] printer', //                 16
    '    def self.build(printer, x = [])', //            17
    '      new.save', //                                 18
    '      printer.print(x)', //                         19
    '    end', //                                        20
    '    class << self', //                              21
    '      def other; end', //                           22
    '    end', //                                        23
    '    def save', //                                   24
    '      x = Foo::Bar.new', //                         25
    '      x.run(1)', //                                 26
    '      self.total', //                               27
    '      @repo.put', //                                28
    '      items.each { |i| i.go }', //                  29
    '      raise Error', //                              30
    '    end', //                                        31
    '    private', //                                    32
    '    def secret = Repo.new', //                      33
    '  end', //                                          34
    'end', //                                            35
    'def helper; end', //                                36
  ].join('\n');
  let f: ParsedFile;
  beforeAll(() => {
    f = parser.parseFile('lib/invoice.rb', src);
  });

  it('parses without errors', () => expect(f.errors).toEqual([]));

  it('extracts modules, classes, methods (instance and class alike), constructors, attributes, constants and top-level defs', () => {
    expect(f.scopes.map((s) => [short(s.id), s.startLine, s.endLine, s.exported])).toEqual([
      ['lib/invoice.rb|file', 1, 36, undefined],
      ['Shop.Billing|module', 4, 35, true],
      ['Shop.Billing.Invoice|class', 7, 34, true],
      ['Shop.Billing.Invoice.total|property', 10, 10, true],
      ['Shop.Billing.Invoice.RATE|variable', 11, 11, true],
      ['Shop.Billing.Invoice.initialize|constructor', 12, 15, false],
      ['Shop.Billing.Invoice.build|method', 17, 20, true],
      ['Shop.Billing.Invoice.other|method', 22, 22, true],
      ['Shop.Billing.Invoice.save|method', 24, 31, true],
      ['Shop.Billing.Invoice.secret|method', 33, 33, false],
      ['helper|function', 36, 36, true],
    ]);
  });

  it('writes signatures without bodies and `#` doc blocks without markers (magic comments are not docs)', () => {
    const by = (q: string) => f.scopes.find((s) => s.qualifiedName === q)!;
    expect(by('Shop.Billing').docComment).toBeNull();
    expect(by('Shop.Billing.Invoice').signature).toBe('class Invoice < Base::Entity');
    expect(by('Shop.Billing.Invoice').docComment).toBe('An invoice.\nSecond line.');
    expect(by('Shop.Billing.Invoice.build').signature).toBe('def self.build(printer, x = [])');
    expect(by('Shop.Billing.Invoice.other').signature).toBe('def self.other');
    expect(by('Shop.Billing.Invoice.total').signature).toBe('attr_accessor :total');
  });

  it('records requires, heritage, mixins and calls as written (`::` as `.`; bare non-local names are calls)', () => {
    expect(f.imports.map((i) => i.specifier)).toEqual(['json', './lib/base']);
    expect(refs(f)).toEqual([
      'Shop.Billing.Invoice EXTENDS Base.Entity @7',
      'Shop.Billing.Invoice IMPLEMENTS Comparable @8',
      'Shop.Billing.Invoice IMPLEMENTS Forwardable @9',
      'Shop.Billing.Invoice.initialize CALLS Repo.new @13',
      'Shop.Billing.Invoice.initialize CALLS super @14',
      'Shop.Billing.Invoice.build CALLS new.save @18',
      'Shop.Billing.Invoice.build CALLS new @18',
      'Shop.Billing.Invoice.build CALLS printer.print @19',
      'Shop.Billing.Invoice.save CALLS Foo.Bar.new @25',
      'Shop.Billing.Invoice.save CALLS x.run @26',
      'Shop.Billing.Invoice.save CALLS self.total @27',
      'Shop.Billing.Invoice.save CALLS @repo.put @28',
      'Shop.Billing.Invoice.save CALLS items.each @29',
      'Shop.Billing.Invoice.save CALLS items @29',
      'Shop.Billing.Invoice.save CALLS i.go @29',
      'Shop.Billing.Invoice.save CALLS raise @30',
      'Shop.Billing.Invoice.save REFERENCES Error @30',
      'Shop.Billing.Invoice.secret CALLS Repo.new @33',
    ]);
  });

  it('types receivers from `.new`, literals, splats, YARD @param and a method\'s last expression', () => {
    expect(f.bindings.map((b) => `${short(b.scopeId).split('|')[0]} ${b.name}: ${b.typeName}${b.member ? ' (member)' : ''}`)).toEqual([
      'Shop.Billing.Invoice.initialize rest: Array',
      'Shop.Billing.Invoice.initialize opts: Hash',
      'Shop.Billing.Invoice @repo: Repo (member)',
      'Shop.Billing.Invoice.build printer: Printer',
      'Shop.Billing.Invoice.build x: Array',
      'Shop.Billing.Invoice.save x: Foo.Bar',
      'Shop.Billing.Invoice.secret (): Repo',
    ]);
  });

  it('parses Rakefiles and .rake files as Ruby', () => {
    expect(parser.supports('Rakefile')).toBe(true);
    expect(parser.supports('lib/tasks/db.rake')).toBe(true);
  });

  it("makes a method scope of every name a Forwardable or ActiveSupport delegation or an alias defines, and leaves DSL calls named `delegate` alone", () => {
    const f = parser.parseFile('lib/a.rb', [
      'class A', //                                                          1
      '  extend Forwardable', //                                             2
      '  instance_delegate %i[parser compiler] => "self.class"', //          3
      '  instance_delegate parse: :parser', //                               4
      '  def_delegators :@x, :size, :each', //                               5
      '  def_delegator :@y, :first, :head', //                               6
      '  delegate :name, to: :user', //                                      7
      '  delegate :age, to: :user, prefix: true', //                         8
      '  def_single_delegators :@z, :build', //                              9
      '  state(:root) { delegate Other }', //                               10
      '  alias_method :node, :__getobj__', //                               11
      '  alias fresh head', //                                              12
      'end', //                                                             13
    ].join('\n'));
    expect(f.errors).toEqual([]);
    expect(f.scopes.filter((s) => s.kind === 'method').map((s) => `${short(s.id)} @${s.startLine} ${s.owner ?? ''}`)).toEqual([
      'A.parser|method @3 ', 'A.compiler|method @3 ', 'A.parse|method @4 ', 'A.size|method @5 ', 'A.each|method @5 ',
      'A.head|method @6 ', 'A.name|method @7 ', 'A.build|method @9 self', 'A.node|method @11 ', 'A.fresh|method @12 ',
    ]);
    expect(refs(f).filter((r) => r.includes('Other') || r.includes('delegate'))).toEqual(['A CALLS delegate @8', 'A REFERENCES Other @10']);
  });
});

