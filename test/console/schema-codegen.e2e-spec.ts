import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema, type IntrospectionQuery } from 'graphql';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { gql } from '../support/graphql-client';
import { API_READY, freePort, ROOT, runId, RunningApp, startApp } from '../support/processes';

/**
 * scripts/codegen.mjs builds the schema from the resolver classes without booting the app; this proves
 * that schema is the one the running API serves, so the console's generated types describe real answers.
 */
describe('the console schema from codegen', () => {
  let api: RunningApp;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    api = await startApp('api', { API_PORT: String(port), QUEUE_PREFIX: runId('codegen') }, API_READY);
    url = `http://127.0.0.1:${port}/graphql`;
  }, 90_000);

  afterAll(async () => {
    await api?.stop();
  });

  it('is the schema the running API answers introspection with', async () => {
    const { status, body } = await gql<IntrospectionQuery>(url, getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    const served = printSchema(lexicographicSortSchema(buildClientSchema(body.data!)));
    const committed = readFileSync(path.join(ROOT, 'apps/web/src/api/schema.graphql'), 'utf8').replace(/^#.*\n/, '');
    expect(committed.trimEnd()).toBe(served.trimEnd());
  });
});
