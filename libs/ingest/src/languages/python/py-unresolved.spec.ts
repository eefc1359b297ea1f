import { ParserService } from '../../parse/parser.service';
import { resolveRepository } from '../../resolve/resolver';

const parser = new ParserService({ languages: ['python'] });
beforeAll(() => parser.init());

/** The repository's unresolved calls as `name:reason(origin)`, sorted, and its CALLS edges. */
function calls(files: ReturnType<ParserService['parseFile']>[]): { why: string[]; edges: number } {
  const r = resolveRepository(files);
  const why = r.unresolved.filter((u) => u.type === 'CALLS').map((u) => `${u.targetName}:${u.reason}${u.origin ? `(${u.origin})` : ''}`);
  return { why: why.sort(), edges: r.edges.filter((e) => e.type === 'CALLS').length };
}

describe('Python: why a call the name-based resolver could not pin stays unresolved', () => {
  it('calls through parameters and attributes set from them are dynamic; typed ones, stdlib and dependencies are not', () => {
    const files = [
      parser.parseFile('pkg/worker.py', [
        'import json',
        'import requests',
        'from pkg.model import Model',
        '',
        'class Worker:',
        '    def __init__(self, on_error, opts, model: Model, hooks):',
        '        self.on_error = on_error',
        '        self.opts = opts',
        '        self.model = model',
        '        self.hooks = hooks or []',
        '',
        '    def run(self, callback, *handlers, **kw):',
        '        callback()', //                         a parameter called
        '        self.on_error()', //                    an attribute set from a parameter
        '        self.opts.retry()', //                  a member of an attribute set from a parameter
        '        kw.get("x")', //                         **kwargs
        '        self.model.missing()', //               typed: a real miss
        '        self.hooks.append(1)', //               not from a bare parameter: unknown
        '        json.dumps({})', //                     standard library
        '        requests.get("u")', //                  dependency
        '        nowhere()', //                          nothing declares it
        '        append = handlers.append',
        '        append(1)', //                          a local holding a bound method
        '        made = make_thing()',
        '        made.run()', //                         a method on a local: its type is knowable, unknown
        '        def inner():',
        '            callback.apply()', //               the enclosing function's parameter
        '',
        'def top(opts):',
        '    opts.on_done()',
        '    _width()', //                                a module variable holding a function
        '',
        '_width = len',
      ].join('\n')),
      parser.parseFile('pkg/model.py', 'class Model:\n    def save(self):\n        pass\n'),
      parser.parseFile('pkg/__init__.py', ''),
    ];
    expect(calls(files).why).toEqual([
      '_width:dynamic',
      'append:dynamic',
      'callback.apply:dynamic',
      'callback:dynamic',
      'json.dumps:external(json)',
      'kw.get:dynamic',
      'made.run:unknown-receiver', //             `run` is an in-repo method: a checker may pin it
      'make_thing:external', //                   nothing in the repository declares, assigns or imports it
      'nowhere:external',
      'opts.on_done:dynamic',
      'requests.get:external(requests)',
      'self.hooks.append:dynamic', //              no in-repo scope is `append`; the name holds a value

      'self.model.missing:not-found',
      'self.on_error:dynamic',
      'self.opts.retry:dynamic',
    ]);
  });

  it('a local rebound through its own method (`a = a.Spawn()`) ends unresolved instead of recursing without end', () => {
    // impacket's examples: a capitalised call reads as a class, so `a` was typed through `a` itself and
    // the index run failed with a stack overflow.
    const source = "def run(svc):\n    active, _ = svc.GetObject('x')\n    active = active.SpawnInstance()\n    active.marshal()\n    active = active.Spawn().Again()\n    active.marshal()\n";
    const found = calls([parser.parseFile('pkg/consumer.py', source), parser.parseFile('pkg/other.py', 'class Other:\n    def marshal(self):\n        pass\n')]);
    expect(found.why).toContain('active.marshal:unknown-receiver');
    expect(found.edges).toBe(0);
  });

  const asked = (files: ReturnType<ParserService['parseFile']>[]) => {
    const names: string[] = [];
    const r = resolveRepository(files, {
      preciseFamilies: new Set(['py']),
      precise: { resolve: (ref) => void names.push(ref.targetName) },
    });
    return { names: names.sort(), r };
  };

  it('asks the checker only where an in-repo scope (or an import) has the last name: elsewhere no answer can make an edge', () => {
    const files = [
      parser.parseFile('pkg/http.py', [
        'from pkg.codec import decode as unpack, Codec',
        '',
        'class Session:',
        '    def __init__(self, adapter, codec: Codec):',
        '        self.adapter = adapter',
        '        self.codec = codec',
        '',
        '    def send(self, url, state):',
        '        url.lower()', //                 str method on a parameter: dynamic, not asked
        '        text = fetch(url)',
        '        text.strip()', //                method no in-repo scope has: external, not asked
        '        text.send()', //                 `send` is Session.send: asked
        '        self.adapter.close()', //        attribute set from a parameter, `close` declared nowhere: not asked
        '        self.adapter.mount()', //        dynamic, but `mount` is an in-repo function: asked
        '        unpack(text)', //                an import alias: the fast resolver follows it
        '        self.dict_class()', //           a class attribute holding a value: dynamic, not asked
        '        self.codec.undefined()', //      typed receiver lacking the member: a miss, asked
        '',
        'def mount():',
        '    pass',
      ].join('\n')),
      parser.parseFile('pkg/codec.py', 'def decode(b):\n    return b\n\nclass Codec:\n    pass\n'),
      parser.parseFile('pkg/__init__.py', ''),
    ];
    const { names, r } = asked(files);
    expect(names).toEqual(['self.adapter.mount', 'self.codec.undefined', 'text.send']);
    const why = Object.fromEntries(r.unresolved.filter((u) => u.type === 'CALLS').map((u) => [u.targetName, u.reason]));
    expect(why).toMatchObject({
      'url.lower': 'dynamic',
      'text.strip': 'external',
      fetch: 'external',
      'self.adapter.close': 'dynamic',
      'self.dict_class': 'dynamic',
      'text.send': 'unknown-receiver',
      'self.codec.undefined': 'not-found',
    });
  });
});
