import * as fs from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { ANCHOR_SCAN } from '@scopegraph/search';
import { gql } from '../support/graphql-client';
import { IngestHarness } from '../support/ingest-harness';
import { API_READY, freePort, runId, RunningApp, startApp } from '../support/processes';

jest.setTimeout(420_000);
Logger.overrideLogger(['error', 'warn']);

// A name defined in many places (Salt's `__virtual__` in every loader module: 20,425 scopes at 1M)
// made GRAPH read and rank every definition. Through the API: the anchors read are bounded, explain
// says how many scopes carry the name and how many were read, and the scope spelled as asked is read
// first even when another spelling has more definitions than the bound.
describe('GRAPH anchors of a name defined in many places (GraphQL)', () => {
  const repoId = runId('anchors');
  const h = new IngestHarness();
  const MANY = ANCHOR_SCAN + 30;
  let api: RunningApp | undefined;
  let url: string;
  const SEARCH = `query($input: SearchInput!) { search(input: $input) {
    results { scope { qualifiedName path } via { anchorId depth } }
    explain warnings } }`;

  beforeAll(async () => {
    await h.init();
    const root = h.emptyDir();
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    };
    // MANY definitions of `Handler` (a spelling "who calls handler" also looks up), one of `handler`, called once.
    for (let i = 0; i < MANY; i++) write(`plugins/p${String(i).padStart(3, '0')}.py`, `def Handler():\n    return ${i}\n`);
    write('core/handler.py', 'def handler():\n    return "the one asked about"\n');
    write('core/main.py', 'from core.handler import handler\n\n\ndef run():\n    return handler()\n');
    const r = await h.ingest.index({ path: root, name: repoId, embed: false });
    expect(r.scopes.total).toBeGreaterThan(MANY);
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    api = await startApp('api', { API_PORT: String(port), QUEUE_PREFIX: runId('anchorsapi') }, API_READY, 240_000);
  });

  afterAll(async () => {
    await api?.stop();
    await h.dispose([repoId]);
  });

  it('reads at most ANCHOR_SCAN per lookup, the spelling asked first, and says how many scopes carry the name', async () => {
    const { status, body } = await gql(url, SEARCH, { input: { text: 'who calls handler', repository: repoId, mode: 'GRAPH', topK: 5 } });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const { results, explain } = body.data.search;
    expect(results.map((r: { scope: { qualifiedName: string } }) => r.scope.qualifiedName)).toEqual(['run']);
    expect(results[0].via).toMatchObject({ anchorId: `${repoId}:core/handler.py#handler|function`, depth: 1 });
    const s = explain.structural;
    expect(s.definitions).toBe(MANY + 1);
    // The exact spelling, then at most ANCHOR_SCAN of both spellings (the lookups overlap): not all MANY + 1.
    expect(s.considered).toBeGreaterThanOrEqual(ANCHOR_SCAN);
    expect(s.considered).toBeLessThanOrEqual(ANCHOR_SCAN + 1);
    expect(s.anchors.map((a: { path: string }) => a.path)).toEqual(['core/handler.py']);
    expect(s.anchorNote).toMatch(new RegExp(`"handler" names ${MANY + 1} scopes: ${s.considered} of them were read`));
    expect(explain.notes).toContain(s.anchorNote);
  });

  it('reads every definition of a name with few, and adds no note', async () => {
    const { body } = await gql(url, SEARCH, { input: { text: 'who calls run', repository: repoId, mode: 'GRAPH', topK: 5 } });
    expect(body.errors).toBeUndefined();
    const s = body.data.search.explain.structural;
    expect(s).toMatchObject({ definitions: 1, considered: 1 });
    expect(s.anchorNote).toBeUndefined();
  });
});
