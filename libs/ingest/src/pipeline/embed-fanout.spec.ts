import { sliceJobId, sliceSize } from './embed-fanout';

describe('embedding slices', () => {
  it('cuts a large repository into slices of the configured size, a small one into enough slices for a short last wave', () => {
    expect(sliceSize(1_000_000, 2_048)).toBe(2_048);
    expect(sliceSize(53_439, 2_048)).toBe(835);
    expect(sliceSize(5_132, 2_048)).toBe(81);
    // Never below 64 scopes (a slice's reads and writes would cost more than its model calls)...
    expect(sliceSize(300, 2_048)).toBe(64);
    // ...unless configured smaller.
    expect(sliceSize(300, 16)).toBe(16);
  });

  it('names a slice job after its index job, model and range only', () => {
    const id = sliceJobId('ixabc', 'm', 'r:a', 'r:b');
    expect(id).toBe(sliceJobId('ixabc', 'm', 'r:a', 'r:b'));
    expect(id).toMatch(/^ixabc-[0-9a-f]{16}$/);
    expect(id).not.toContain(':');
    expect(new Set([id, sliceJobId('ixabc', 'm', 'r:a', 'r:c'), sliceJobId('ixabc', 'n', 'r:a', 'r:b'), sliceJobId('ixabd', 'm', 'r:a', 'r:b')]).size).toBe(4);
  });
});
