import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultPlan, type SearchMode, SearchRepository, SearchService } from '../../libs/search/src';
import { IngestHarness } from '../support/ingest-harness';
import { pollUntil } from '../support/poll';
import { runId } from '../support/processes';

jest.setTimeout(120_000);

// Relationship questions in plain words answered from the graph in the languages beyond TS/Python/C#:
// Go's implicit interface satisfaction, Rust's `impl Trait for Type`, Java's `implements`, PHP's
// interfaces, callers across files, and the language filter.
describe('structural questions over Go, Rust, Java, PHP and Ruby', () => {
  const repoId = runId('langs');
  const h = new IngestHarness();
  let service: SearchService;
  let root: string;

  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  const search = (mode: SearchMode, text: string, language?: string) => {
    const plan = defaultPlan(mode, text);
    plan.filters = { repository: repoId, ...(language ? { languages: [language as never] } : {}) };
    return service.execute(plan);
  };
  const names = (res: Awaited<ReturnType<typeof search>>) => res.results.map((r) => `${r.scope.language} ${r.scope.qualifiedName}`);

  beforeAll(async () => {
    await h.init();
    root = h.emptyDir();
    write('go.mod', 'module example.com/kv\n\ngo 1.22\n');
    write('store/store.go', 'package store\n\n// Store keeps values by key.\ntype Store interface {\n\tSave(key string, value []byte) error\n}\n');
    write('store/memory.go', 'package store\n\ntype MemoryStore struct{ m map[string][]byte }\n\nfunc (s *MemoryStore) Save(key string, value []byte) error {\n\ts.m[key] = value\n\treturn nil\n}\n');
    write('store/disk.go', 'package store\n\ntype DiskStore struct{ dir string }\n\nfunc (d DiskStore) Save(key string, value []byte) error { return nil }\n');
    write('cmd/main.go', 'package main\n\nimport "example.com/kv/store"\n\nfunc main() {\n\ts := &store.MemoryStore{}\n\tpersist(s)\n}\n\nfunc persist(s *store.MemoryStore) {\n\t_ = s.Save("k", nil)\n}\n');
    write('shapes/Cargo.toml', '[package]\nname = "shapes"\nversion = "0.1.0"\nedition = "2021"\n');
    write('shapes/src/lib.rs', 'pub mod circle;\n\n/// Anything with an area.\npub trait Area {\n    fn area(&self) -> f64;\n}\n\npub struct Square(pub f64);\n\nimpl Area for Square {\n    fn area(&self) -> f64 { self.0 * self.0 }\n}\n');
    write('shapes/src/circle.rs', 'use crate::Area;\n\npub struct Circle { pub r: f64 }\n\nimpl Area for Circle {\n    fn area(&self) -> f64 { 3.14 * self.r * self.r }\n}\n');
    write('java/src/main/java/com/acme/Greeter.java', 'package com.acme;\n\npublic interface Greeter {\n    String greet(String name);\n}\n');
    write('java/src/main/java/com/acme/PoliteGreeter.java', 'package com.acme;\n\npublic class PoliteGreeter implements Greeter {\n    public String greet(String name) { return "Good day, " + name; }\n}\n');
    write('php/src/Notifier.php', '<?php\nnamespace App;\n\ninterface Notifier\n{\n    public function notify(string $message): void;\n}\n');
    write('php/src/MailNotifier.php', '<?php\nnamespace App;\n\nclass MailNotifier implements Notifier\n{\n    public function notify(string $message): void {}\n}\n');
    write('ruby/lib/greeting.rb', "module Greeting\n  def greet(name)\n    \"Hello, #{name}\"\n  end\nend\n");
    write('ruby/lib/host.rb', "require_relative 'greeting'\n\nclass Host\n  include Greeting\nend\n");
    await h.ingest.index({ path: root, name: repoId });
    service = new SearchService(new SearchRepository(h.neo4j), h.embedder);
    await pollUntil('the full-text index to serve MemoryStore', async () => (await search('bm25', 'MemoryStore')).results.length > 0);
  });

  afterAll(() => h.dispose([repoId]));

  it('Go: structs satisfy an interface by their method sets, with no declaration saying so', async () => {
    const res = await search('graph', 'which structs implement the Store interface?');
    expect(res.explain.structural).toMatchObject({ relation: 'implementers', target: 'Store' });
    expect(names(res).slice(0, 2).sort()).toEqual(['go DiskStore', 'go MemoryStore']);
  });

  it("in each language's own words: a Go interface satisfied, a Ruby module included", async () => {
    const go = await search('graph', 'what satisfies the Store interface');
    expect(go.explain.structural).toMatchObject({ relation: 'implementers', target: 'Store' });
    expect(names(go).slice(0, 2).sort()).toEqual(['go DiskStore', 'go MemoryStore']);
    const ruby = await search('graph', 'which classes include the Greeting module');
    expect(ruby.explain.structural).toMatchObject({ relation: 'implementers', target: 'Greeting' });
    expect(names(ruby).slice(0, 1)).toEqual(['ruby Host']);
  });

  it('Rust: the types with an `impl Trait for Type`, across files of the crate', async () => {
    const res = await search('graph', 'which types implement the Area trait');
    expect(names(res).slice(0, 2).sort()).toEqual(['rust Circle', 'rust Square']);
  });

  it('Java and PHP: implementers of an interface, each in its own language', async () => {
    expect(names(await search('graph', 'implementations of Greeter')).slice(0, 1)).toEqual(['java PoliteGreeter']);
    expect(names(await search('graph', 'which classes implement Notifier?')).slice(0, 1)).toEqual(['php App.MailNotifier']);
  });

  it('Go: who calls a method through a typed receiver in another package; the language filter keeps to Go', async () => {
    const callers = await search('graph', 'who calls MemoryStore.Save');
    expect(names(callers)).toContain('go persist');
    const onlyGo = await search('bm25', 'Save', 'go');
    expect(onlyGo.results.length).toBeGreaterThan(0);
    expect(new Set(onlyGo.results.map((r) => r.scope.language))).toEqual(new Set(['go']));
  });
});
