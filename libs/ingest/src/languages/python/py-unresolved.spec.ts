import { ParserService } from '../../parse/parser.service';
import { resolveRepository } from '../../resolve/resolver';

const parser = new ParserService({ languages: ['python'] });
beforeAll(() => parser.init());

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
    const r = resolveRepository(files);
    const why = r.unresolved.filter((u) => u.type === 'CALLS').map((u) => `${u.targetName}:${u.reason}${u.origin ? `(${u.origin})` : ''}`).sort();
    expect(why).toEqual([
      '_width:dynamic',
      'append:dynamic',
      'callback.apply:dynamic',
      'callback:dynamic',
      'json.dumps:external(json)',
      'kw.get:dynamic',
      'made.run:unknown-receiver',
      'make_thing:not-found',
      'nowhere:not-found',
      'opts.on_done:dynamic',
      'requests.get:external(requests)',
      'self.hooks.append:unknown-receiver',
      'self.model.missing:not-found',
      'self.on_error:dynamic',
      'self.opts.retry:dynamic',
    ]);
  });
});
