/**
 * @jest-environment ./libs/llm/src/embeddings/testing/onnx-jest-environment.ts
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEmbeddingProvider, tokenBatches } from './local-embedding.provider';
import { OnnxThread } from './onnx-thread';
import { DEFAULT_LOCAL_EMBEDDING_MODEL, getLocalModelSpec, localModelFiles, LocalModelNotInstalledError, resolveModelsDir } from './local-models';
import { cosineSimilarity, l2Norm } from './vector-math';

/**
 * Reference numbers computed once in Python (scratch venv, never a run-time dependency):
 * HF `tokenizers` (max_length 256, no padding) + `onnxruntime` on the same model.onnx, one text per
 * run, mean pooling over the attention mask, L2 normalisation — sentence-transformers' pipeline.
 * The same script also ran the original fp32 all-MiniLM-L6-v2 weights (model.safetensors, numpy):
 * cosine(int8 model, fp32 model) was 0.9997 on these sentences, so the int8 file loses ~nothing.
 */
const REFERENCE = [
  { text: 'how to parse a file', first8: [0.026066, 0.082043, -0.039489, -0.020683, -0.004221, -0.039798, 0.033058, 0.071972] },
  {
    text: 'export async function fetchUserById(id: string): Promise<User> { return db.users.find(id); }',
    first8: [-0.067504, 0.055885, -0.040114, 0.055229, -0.016745, 0.013611, -0.003416, 0.051673],
  },
  { text: '', first8: [-0.127353, 0.040874, -0.001428, -0.015986, 0.053876, 0.008883, 0.117883, 0.004815] },
];
const TOLERANCE = 1e-3;
const UNIT_NORM_TOLERANCE = 1e-5;
const DIMS = 384;
/** Loading the model and a few batches takes a second or two on 2 cores; leave headroom for CI. */
const MODEL_TEST_TIMEOUT_MS = 60_000;

