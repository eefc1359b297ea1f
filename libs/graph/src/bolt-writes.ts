import * as path from 'node:path';

/** Bytes the driver gathers before a socket write: under a Bolt chunk's limit of 65,535, header included. */
export const BOLT_WRITE_BUFFER = 65_534;

interface ChunkingModule {
  Chunker: (new (channel: unknown, bufferSize?: number) => object) & { original?: ChunkingModule['Chunker'] };
}

/**
 * neo4j-driver 6 writes to its socket every 1,400 bytes (its Chunker's buffer, which no option
 * sets), so one index write of a few megabytes of scope text costs thousands of syscalls here and as
 * many reads in Neo4j. After this call the driver's connections opened from then on buffer `bytes`
 * (NEO4J_BOLT_WRITE_BUFFER): the same Bolt chunks and messages on the wire, in fewer and larger
 * writes (see docs/ingest-scale.md for what it saves an index run). Written here because the driver
 * offers no setting; where its internals are not what this expects, nothing is changed. Returns
 * whether the buffer is now `bytes`.
 */
export function widenBoltWrites(bytes = BOLT_WRITE_BUFFER): boolean {
  let chunking: ChunkingModule;
  try {
    const driverDir = path.dirname(require.resolve('neo4j-driver/package.json'));
    chunking = require(require.resolve('neo4j-driver-bolt-connection/lib/channel/chunking.js', { paths: [driverDir] })) as ChunkingModule;
  } catch {
    return false;
  }
  const current = chunking.Chunker;
  if (typeof current !== 'function') return false;
  // Process-wide, like the driver's own buffer: the latest setting applies to connections opened after it.
  const Original = current.original ?? current;
  const size = Math.min(BOLT_WRITE_BUFFER, Math.max(1_400, Math.floor(bytes)));
  chunking.Chunker = class extends Original {
    static original = Original;
    constructor(channel: unknown, bufferSize?: number) {
      super(channel, bufferSize ?? size);
    }
  };
  return true;
}
