import { ParserService } from '../../parse/parser.service';
import { resolveRepository } from '../../resolve/resolver';
import type { ResolveResult } from '../../resolve/types';

const parser = new ParserService({ languages: ['ruby'] });
beforeAll(() => parser.init());

const parse = (entries: Record<string, string>) => Object.entries(entries).map(([p, src]) => parser.parseFile(p, src));
const calls = (r: ResolveResult) => r.edges.filter((e) => e.type === 'CALLS').map((e) => `${e.fromId.split('#')[1].split('|')[0]} -> ${e.toId.split('#')[1]}`).sort();
const misses = (r: ResolveResult) => r.unresolved.filter((u) => u.type === 'CALLS').map((u) => `${u.targetName}: ${u.reason}`).sort();

describe('RubyResolver', () => {
  it('treats a class reopened in another file as one type, heritage and members included', () => {
    const r = resolveRepository(parse({
      'lib/a/base.rb': 'module A\n  class Base\n    def log; end\n  end\nend',
      'lib/a/thing.rb': 'module A\n  class Thing < Base\n    def run; end\n  end\nend',
      'lib/a/thing_ext.rb': "require 'a/thing'\nclass A::Thing\n  def again\n    run\n    log\n  end\nend",
      'main.rb': "require 'a/thing_ext'\nt = A::Thing.new\ndef go(t = A::Thing.new)\n  t.again\n  t.log\nend",
      // a namesake elsewhere: only the type (with its reopened part) can pick `again`
      'lib/other.rb': 'class Other\n  def again; end\nend',
    }));
    expect(calls(r)).toEqual([
      'A.Thing.again -> A.Base.log|method',
      'A.Thing.again -> A.Thing.run|method',
      'go -> A.Base.log|method',
      'go -> A.Thing.again|method',
      'go -> A.Thing|class',
      'main.rb -> A.Thing|class',
    ]);
    expect(r.fileImports.map((i) => `${i.fromPath} -> ${i.toPath}`)).toEqual(['lib/a/thing_ext.rb -> lib/a/thing.rb', 'main.rb -> lib/a/thing_ext.rb']);
  });

  it('follows mixins (include, and the ClassMethods idiom) and what a mixin calls on the classes that include it', () => {
    const r = resolveRepository(parse({
      'm.rb': [
        'module Named',
        '  def self.included(base); base.extend ClassMethods; end',
        '  module ClassMethods',
        '    def naming; end',
        '  end',
        '  def label',
        '    title',
        '  end',
        'end',
        'class Page',
        '  include Named',
        '  naming',
        '  def title; end',
        '  def show; label; end',
        'end',
      ].join('\n'),
    }));
    expect(calls(r)).toEqual([
      'Named.label -> Page.title|method',
      'Page -> Named.ClassMethods.naming|method',
      'Page.show -> Named.label|method',
    ]);
  });

  it('tells class methods from instance methods of the same name by the receiver', () => {
    const r = resolveRepository(parse({
      'k.rb': [
        'class K',
        '  def self.build; run; new.run; end',
        '  def run; build; self.class.build; end',
        '  class << self',
        '    def run; end',
        '  end',
        'end',
        'K.run',
        'module M; def self.new(x); end; end',
        'M.new(1)',
      ].join('\n'),
    }));
    expect(calls(r)).toEqual([
      'K.build -> K.run|method', // `new.run`: an instance's
      'K.build -> K.run|method~1', // bare `run` in a class method: the class's own (class << self)
      'K.build -> K|class', // `new`, no initialize
      'K.run -> K.build|method', // self.class.build
      'k.rb -> K.run|method~1',
      'k.rb -> M.new|method', // a module's own `def self.new`
    ]);
    // `build` called bare on an instance: instances do not answer class methods
    expect(misses(r)).toEqual(['build: not-found', 'self.class: builtin']);
  });

  it('labels what it cannot pin: core, gems, metaprogramming, and receivers of unknown class', () => {
    const r = resolveRepository(parse({
      'lib/x.rb': [
        "require 'json'",
        "require 'rack'",
        'class X < Rack::Builder',
        '  def a(h); h.each_pair { }; JSON.parse(h); Rack::Lint.new; send(:bump); use(1); end',
        '  def bump; end',
        'end',
        'class Y',
        '  def go(thing, list = []); thing.unique_here; thing.bump; thing.c; list.first; thing.zzz; nope; end',
        '  def c; end',
        'end',
        'class Z; def c; end; def unique_here; end; end',
      ].join('\n'),
    }));
    expect(misses(r)).toEqual([
      'JSON.parse: builtin',
      'Rack.Lint.new: external',
      'h.each_pair: builtin',
      'list.first: builtin',
      'nope: external',
      'send: dynamic',
      'thing.c: unknown-receiver',
      'thing.zzz: external',
      'use: external',
    ]);
    // one method of that name in the whole repository: the duck-typed call lands on it
    expect(calls(r)).toEqual(['Y.go -> X.bump|method', 'Y.go -> Z.unique_here|method']);
    expect(r.fileImports.map((i) => i.external)).toEqual(['json', 'rack']);
  });

  it('lands a duck-typed call on the base method the other same-named methods override; leaves core names unknown', () => {
    const r = resolveRepository(parse({
      'lib/p.rb': [
        'class Pattern; def peek_size(s); end; def to_s; end; end',
        'class Concat < Pattern; def peek_size(s); end; end',
        'module Sized; def width; end; end',
        'class Box; include Sized; def width; end; end',
        'class Other; def width; end; end',
        'def go(p, q)',
        '  p.peek_size(1)',
        '  q.width',
        '  p.to_s',
        'end',
      ].join('\n'),
    }));
    expect(calls(r)).toEqual(['go -> Pattern.peek_size|method']);
    // `width`: Other's is no override of Sized's; `to_s`: core Ruby answers it too
    expect(misses(r)).toEqual(['p.to_s: unknown-receiver', 'q.width: unknown-receiver']);
  });

  it("types values by Ruby's conversion protocol and Enumerable's block methods", () => {
    const r = resolveRepository(parse({
      'lib/c.rb': [
        'class Comp',
        '  def initialize(string, patterns)',
        '    @string = string.to_s.dup',
        '    @patterns = patterns.flat_map { |p| [p] }',
        '  end',
        '  def size; end',
        '  def map; end',
        '  def go(m)',
        '    @string.size',
        '    @patterns.map { |x| x }',
        '    m.to_s.size',
        '  end',
        'end',
      ].join('\n'),
    }));
    // `size` and `map` are Comp's too: only the values' types say these are String's and Array's
    expect(misses(r)).toEqual([
      '@patterns.map: builtin', '@string.size: builtin', 'm.to_s.size: builtin', 'm.to_s: builtin',
      'patterns.flat_map: builtin', 'string.to_s.dup: builtin', 'string.to_s: builtin',
    ]);
  });
});

