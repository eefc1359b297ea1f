import neo4j, { Neo4jError } from 'neo4j-driver';

type Commit = (this: unknown) => Promise<void>;

/**
 * A lost COMMIT acknowledgement, as the driver sees one: the commit reaches Neo4j and is applied, and
 * then the client gets a retryable error (what a connection dropped before the answer was read, or a
 * leader switch, reports), so the driver's own retry runs the transaction function again. Patches
 * the driver's Transaction.commit for the process while armed; every other commit is reported lost,
 * so each write transaction commits once as "failed" and once for real.
 */
export class LostCommits {
  /** Commits applied by Neo4j and then reported as failed. */
  lost = 0;
  /** Commits that went through untouched. */
  passed = 0;
  private armed = false;
  private loseNext = true;
  private original: Commit | null = null;

  install(): this {
    const proto = neo4j.Transaction.prototype as unknown as { commit: Commit };
    const original = proto.commit;
    this.original = original;
    const self = this;
    proto.commit = async function (this: unknown) {
      await original.call(this);
      if (!self.armed) return;
      if (self.loseNext) {
        self.loseNext = false;
        self.lost++;
        throw new Neo4jError('connection closed before the COMMIT acknowledgement was read (test: the commit was applied)', neo4j.error.SERVICE_UNAVAILABLE, '08000', 'error: connection exception');
      }
      self.loseNext = true;
      self.passed++;
    };
    return this;
  }

  /** Runs `work` with commits lost; returns its result and how many commits were lost. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.armed = true;
    this.loseNext = true;
    try {
      return await work();
    } finally {
      this.armed = false;
    }
  }

  uninstall(): void {
    if (this.original) (neo4j.Transaction.prototype as unknown as { commit: Commit }).commit = this.original;
    this.original = null;
  }
}
