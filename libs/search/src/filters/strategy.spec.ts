import { chooseVectorStrategy, INDEX_SHARE_MIN, keywordLuceneK, nextOverfetchK, postfilterK } from './strategy';

const base = { hasFilters: true, hasPostFilters: false, count: 10, exactMax: 2000, choice: 'auto' as const };

describe('filtered vector strategy', () => {
  it('uses the plain index without filters', () => {
    expect(chooseVectorStrategy({ ...base, hasFilters: false, count: null }).name).toBe('unfiltered-index');
  });

  it('skips the search when nothing passes the filters', () => {
    expect(chooseVectorStrategy({ ...base, count: 0 }).name).toBe('empty');
  });

  it('pre-filters exactly when the filtered set is small', () => {
    const small = chooseVectorStrategy({ ...base, count: 2000 });
    expect(small.name).toBe('exact-prefilter');
    expect(small.reason).toMatch(/2000 embedded scopes .*at most 2000/);
    expect(chooseVectorStrategy({ ...base, count: 5, hasPostFilters: true }).name).toBe('exact-prefilter');
  });

  it('filters inside the index when the set is large and every filter is an index property', () => {
    const r = chooseVectorStrategy({ ...base, count: 2001 });
    expect(r.name).toBe('index-filter');
    expect(r.reason).toMatch(/more than 2000/);
  });

  it('over-fetches and post-filters when the set is large and path/name filters apply', () => {
    const r = chooseVectorStrategy({ ...base, count: 2001, hasPostFilters: true });
    expect(r.name).toBe('overfetch-postfilter');
    expect(r.reason).toMatch(/path\/name are not vector index properties/);
  });

  it('honours a forced choice and says so', () => {
    expect(chooseVectorStrategy({ ...base, count: 3, choice: 'overfetch', hasPostFilters: true })).toEqual({
      name: 'overfetch-postfilter',
      reason: expect.stringMatching(/^forced: /),
    });
    expect(chooseVectorStrategy({ ...base, count: 3, choice: 'overfetch' }).name).toBe('index-filter');
    expect(chooseVectorStrategy({ ...base, count: 9999, choice: 'exact' }).name).toBe('exact-prefilter');
  });

  it('treats an exactMax of 0 as "never brute-force"', () => {
    expect(chooseVectorStrategy({ ...base, count: 1, exactMax: 0 }).name).toBe('index-filter');
  });
});

describe('over-fetch growth', () => {
  const round = { k: 40, pool: 40, kept: 3, wanted: 10, maxK: 4096 };
  it('doubles k while too few survive and the index had more', () => {
    expect(nextOverfetchK(round)).toBe(80);
    expect(nextOverfetchK({ ...round, k: 3000, pool: 3000 })).toBe(4096);
  });
  it('stops when enough survived, the index ran dry, or k hit the ceiling', () => {
    expect(nextOverfetchK({ ...round, kept: 10 })).toBeNull();
    expect(nextOverfetchK({ ...round, pool: 39 })).toBeNull();
    expect(nextOverfetchK({ ...round, k: 4096, pool: 4096 })).toBeNull();
  });
});

describe('unfiltered index plus post-filter when the repositories hold nearly all vectors', () => {
  const large = { ...base, count: 2001 };
  it('takes it from INDEX_SHARE_MIN of the index on, and says the share', () => {
    const r = chooseVectorStrategy({ ...large, indexShare: 0.999 });
    expect(r.name).toBe('index-postfilter');
    expect(r.reason).toMatch(/99\.9% of the vector index/);
    expect(chooseVectorStrategy({ ...large, indexShare: INDEX_SHARE_MIN }).name).toBe('index-postfilter');
  });
  it('filters inside the index below that share, when the share is unknown, or with path/name filters', () => {
    expect(chooseVectorStrategy({ ...large, indexShare: INDEX_SHARE_MIN - 0.01 }).name).toBe('index-filter');
    expect(chooseVectorStrategy({ ...large, indexShare: null }).name).toBe('index-filter');
    expect(chooseVectorStrategy(large).name).toBe('index-filter');
    expect(chooseVectorStrategy({ ...large, indexShare: 1, hasPostFilters: true }).name).toBe('overfetch-postfilter');
  });
  it('keeps exact search for small sets and forced choices', () => {
    expect(chooseVectorStrategy({ ...base, count: 5, indexShare: 1 }).name).toBe('exact-prefilter');
    expect(chooseVectorStrategy({ ...large, indexShare: 1, choice: 'overfetch' }).name).toBe('index-filter');
    expect(chooseVectorStrategy({ ...large, indexShare: 1, choice: 'exact' }).name).toBe('exact-prefilter');
  });
  it('asks the index for a little over wanted / share', () => {
    expect(postfilterK(150, 1)).toBe(151);
    expect(postfilterK(150, 0.999)).toBe(152);
    expect(postfilterK(150, 0.8)).toBe(226);
  });
});

describe('keywordLuceneK', () => {
  it('drops the repository clause and over-asks only when the searched repositories hold nearly all of the index', () => {
    expect(keywordLuceneK(150, null)).toEqual({ luceneK: 150, withoutRepositoryClause: false });
    expect(keywordLuceneK(150, 0.5)).toEqual({ luceneK: 150, withoutRepositoryClause: false });
    expect(keywordLuceneK(150, 1)).toEqual({ luceneK: 151, withoutRepositoryClause: true });
    expect(keywordLuceneK(150, 0.9)).toEqual({ luceneK: postfilterK(150, 0.9), withoutRepositoryClause: true });
  });
});
