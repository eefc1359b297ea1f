/**
 * Answers of the catalogue reads a search makes before its lists (the repository ids, and how many
 * embedded scopes pass the filters), remembered for a short time and shared by concurrent searches.
 * Every Neo4j round trip costs ~0.6 ms of the API's CPU and ~0.35 ms of Neo4j's whatever the query
 * (measured on a `RETURN 1`), and this one was one of four per hybrid search; under 32 concurrent
 * clients the answer is the same for every search, so one read per TTL serves them all.
 *
 * What a stale answer can do, and why that is acceptable for `ttlMs`: a repository indexed since is
 * missing from the ids, so callers read again before refusing one (`fresh`); a repository deleted
 * since still passes the check and its search finds nothing; a count that moved picks the exact or
 * the index strategy by an older figure (both are correct, one is faster).
 *
 * Hand-written (a map with expiry and an in-flight promise) because the project's caches are
 * bounded LRU maps of their own and this one holds a handful of keys.
 */
/** Optional provider of the search clock (`Clock` from @scopegraph/config); the system clock when absent. */
export const SEARCH_CLOCK = Symbol('SEARCH_CLOCK');

export class CatalogCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = () => Date.now(),
    /** Keys kept at most (oldest dropped first): filters are user input, so the map must not grow with them. */
    private readonly maxEntries = 256,
    /**
     * How long past the TTL a settled answer may still be served while one read refreshes it in the
     * background (0: never; every caller after the TTL waits for the new read). For reads whose cost
     * grows with the data (a live count over a repository being indexed), so that one search per TTL
     * does not carry that read on its own path.
     */
    private readonly staleMs = 0,
  ) {}

  /**
   * The remembered answer for `key` if younger than the TTL (or still being read), else `load()`'s.
   * Within `staleMs` past the TTL, the remembered answer while `load()` runs in the background (one
   * at a time; its failure keeps the old answer until it is too old). `fresh` skips what is
   * remembered and replaces it. A failed read is not remembered.
   */
  get(key: string, load: () => Promise<T>, fresh = false): Promise<T> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (!fresh && hit) {
      const age = now - hit.at;
      if (age < this.ttlMs) return hit.value;
      if (age < this.ttlMs + this.staleMs && hit.settled) {
        if (!hit.refreshing) this.refresh(key, hit, load, now);
        return hit.value;
      }
    }
    const value = load();
    if (this.ttlMs <= 0) return value;
    const entry: Entry<T> = { at: now, value, settled: false, refreshing: false };
    this.put(key, entry);
    value.then(
      () => (entry.settled = true),
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  clear(): void {
    this.entries.clear();
  }

  private refresh(key: string, stale: Entry<T>, load: () => Promise<T>, now: number): void {
    stale.refreshing = true;
    load().then(
      (v) => {
        if (this.entries.get(key) === stale) this.put(key, { at: now, value: Promise.resolve(v), settled: true, refreshing: false });
      },
      () => (stale.refreshing = false),
    );
  }

  private put(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, entry);
  }
}

interface Entry<T> {
  at: number;
  value: Promise<T>;
  /** The read answered (a stale answer is served only once it has). */
  settled: boolean;
  /** A background read is replacing it. */
  refreshing: boolean;
}
