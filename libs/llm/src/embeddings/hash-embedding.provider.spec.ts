import { featureHashTokens, HashEmbeddingProvider } from './hash-embedding.provider';
import { cosineSimilarity, l2Norm } from './vector-math';

const DIMS = 256;
const UNIT_NORM_TOLERANCE = 1e-9;

describe('HashEmbeddingProvider', () => {
  const provider = new HashEmbeddingProvider(DIMS);

  it('is deterministic and unit length, including for empty input', async () => {
    const [a, b, empty] = await provider.embedDocuments(['parse the file', 'parse the file', '']);
    expect(a).toEqual(b);
    expect(a).toHaveLength(DIMS);
    for (const v of [a, empty]) expect(Math.abs(l2Norm(v) - 1)).toBeLessThan(UNIT_NORM_TOLERANCE);
  });

  it('splits identifiers so that shared words score higher than unrelated text', async () => {
    expect(featureHashTokens('parseHTTPRequest(file_name)')).toEqual(['parse', 'http', 'request', 'file', 'name']);
    const q = await provider.embedQuery('parse request');
    const [code, other] = await provider.embedDocuments(['function parseRequest(req) {}', 'weather sunny today']);
    expect(cosineSimilarity(q, code)).toBeGreaterThan(cosineSimilarity(q, other));
  });

  it('refuses a non-positive dimension', () => {
    expect(() => new HashEmbeddingProvider(0)).toThrow(/positive integer/);
  });
});
