import { phaseTimer } from './phase-timer';

describe('phaseTimer', () => {
  it('records each phase by label, also one that throws, and passes its result through', async () => {
    const { timings, time } = phaseTimer();
    await expect(time('read', async () => 42)).resolves.toBe(42);
    await expect(time('write', async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(Object.keys(timings).sort()).toEqual(['read', 'write']);
    expect(Object.values(timings).every((ms) => Number.isInteger(ms) && ms >= 0)).toBe(true);
  });
});
