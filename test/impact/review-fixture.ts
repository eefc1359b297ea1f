import type { GenerateRequest } from '../fakes/fake-gemini';
import { gql } from '../support/graphql-client';
import { pollUntil } from '../support/poll';
import { GitRepo } from './git-repo';

// What the written-review specs share: a small Python repository whose history makes pkg/conf.py's
// settings change with helper in every commit (no static edge between them), a covering test, and
// reading the ids the review prompt offered the fake model.

export const util = (n: number, extra = '') => `def helper(x):\n    return x + ${n}\n\n\ndef unused_thing():\n    return 0\n${extra}`;
const conf = (n: number) => `def settings():\n    return ${n}\n`;

/** Three commits: helper and settings change together in each. */
export function commitCoChangeHistory(git: GitRepo): void {
  git.commit('start', {
    'pkg/util.py': util(1),
    'pkg/app.py': 'from pkg.util import helper\n\n\ndef run_app():\n    return helper(1)\n',
    'pkg/conf.py': conf(1),
    'tests/test_util.py': 'from pkg.util import helper\n\n\ndef test_helper():\n    assert helper(1) == 2\n',
  });
  git.commit('helper and settings', { 'pkg/util.py': util(2), 'pkg/conf.py': conf(2) });
  git.commit('helper and settings again', { 'pkg/util.py': util(3), 'pkg/conf.py': conf(3) });
}

/** Indexes `path` as `name` and waits until its git history has been read. */
export async function indexWithHistory(url: string, path: string, name: string, headers: Record<string, string> = {}): Promise<void> {
  const queued = await gql(url, 'mutation($i: IndexRepositoryInput!) { indexRepository(input: $i) { id } }', { i: { path, name } }, headers);
  if (queued.body.errors) throw new Error(`indexRepository failed: ${JSON.stringify(queued.body.errors)}`);
  let last: unknown;
  await pollUntil(
    `${name} indexed with its history`,
    async () => {
      const r = await gql(url, 'query($r: String!) { history(repository: $r) { status } }', { r: name }, headers);
      last = r.body;
      return r.body.data?.history.status === 'git';
    },
    { timeoutMs: 60_000, intervalMs: 300, seen: () => last },
  );
}

/** The scope ids the review prompt's facts hold (each citable fact starts with `[id] `). */
export const factIds = (r: GenerateRequest) => [...(/<facts>\n([\s\S]*?)\n<\/facts>/.exec(r.text)?.[1] ?? '').matchAll(/^\[([^\]\s]+)\] /gm)].map((m) => m[1]);
export const idOf = (ids: string[], name: string) => ids.find((id) => id.endsWith(`#${name}|function`));
