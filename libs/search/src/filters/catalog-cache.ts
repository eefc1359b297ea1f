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
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = () => Date.now(),
    /** Keys kept at most (oldest dropped first): filters are user input, so the map must not grow with them. */
    private readonly maxEntries = 256,
  ) {}

  /**
   * The remembered answer for `key` if younger than the TTL (or still being read), else `load()`'s.
   * `fresh` skips what is remembered and replaces it. A failed read is not remembered.
   */
  get(key: string, load: () => Promise<T>, fresh = false): Promise<T> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (!fresh && hit && now - hit.at < this.ttlMs) return hit.value;
    const value = load();
    if (this.ttlMs <= 0) return value;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    const entry = { at: now, value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