const modelsDir = resolveModelsDir();
describe('LocalEmbeddingProvider without a model', () => {
  it('tells how to install the model when the directory is missing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'no-models-'));
    try {
      expect(() => new LocalEmbeddingProvider({ modelsDir: empty })).toThrow(LocalModelNotInstalledError);
      expect(() => new LocalEmbeddingProvider({ modelsDir: empty })).toThrow(/npm run models.*scripts\/models\.sh/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  /** Padded tokens plus the per-run overhead of a cut: what tokenBatches minimises. */
  const costOf = (batches: number[][], lengths: number[], overhead: number) => batches.reduce((sum, b) => sum + b.length * Math.max(...b.map((i) => lengths[i])) + overhead, 0);

  it('cuts length-sorted texts into batches within both the text and the padded-token limits', () => {
    const lengths = [10, 10, 20, 20, 40, 100, 300];
    const batches = tokenBatches(lengths.map((_, i) => i), (i) => lengths[i], 3, 100, 16);
    // At most 3 texts and 100 padded tokens a batch (300 over budget goes alone); within that, the
    // cuts that cost least: [10,10] 20+16, [20,20] 40+16, [40] 40+16, [100] and [300] alone.
    expect(batches).toEqual([[0, 1], [2, 3], [4], [5], [6]]);
    expect(tokenBatches([0, 1, 2, 3], () => 5, 32, Number.MAX_SAFE_INTEGER)).toEqual([[0, 1, 2, 3]]);
    expect(tokenBatches([], () => 5, 32, 2048)).toEqual([]);
  });

  it('cuts where padding costs least, not every batchSize texts', () => {
    // 31 short texts and 2 long ones: 32 at a time would pad 31 short texts to 100 tokens.
    const lengths = [...Array.from({ length: 31 }, () => 10), 100, 100];
    const order = lengths.map((_, i) => i);
    const cut = tokenBatches(order, (i) => lengths[i], 32, 4096, 64);
    expect(cut).toEqual([order.slice(0, 31), [31, 32]]);
    expect(costOf(cut, lengths, 64)).toBe(310 + 64 + 200 + 64);
  });

  it('finds the least-cost cuts (checked against every way of cutting small inputs)', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(random() * 9);
      const lengths = Array.from({ length: n }, () => 2 + Math.floor(random() * 120)).sort((a, b) => a - b);
      const [maxItems, maxTokens, overhead] = [1 + Math.floor(random() * 5), 60 + Math.floor(random() * 300), Math.floor(random() * 80)];
      const order = lengths.map((_, i) => i);
      let best = Infinity;
      for (let mask = 0; mask < 2 ** (n - 1); mask++) {
        const batches: number[][] = [[0]];
        for (let i = 1; i < n; i++) (mask & (1 << (i - 1)) ? batches.push([i]) : batches[batches.length - 1].push(i));
        if (batches.some((b) => b.length > maxItems || (b.length > 1 && b.length * lengths[b[b.length - 1]] > maxTokens))) continue;
        best = Math.min(best, costOf(batches, lengths, overhead));
      }
      expect(costOf(tokenBatches(order, (i) => lengths[i], maxItems, maxTokens, overhead), lengths, overhead)).toBe(best);
    }
  });

  it('rejects unknown models and bad options before touching the disk', () => {
    expect(() => new LocalEmbeddingProvider({ model: 'nope' })).toThrow(/Unknown local embedding model "nope"/);
    expect(() => new LocalEmbeddingProvider({ batchSize: 0 })).toThrow(/batchSize/);
    expect(() => new LocalEmbeddingProvider({ maxTokens: 4096 })).toThrow(/exceeds/);
  });
});

// No skip when the model is missing: init() then fails every test here with LocalModelNotInstalledError,
// which names the missing files and `npm run models`, so `npm run test:unit` cannot pass without the model.
describe('LocalEmbeddingProvider (all-MiniLM-L6-v2, real model)', () => {
  jest.setTimeout(MODEL_TEST_TIMEOUT_MS);
  let provider: LocalEmbeddingProvider;

  beforeAll(async () => {
    provider = new LocalEmbeddingProvider({ modelsDir, batchSize: 4 });
    await provider.init();
  });

  afterAll(async () => {
    await provider?.close();
  });

  it('produces 384-dimensional unit vectors', async () => {
    const [v] = await provider.embedDocuments(['hello world']);
    expect(provider.dimensions).toBe(DIMS);
    expect(v).toHaveLength(DIMS);
    expect(Math.abs(l2Norm(v) - 1)).toBeLessThan(UNIT_NORM_TOLERANCE);
  });

  it('ranks a related code description above an unrelated sentence', async () => {
    const [q, related, unrelated] = await provider.embedDocuments([
      'how to parse a file',
      'function that reads and parses source files',
      'the weather is sunny today',
    ]);
    expect(cosineSimilarity(q, related)).toBeGreaterThan(cosineSimilarity(q, unrelated));
  });

  it.each(REFERENCE.map((r) => [JSON.stringify(r.text).slice(0, 40), r] as const))('agrees with the Python reference for %s', async (_label, ref) => {
    const v = await provider.embedQuery(ref.text);
    v.slice(0, ref.first8.length).forEach((x, i) => expect(Math.abs(x - ref.first8[i])).toBeLessThan(TOLERANCE));
  });

  it('keeps input order across batches and gives the same vector batched or alone', async () => {
    const texts = Array.from({ length: 11 }, (_, i) => `function handler${i}(req, res) { return res.send(${'x'.repeat(i * 7)}); }`);
    const batched = await provider.embedDocuments(texts);
    expect(batched).toHaveLength(texts.length);
    for (const i of [0, 5, 10]) {
      const alone = await provider.embedQuery(texts[i]);
      expect(cosineSimilarity(alone, batched[i])).toBeGreaterThan(1 - UNIT_NORM_TOLERANCE);
    }
  });

  it('gives the same vectors when a token budget cuts long texts into smaller batches', async () => {
    const texts = Array.from({ length: 6 }, (_, i) => `class Store${i} { load() { return ${'this.items.map((x) => x.id);'.repeat(i * 3)} } }`);
    const tight = new LocalEmbeddingProvider({ modelsDir, maxBatchTokens: 256 });
    try {
      const [a, b] = [await provider.embedDocuments(texts), await tight.embedDocuments(texts)];
      texts.forEach((_, i) => expect(cosineSimilarity(a[i], b[i])).toBeGreaterThan(1 - UNIT_NORM_TOLERANCE));
    } finally {
      await tight.close();
    }
  });

  it('gives bit-identical vectors whether texts come in one call, in slices or alone (batch cuts do not change them)', async () => {
    const texts = Array.from({ length: 24 }, (_, i) => `func Handler${i}(w http.ResponseWriter) { ${'w.Write(body); '.repeat((i * 5) % 17)} }`);
    const whole = await provider.embedDocuments(texts);
    const sliced = [...(await provider.embedDocuments(texts.slice(0, 9))), ...(await provider.embedDocuments(texts.slice(9)))];
    const alone = await Promise.all([0, 11, 23].map((i) => provider.embedQuery(texts[i])));
    expect(sliced).toEqual(whole);
    expect(alone).toEqual([whole[0], whole[11], whole[23]]);
  });

  it('embeds empty input and truncates very long input instead of failing', async () => {
    const [empty, long] = await provider.embedDocuments(['', 'const x = 1;\n'.repeat(5_000)]);
    expect(empty).toHaveLength(DIMS);
    expect(long).toHaveLength(DIMS);
    expect(long.every(Number.isFinite)).toBe(true);
  });

  it("sends every batch, and the next caller's batches too, to the model thread before the first run answers", async () => {
    // The model thread runs what it is sent in order; waiting for each answer before sending the next
    // batch idles the model for a turn of the event loop between runs.
    let sent = 0;
    let answered = 0;
    const sentBeforeFirstAnswer: number[] = [];
    const original = OnnxThread.prototype.run;
    const run = jest.spyOn(OnnxThread.prototype, 'run');
    run.mockImplementation(function (this: OnnxThread, batch: Int32Array[]) {
      sent += 1;
      if (answered === 0) sentBeforeFirstAnswer.push(sent);
      return original.call(this, batch).finally(() => (answered += 1));
    });
    try {
      const a = Array.from({ length: 12 }, (_, i) => `func first${i}() {}`);
      const b = Array.from({ length: 4 }, (_, i) => `func second${i}() {}`);
      const [va, vb] = await Promise.all([provider.embedDocuments(a), provider.embedDocuments(b)]);
      // batchSize 4: three batches of the first caller, one of the second, all out before any answer.
      expect(sentBeforeFirstAnswer).toEqual([1, 2, 3, 4]);
      run.mockRestore();
      expect(va).toEqual(await provider.embedDocuments(a));
      expect(vb).toEqual(await Promise.all(b.map((t) => provider.embedQuery(t))));
    } finally {
      run.mockRestore();
    }
  });

  it('runs the model off the event loop: other work goes on during a model run', async () => {
    const p = new LocalEmbeddingProvider({ modelsDir, batchSize: 16 });
    try {
      await p.init();
      // One model run over 16 texts; every turn of the event loop meanwhile counts one tick. A
      // run on the event loop's own thread would let through at most the turns around it.
      let done = false;
      let ticks = 0;
      const tick = () => {
        ticks += 1;
        if (!done) setImmediate(tick);
      };
      const run = p.embedDocuments(Array.from({ length: 16 }, (_, i) => `const value${i} = compute(${i});\n`.repeat(8))).finally(() => (done = true));
      setImmediate(tick);
      expect(await run).toHaveLength(16);
      expect(ticks).toBeGreaterThan(20);
    } finally {
      await p.close();
    }
  });

  it('fails with how to reinstall when the model file does not load', async () => {
    const spec = getLocalModelSpec(DEFAULT_LOCAL_EMBEDDING_MODEL)!;
    const good = localModelFiles(spec, modelsDir);
    const dir = mkdtempSync(join(tmpdir(), 'bad-model-'));
    try {
      const bad = localModelFiles(spec, dir);
      mkdirSync(bad.dir, { recursive: true });
      copyFileSync(good.tokenizerPath, bad.tokenizerPath);
      writeFileSync(bad.modelPath, 'not an ONNX model');
      const p = new LocalEmbeddingProvider({ modelsDir: dir });
      await expect(p.embedQuery('x')).rejects.toThrow(/Could not load ONNX model .*npm run models/);
      await p.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('returns [] for no input and fails clearly once closed', async () => {
    const p = new LocalEmbeddingProvider({ modelsDir });
    expect(await p.embedDocuments([])).toEqual([]);
    await p.close();
    await expect(p.embedQuery('x')).rejects.toThrow(/closed/);
  });
});
