// Unit specs run in memory (fake HTTP servers at most): a hung one should fail in seconds, not after
// the e2e budget. The slowest measured takes ~1.5 s on this 2-core machine under load; specs that load
// a real model set their own longer timeout.
const UNIT_TEST_TIMEOUT_MS = 10_000;
jest.setTimeout(UNIT_TEST_TIMEOUT_MS);
