/**
 * Embedding throughput: LocalEmbeddingProvider vs a minimal direct onnxruntime-node loop.
 *
 * Both sides embed the same N generated code snippets with the same model file, thread count and
 * batch size. The direct loop gets the token ids ready-made (tokenised before timing) and the same
 * length-sorted batches our provider forms, then only builds tensors, runs the session and mean-pools:
 * the least work any embedding can take. The ratio therefore measures everything the provider adds
 * (tokenisation, batching, bookkeeping). Runs alternate between the two, several rounds, medians.
 * Target: ratio (direct embeddings/s ÷ ours) ≤ 1.2.
 *
 * Build and run from the repository root (there is no TS runtime loader in the repo):
 *   npx swc bench/embed libs/llm/src/embeddings -d /tmp/benchbuild --config-file .swcrc
 *   NODE_PATH=$PWD/node_modules node /tmp/benchbuild/bench/embed/embed-bench.js [--n 512] [--batch 32] [--rounds 5] [--threads N]
 * or after the normal build: node dist/bench/embed/embed-bench.js
 */
import { availableParallelism } from 'node:os';
import * as ort from 'onnxruntime-node';
import { BertWordPieceTokenizer } from '../../libs/llm/src/embeddings/bert-wordpiece-tokenizer';
import { LocalEmbeddingProvider } from '../../libs/llm/src/embeddings/local-embedding.provider';
import { DEFAULT_LOCAL_EMBEDDING_MODEL, getLocalModelSpec, localModelFiles } from '../../libs/llm/src/embeddings/local-models';
import { seededRandom } from '../../libs/rerank/src/prompt/shuffle';

const DEFAULTS = { n: 512, batch: 32, rounds: 5, threads: availableParallelism(), seed: 42 };
const TARGET_RATIO = 1.2;
const NS_PER_SECOND = 1e9;
/** A few statements per body give snippets from ~20 to well over 256 tokens, like real chunks. */
const MAX_EXTRA_STATEMENTS = 24;

function parseArgs(argv: string[]): typeof DEFAULTS {
  const out = { ...DEFAULTS };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '') as keyof typeof DEFAULTS;
    const value = Number(argv[i + 1]);
    if (!(key in out) || !Number.isInteger(value) || value <= 0) throw new Error(`bad argument ${argv[i]} ${argv[i + 1]}`);
    out[key] = value;
  }
  return out;
}


const VERBS = ['get', 'load', 'parse', 'build', 'resolve', 'index', 'fetch', 'update', 'validate', 'render', 'merge', 'compute'];
const NOUNS = ['User', 'Repository', 'Symbol', 'Chunk', 'Config', 'Token', 'Graph', 'Query', 'File', 'Embedding', 'Node', 'Edge'];
const TYPES = ['string', 'number', 'boolean', 'Map<string, number>', 'Promise<void>', 'readonly string[]', 'Record<string, unknown>'];
const STATEMENTS = [
  (v: string) => `  if (!${v}) throw new Error(\`missing ${v}\`);`,
  (v: string) => `  const next = ${v}.filter((x) => x.id !== undefined).map((x) => x.id);`,
  (v: string) => `  for (const item of ${v}) {\n    total += item.weight * factor;\n  }`,
  (v: string) => `  // Cache misses are expected on the first call after a deploy.\n  const cached = cache.get(${v}.key) ?? (await loader.load(${v}.key));`,
  (v: string) => `  logger.debug('processing %s', ${v}.name);`,
  (v: string) => `  return { ...${v}, updatedAt: Date.now(), version: ${v}.version + 1 };`,
  (v: string) => `  try {\n    await db.query('MATCH (n:File {path: $path}) RETURN n', { path: ${v}.path });\n  } catch (err) {\n    retries++;\n  }`,
];

