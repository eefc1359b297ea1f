// Longest specs first, so with two workers none of them starts last and runs alone at the end. Jest
// orders by past durations from its cache, which a clean clone (CI) does not have, and then by file
// size, which puts some of the longest small files last. Seconds measured one at a time on a 2-core
// machine (main d0cd541, November 2026); only the order depends on them. Specs not listed keep jest's order.
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const SECONDS = new Map([
  ['test/safety/outage.e2e-spec.ts', 124],
  ['test/pipeline/ask.e2e-spec.ts', 110],
  ['test/ingest/partial-resolution.e2e-spec.ts', 87],
  ['test/cli/rate-limit.e2e-spec.ts', 80],
  ['test/ingest/embed-reuse.e2e-spec.ts', 56],
  ['test/console/console.e2e-spec.ts', 47],
  ['test/safety/lost-work.e2e-spec.ts', 42],
  ['test/ingest/retried-writes.e2e-spec.ts', 40],
  ['test/cli/cli.e2e-spec.ts', 39],
  ['test/search/search.e2e-spec.ts', 37],
  ['test/rerank/worker-kill.e2e-spec.ts', 37],
]);
const ROOT = path.resolve(__dirname, '../..');

class LongestFirst extends Sequencer {
  async sort(tests) {
    const base = await super.sort(tests);
    const seconds = (test) => SECONDS.get(path.relative(ROOT, test.path).split(path.sep).join('/')) ?? 0;
    // Array.prototype.sort is stable: unlisted specs stay in jest's order, after the listed ones.
    return [...base].sort((a, b) => seconds(b) - seconds(a));
  }
}

module.exports = LongestFirst;
