import * as path from 'node:path';
import { BOLT_WRITE_BUFFER, widenBoltWrites } from './bolt-writes';

type Written = { length: number; getUInt8(position: number): number };
type ChunkerLike = { putUInt8(position: number, value: number): void; messageBoundary(): void; flush(): void };

/** The driver's own Chunker class, as its connections look it up when they open. */
function driverChunker(): new (channel: { write(b: Written): void }) => ChunkerLike {
  const driverDir = path.dirname(require.resolve('neo4j-driver/package.json'));
  return require(require.resolve('neo4j-driver-bolt-connection/lib/channel', { paths: [driverDir] })).Chunker;
}

/** Writes one message of `size` bytes through a Chunker; returns the socket writes and the Bolt chunks decoded from them. */
function send(size: number) {
  const writes: number[][] = [];
  const Chunker = driverChunker();
  const chunker = new Chunker({ write: (b) => writes.push(Array.from({ length: b.length }, (_, i) => b.getUInt8(i))) });
  for (let i = 0; i < size; i++) chunker.putUInt8(0, i % 251);
  chunker.messageBoundary();
  chunker.flush();
  const bytes = writes.flat();
  const chunks: number[] = [];
  const payload: number[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = (bytes[at] << 8) | bytes[at + 1];
    chunks.push(n);
    payload.push(...bytes.slice(at + 2, at + 2 + n));
    at += 2 + n;
  }
  return { writes: writes.length, chunks, payload };
}

describe('widenBoltWrites', () => {
  it("makes the driver's connections write a large message in few socket writes, as valid Bolt chunks", () => {
    expect(widenBoltWrites()).toBe(true);
    expect(widenBoltWrites()).toBe(true); // twice is harmless
    const size = 300_000;
    const { writes, chunks, payload } = send(size);
    // 1,400 bytes a write would take 215 writes.
    expect(writes).toBeLessThanOrEqual(Math.ceil(size / (BOLT_WRITE_BUFFER - 2)) + 1);
    // Every chunk within Bolt's limit, the message ended by a zero-length chunk, the bytes intact.
    expect(Math.max(...chunks)).toBeLessThanOrEqual(65_535);
    expect(chunks[chunks.length - 1]).toBe(0);
    expect(payload).toHaveLength(size);
    expect(payload.every((b, i) => b === i % 251)).toBe(true);
  });

  it("goes back to the driver's own 1,400-byte writes when set so, and widens again after", () => {
    try {
      expect(widenBoltWrites(1_400)).toBe(true);
      expect(send(300_000).writes).toBeGreaterThanOrEqual(Math.floor(300_000 / 1_400));
    } finally {
      expect(widenBoltWrites()).toBe(true);
    }
    expect(send(300_000).writes).toBeLessThanOrEqual(6);
  });
});