function generateSnippets(n: number, rand: () => number): string[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  return Array.from({ length: n }, (_, i) => {
    const name = `${pick(VERBS)}${pick(NOUNS)}${pick(['', 'ById', 'Batch', 'Async', 'V2'])}`;
    const param = pick(NOUNS).toLowerCase();
    const lines = [`export async function ${name}(${param}: ${pick(TYPES)}, options: ${pick(NOUNS)}Options = {}): ${pick(TYPES)} {`];
    const statements = 1 + Math.floor(rand() * rand() * MAX_EXTRA_STATEMENTS);
    for (let s = 0; s < statements; s++) lines.push(pick(STATEMENTS)(param));
    lines.push(`}  // snippet ${i}`);
    return lines.join('\n');
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / NS_PER_SECOND;
}

/** The direct loop: prepared ids in, pooled unit vectors out, nothing else. */
async function directEmbed(session: ort.InferenceSession, batches: Int32Array[][], dims: number): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (const batch of batches) {
    const rows = batch.length;
    const len = Math.max(...batch.map((b) => b.length));
    const ids = new BigInt64Array(rows * len);
    const mask = new BigInt64Array(rows * len);
    batch.forEach((b, r) => b.forEach((id, j) => ((ids[r * len + j] = BigInt(id)), (mask[r * len + j] = 1n))));
    const shape = [rows, len];
    const result = await session.run({
      input_ids: new ort.Tensor('int64', ids, shape),
      attention_mask: new ort.Tensor('int64', mask, shape),
      token_type_ids: new ort.Tensor('int64', new BigInt64Array(rows * len), shape),
    });
    const hidden = result[session.outputNames[0]].data as Float32Array;
    batch.forEach((b, r) => {
      const v = new Float32Array(dims);
      for (let t = 0; t < b.length; t++) for (let d = 0; d < dims; d++) v[d] += hidden[(r * len + t) * dims + d];
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += v[d] * v[d];
      norm = Math.sqrt(norm);
      for (let d = 0; d < dims; d++) v[d] /= norm;
      out.push(v);
    });
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const spec = getLocalModelSpec(DEFAULT_LOCAL_EMBEDDING_MODEL)!;
  const files = localModelFiles(spec);
  const snippets = generateSnippets(args.n, seededRandom(args.seed));

  const ours = new LocalEmbeddingProvider({ batchSize: args.batch, intraOpNumThreads: args.threads });
  await ours.init();
  const session = await ort.InferenceSession.create(files.modelPath, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    intraOpNumThreads: args.threads,
    interOpNumThreads: 1,
  });

  // Same tokens and the same length-sorted grouping as the provider, prepared outside the timing.
  const tokenizer = BertWordPieceTokenizer.fromFile(files.tokenizerPath);
  let tokenizeSeconds = 0;
  let encoded: Int32Array[] = [];
  tokenizeSeconds = await timeIt(async () => {
    encoded = snippets.map((s) => tokenizer.encode(s, spec.maxTokens));
  });
  const order = encoded.map((_, i) => i).sort((a, b) => encoded[a].length - encoded[b].length);
  const batches: Int32Array[][] = [];
  for (let i = 0; i < order.length; i += args.batch) batches.push(order.slice(i, i + args.batch).map((k) => encoded[k]));
  const tokens = encoded.reduce((s, e) => s + e.length, 0);

  // Warm-up (allocator arenas, first-run kernel selection), then check both sides agree.
  const [warmOurs, warmDirect] = [await ours.embedDocuments(snippets), await directEmbed(session, batches, spec.dimensions)];
  const sortedOurs = order.map((k) => warmOurs[k]);
  let worst = 1;
  sortedOurs.forEach((v, i) => {
    let dot = 0;
    for (let d = 0; d < v.length; d++) dot += v[d] * warmDirect[i][d];
    worst = Math.min(worst, dot);
  });

  const oursRates: number[] = [];
  const directRates: number[] = [];
  for (let round = 0; round < args.rounds; round++) {
    const runOurs = async () => oursRates.push(args.n / (await timeIt(() => ours.embedDocuments(snippets))));
    const runDirect = async () => directRates.push(args.n / (await timeIt(() => directEmbed(session, batches, spec.dimensions))));
    // Alternate who goes first so that neither side always inherits a warm or throttled CPU.
    if (round % 2 === 0) {
      await runOurs();
      await runDirect();
    } else {
      await runDirect();
      await runOurs();
    }
  }
  await ours.close();
  await session.release();

  const oursMedian = median(oursRates);
  const directMedian = median(directRates);
  const ratio = directMedian / oursMedian;
  const fmt = (x: number) => x.toFixed(1).padStart(9);
  console.log(`model ${spec.id}  texts ${args.n}  tokens ${tokens} (avg ${(tokens / args.n).toFixed(0)})  batch ${args.batch}  threads ${args.threads}  rounds ${args.rounds}`);
  console.log(`tokenizer alone: ${(args.n / tokenizeSeconds).toFixed(0)} texts/s; min cosine ours vs direct: ${worst.toFixed(6)}`);
  console.log('round        ours/s  direct/s');
  oursRates.forEach((r, i) => console.log(`${String(i + 1).padEnd(8)}${fmt(r)}${fmt(directRates[i])}`));
  console.log(`median  ${fmt(oursMedian)}${fmt(directMedian)}   ratio direct/ours ${ratio.toFixed(3)} (target <= ${TARGET_RATIO})`);
  console.log(
    JSON.stringify({
      bench: 'embed',
      model: spec.id,
      n: args.n,
      batchSize: args.batch,
      threads: args.threads,
      rounds: args.rounds,
      tokens,
      oursEmbeddingsPerSec: Number(oursMedian.toFixed(2)),
      directEmbeddingsPerSec: Number(directMedian.toFixed(2)),
      ratio: Number(ratio.toFixed(4)),
      withinTarget: ratio <= TARGET_RATIO,
      minCosineOursVsDirect: Number(worst.toFixed(6)),
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
