'use strict';
/**
 * The ONNX Runtime session of one LocalEmbeddingProvider, on a worker thread (see onnx-thread.ts).
 * onnxruntime-node runs a model synchronously on the calling thread, so on the API's event loop
 * every query embedding stalled every other request for the length of the model run.
 *
 * Plain JavaScript because a worker thread loads its file as it is, and the same file has to run
 * from the sources (jest) and from dist/.
 *
 * Messages in: { id, batch: Int32Array[] } (token ids, [CLS] ... [SEP], one array per text).
 * Messages out: { type: 'ready', inputNames, outputNames } once, then per batch
 * { id, dims, vectors: Float64Array } (rows × width, mean-pooled and L2-normalised) or { id, error }.
 */
const { parentPort, workerData } = require('node:worker_threads');

/** Keeps zero-length pooled vectors (impossible with [CLS]/[SEP], but cheap to guard) finite. */
const MIN_NORM = 1e-12;
const TOKEN_TYPE_IDS = 'token_type_ids';

/**
 * Mean over the first `tokens` rows (the real tokens; padding sits at the end) followed by L2
 * normalisation, i.e. sentence-transformers' Pooling(mean) + Normalize. Writes into `out` at `at`.
 */
function meanPoolNormalize(data, offset, tokens, width, out, at) {
  const acc = new Float64Array(width);
  for (let t = 0; t < tokens; t++) {
    const row = offset + t * width;
    for (let d = 0; d < width; d++) acc[d] += data[row + d];
  }
  let norm = 0;
  for (let d = 0; d < width; d++) norm += acc[d] * acc[d];
  // Dividing by the token count first would be cancelled by the normalisation anyway.
  const scale = 1 / Math.max(Math.sqrt(norm), MIN_NORM);
  for (let d = 0; d < width; d++) out[at + d] = acc[d] * scale;
}

async function main() {
  const ort = require('onnxruntime-node');
  const { modelPath, intraOpNumThreads } = workerData;
  let session;
  try {
    session = await ort.InferenceSession.create(modelPath, {
      executionProviders: ['cpu'],
      graphOptimizationLevel: 'all',
      executionMode: 'sequential',
      intraOpNumThreads,
      interOpNumThreads: 1,
      // Idle pool threads would otherwise spin for the next run, burning the CPU that the event
      // loop and Neo4j share with them: measured ~14 ms of CPU per single-query run with spinning
      // against ~4 ms without, on 2 cores. Vectors are the same either way.
      extra: { session: { intra_op: { allow_spinning: '0' }, inter_op: { allow_spinning: '0' } } },
    });
  } catch (error) {
    parentPort.postMessage({ type: 'failed', message: error && error.message ? error.message : String(error) });
    return;
  }
  const wantsTokenTypes = session.inputNames.includes(TOKEN_TYPE_IDS);
  const outputName = session.outputNames[0];
  parentPort.on('message', async (message) => {
    if (message.type === 'release') {
      await session.release();
      parentPort.postMessage({ type: 'released' });
      return;
    }
    const { id, batch } = message;
    try {
      const rows = batch.length;
      let seqLen = 0;
      for (const ids of batch) seqLen = Math.max(seqLen, ids.length);
      const inputIds = new BigInt64Array(rows * seqLen);
      const mask = new BigInt64Array(rows * seqLen);
      batch.forEach((ids, r) => {
        const base = r * seqLen;
        for (let j = 0; j < ids.length; j++) {
          inputIds[base + j] = BigInt(ids[j]);
          mask[base + j] = 1n;
        }
      });
      const dims = [rows, seqLen];
      const feeds = { input_ids: new ort.Tensor('int64', inputIds, dims), attention_mask: new ort.Tensor('int64', mask, dims) };
      if (wantsTokenTypes) feeds[TOKEN_TYPE_IDS] = new ort.Tensor('int64', new BigInt64Array(rows * seqLen), dims);
      const hidden = (await session.run(feeds))[outputName];
      const outDims = [...hidden.dims];
      if (outDims.length !== 3) {
        parentPort.postMessage({ id, dims: outDims, vectors: null });
        return;
      }
      const width = outDims[2];
      const vectors = new Float64Array(rows * width);
      batch.forEach((ids, r) => meanPoolNormalize(hidden.data, r * seqLen * width, ids.length, width, vectors, r * width));
      hidden.dispose();
      parentPort.postMessage({ id, dims: outDims, vectors }, [vectors.buffer]);
    } catch (error) {
      parentPort.postMessage({ id, error: error && error.message ? error.message : String(error) });
    }
  });
  parentPort.postMessage({ type: 'ready', inputNames: session.inputNames, outputNames: session.outputNames });
}

main();
