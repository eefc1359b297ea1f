import { ParserService } from '../../parse/parser.service';
import type { ParsedFile } from '../../parse/types';

const parser = new ParserService({ languages: ['go'] });
beforeAll(() => parser.init());

const P = 'svc/server.go';
const id = (q: string, kind: string) => `${P}#${q}|${kind}`;

describe('GoExtractor', () => {
  const src = [
    '// Package svc serves.', //                                           1
    'package svc', //                                                      2
    '', //                                                                 3
    'import (', //                                                         4
    '\t"fmt"', //                                                          5
    '\tst "example.com/app/store"', //                                     6
    '\t. "strings"', //                                                    7
    ')', //                                                                8
    '', //                                                                 9
    '// Server serves', //                                                 10
    '// requests.', //                                                     11
    '//', //                                                               12
    '//go:generate stringer -type=Mode', //                                13
    'type Server struct {', //                                             14
    '\t*Base', //                                                          15
    '\trepo st.Repo', //                                                   16
    '\thook func(string)', //                                              17
    '\tall  []*Item', //                                                   18
    '}', //                                                                19
    '', //                                                                 20
    'type (', //                                                           21
    '\tHandler func(int) error', //                                        22
    '\tAlias = Server', //                                                 23
    '\tBox[T any] struct{ v T }', //                                       24
    ')', //                                                                25
    '', //                                                                 26
    '// Shape has an area.', //                                            27
    'type Shape interface {', //                                           28
    '\tfmt.Stringer', //                                                   29
    '\tArea() float64', //                                                 30
    '}', //                                                                31
    '', //                                                                 32
    'const A, B = 1, 2', //                                                33
    '', //                                                                 34
    'var Default = &Server{}', //                                          35
    '', //                                                                 36
    '// Serve runs.', //                                                   37
    'func (s *Server) Serve(n int, f func()) (*Item, error) {', //         38
    '\tx := NewServer()', //                                               39
    '\tr, err := st.Open("a")', //                                         40
    '\tvar z Server', //                                                   41
    '\tz.repo.Save(Upper(fmt.Sprint(n)))', //                              42
    '\tx.Load().Run()', //                                                 43
    '\tg := func() {}', //                                                 44
    '\tg()', //                                                            45
    '\tfor _, it := range s.all { it.Do() }', //                           46
    '\tsh := any(s).(Shape)', //                                           47
    '\treturn Map[int](r, err, sh), nil', //                               48
    '}', //                                                                49
    '', //                                                                 50
    'func (b Box[T]) Get() T { return b.v }', //                           51
    '', //                                                                 52
    'func NewServer() *Server { return &Server{repo: st.Repo{}} }', //     53
    'func init() {}', //                                                   54
    'func init() { Default.Serve(1, nil) }', //                            55
  ].join('\n');

  let f: ParsedFile;
  beforeAll(() => {
    f = parser.parseFile(P, src);
  });

  it('extracts the exact scope list: methods qualified by their receiver, interface methods, grouped types, consts and vars', () => {
    expect(f.errors).toEqual([]);
    expect(f.scopes.map((s) => [s.id, s.startLine, s.endLine, s.exported ?? null, s.owner ?? null])).toEqual([
      [`${P}#${P}|file`, 1, 55, null, null],
      [id('Server', 'struct'), 14, 19, true, null],
      [id('Handler', 'type_alias'), 22, 22, true, null],
      [id('Alias', 'type_alias'), 23, 23, true, null],
      [id('Box', 'struct'), 24, 24, true, null],
      [id('Shape', 'interface'), 28, 31, true, null],
      [id('Shape.Area', 'method'), 30, 30, true, null],
      [id('A', 'variable'), 33, 33, true, null],
      [id('B', 'variable'), 33, 33, true, null],
      [id('Default', 'variable'), 35, 35, true, null],
      [id('Server.Serve', 'method'), 38, 49, true, 'Server'],
      [id('Server.Serve.func1', 'function'), 44, 44, false, null], // named as Go's stack traces name closures
      [id('Box.Get', 'method'), 51, 51, true, 'Box'],
      [id('NewServer', 'function'), 53, 53, true, null],
      [id('init', 'function'), 54, 54, false, null],
      [id('init', 'function~1'), 55, 55, false, null],
    ]);
  });

  it('fills signatures without bodies and godoc comments without directives', () => {
    const by = new Map(f.scopes.map((s) => [s.id, s]));
    expect(by.get(id('Server', 'struct'))!.signature).toBe('type Server struct');
    expect(by.get(id('Server', 'struct'))!.docComment).toBe('Server serves\nrequests.');
    expect(by.get(id('Handler', 'type_alias'))!.signature).toBe('type Handler func(int) error');
    expect(by.get(id('Shape', 'interface'))!.docComment).toBe('Shape has an area.');
    expect(by.get(id('Shape.Area', 'method'))!.signature).toBe('Area() float64');
    expect(by.get(id('Server.Serve', 'method'))!.signature).toBe('func (s *Server) Serve(n int, f func()) (*Item, error)');
    expect(by.get(id('Server.Serve', 'method'))!.docComment).toBe('Serve runs.');
    expect(by.get(id('A', 'variable'))!.signature).toBe('const A, B = 1, 2');
    expect(by.get(id('NewServer', 'function'))!.docComment).toBeNull();
  });

  it('records calls as written (through call results too), heritage by embedding, and type uses', () => {
    const refs = f.references.map((r) => `${r.fromId.split('#')[1].split('|')[0]} ${r.kind} ${r.targetName} @${r.line}`);
    expect(refs).toEqual([
      'Server EXTENDS Base @15',
      'Server REFERENCES st.Repo @16',
      'Server REFERENCES Item @18',
      'Alias REFERENCES Server @23',
      'Shape EXTENDS fmt.Stringer @29',
      'Default REFERENCES Server @35',
      'Server.Serve REFERENCES Item @38',
      'Server.Serve CALLS NewServer @39',
      'Server.Serve CALLS st.Open @40',
      'Server.Serve REFERENCES Server @41',
      'Server.Serve CALLS z.repo.Save @42',
      'Server.Serve CALLS Upper @42',
      'Server.Serve CALLS fmt.Sprint @42',
      'Server.Serve CALLS x.Load().Run @43',
      'Server.Serve CALLS x.Load @43',
      'Server.Serve CALLS g @45',
      'Server.Serve CALLS it.Do @46',
      'Server.Serve CALLS any @47',
      'Server.Serve REFERENCES Shape @47',
      'Server.Serve CALLS Map[] @48', // a generic instantiation and an element look alike: the resolver decides
      'NewServer REFERENCES Server @53',
      'NewServer REFERENCES st.Repo @53',
      'init CALLS Default.Serve @55',
    ]);
  });

  it('records imports with their aliases as written', () => {
    expect(f.imports.map((i) => [i.specifier, i.names[0].local, i.line])).toEqual([
      ['fmt', '', 5],
      ['example.com/app/store', 'st', 6],
      ['strings', '.', 7],
    ]);
  });

  it('types receivers, parameters, fields, results, and locals from literals, calls and assertions', () => {
    const b = f.bindings.map((x) => `${x.scopeId.split('#')[1].split('|')[0]} ${x.name}: ${x.typeName}${x.member ? ' (member)' : ''}`);
    expect(b).toEqual([
      `${P} package: svc (member)`,
      'Server Base: Base (member)',
      'Server repo: st.Repo (member)',
      'Server hook: func (member)',
      'Server all: []Item (member)',
      'Handler =: func (member)',
      'Alias =: Server (member)',
      'Box v: ? (member)',
      'Shape.Area (): float64 (member)',
      `${P} A: ?`,
      `${P} B: ?`,
      `${P} Default: Server`,
      'Server.Serve s: Server',
      'Server.Serve n: int',
      'Server.Serve f: func',
      'Server.Serve (): Item (member)',
      'Server.Serve x: NewServer()',
      'Server.Serve r: st.Open()',
      'Server.Serve err: ?',
      'Server.Serve z: Server',
      'Server.Serve g: func',
      'Server.Serve it: s.all[]',
      'Server.Serve sh: Shape',
      'Box.Get b: Box',
      'NewServer (): Server (member)',
    ]);
  });
});
