import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { API_READY, freePort, runId, RunningApp, startApp } from '../support/processes';
import { FIXTURE, IngestHarness } from '../support/ingest-harness';
import { gql } from '../support/graphql-client';
import { type FuzzRequest, SchemaFuzzer } from '../support/schema-fuzz';

// Schema-generated requests against the real API over an indexed repository, over HTTP and
// graphql-ws (every third request, subscriptions included): client mistakes must never answer
// INTERNAL_SERVER_ERROR, a 5xx or a closed socket, reads must not change the graph, and the log
// stays JSON without errors.
// CI runs a small fixed-seed sample; by hand: FUZZ_COUNT=5000 FUZZ_SEED=7 npx jest --selectProjects e2e --testPathPatterns test/safety/fuzz

const COUNT = Number(process.env.FUZZ_COUNT ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 11);
const CONCURRENCY = 4;
const STACK_TRACE = /\bat [\w.<>]+ \(?\/.*:\d+:\d+|stacktrace/;
/** Every third request goes over graphql-ws. */
const SOCKET_EVERY = 3;
/** A socket operation that has neither ended nor failed by then is counted as hanging. */
const SOCKET_OPERATION_MS = 10_000;

type SocketOutcome = { code: string; text: string; closeCode?: number };

/** Runs one operation on the socket: the first error code (or ok), the payloads as text, or the close code. */
function overSocket(client: Client, payload: { query: string; variables?: Record<string, unknown>; operationName?: string }): Promise<SocketOutcome> {
  return new Promise((resolve) => {
    const texts: string[] = [];
    let code = 'ok';
    const timer = setTimeout(() => {
      unsubscribe();
      resolve({ code: 'socket timeout', text: texts.join(' ') });
    }, SOCKET_OPERATION_MS);
    const finish = (outcome: SocketOutcome) => {
      clearTimeout(timer);
      resolve(outcome);
    };
    const unsubscribe = client.subscribe(payload, {
      next: (value) => {
        texts.push(JSON.stringify(value));
        const first = (value as { errors?: { extensions?: { code?: string } }[] }).errors?.[0];
        if (first && code === 'ok') code = first.extensions?.code ?? 'no code';
      },
      error: (error) => {
        if (Array.isArray(error)) finish({ code: (error[0] as { extensions?: { code?: string } })?.extensions?.code ?? 'no code', text: JSON.stringify(error) });
        else finish({ code: 'socket closed', text: String((error as { reason?: string }).reason ?? error), closeCode: (error as { code?: number }).code ?? -1 });
      },
      complete: () => finish({ code, text: texts.join(' ') }),
    });
  });
}

/** A request graphql-ws can carry: a JSON body with a string query and nothing for the HTTP layer. */
function socketPayload(request: FuzzRequest): { query: string; variables?: Record<string, unknown>; operationName?: string } | undefined {
  if (request.headers || request.contentType !== 'application/json') return undefined;
  try {
    const body = JSON.parse(request.body) as { query?: unknown; variables?: unknown; operationName?: unknown };
    if (typeof body.query !== 'string') return undefined;
    const variables = body.variables && typeof body.variables === 'object' && !Array.isArray(body.variables) ? (body.variables as Record<string, unknown>) : undefined;
    return { query: body.query, ...(variables ? { variables } : {}), ...(typeof body.operationName === 'string' ? { operationName: body.operationName } : {}) };
  } catch {
    return undefined;
  }
}

jest.setTimeout(Math.max(120_000, COUNT * 200));

describe(`schema fuzz (${COUNT} requests, seed ${SEED})`, () => {
  const harness = new IngestHarness(runId('fuzzc'));
  const repoId = runId('fuzz');
  let api: RunningApp;
  let url: string;
  const admin = `admin-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    await harness.init();
    await harness.ingest.index({ path: FIXTURE, name: repoId });
    const port = await freePort();
    url = `http://127.0.0.1:${port}/graphql`;
    api = await startApp('api', { API_PORT: String(port), API_KEY: admin, API_RATE_LIMIT_PER_MIN: '1000000', QUEUE_PREFIX: runId('fuzzq') }, API_READY);
  });

  afterAll(async () => {
    await api?.stop();
    await harness.dispose([repoId]);
  });

  /** This run's repository as the graph holds it, every node and edge (other runs write to the same database meanwhile). */
  async function graphFingerprint(): Promise<string> {
    return JSON.stringify(await harness.snapshot(repoId));
  }

  it('answers every client mistake with a 4xx or a coded error, never a 5xx or a closed socket, and reads change nothing', async () => {
    const introspection = await gql<IntrospectionQuery>(url, getIntrospectionQuery(), {}, { 'x-api-key': admin });
    const fuzzer = new SchemaFuzzer(buildClientSchema(introspection.body.data!), SEED);
    const before = await graphFingerprint();

    const failures: string[] = [];
    const codes = new Map<string, number>();
    const count = (code: string) => codes.set(code, (codes.get(code) ?? 0) + 1);
    let closes = 0;
    let socket: Client | undefined;
    const openSocket = () => {
      socket = createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { apiKey: admin }, retryAttempts: 0, lazy: false });
      socket.on('closed', () => void (closes += 1));
      return socket;
    };
    let sent = 0;
    let overSockets = 0;
    const viaHttp = async (request: FuzzRequest) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': request.contentType, 'x-api-key': admin, ...request.headers }, body: request.body });
      const text = await res.text();
      let code = `http ${res.status}`;
      try {
        const json = JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] };
        code = json.errors?.[0]?.extensions?.code ?? (json.errors ? 'no code' : 'ok');
      } catch {
        // Not JSON: counted under its HTTP status.
      }
      count(code);
      if (res.status >= 500 || /INTERNAL_SERVER_ERROR/.test(text) || STACK_TRACE.test(text)) {
        failures.push(`http ${request.kind} -> ${res.status} ${text.slice(0, 300)}\n  request: ${request.body.slice(0, 500)}`);
      }
    };
    const viaSocket = async (request: FuzzRequest, payload: NonNullable<ReturnType<typeof socketPayload>>) => {
      overSockets += 1;
      const outcome = await overSocket(socket ?? openSocket(), payload);
      count(`ws ${outcome.code}`);
      if (outcome.code === 'socket closed') socket = undefined;
      if (outcome.code === 'socket closed' || outcome.code === 'socket timeout' || /INTERNAL_SERVER_ERROR/.test(outcome.text) || STACK_TRACE.test(outcome.text)) {
        failures.push(`ws ${request.kind} -> ${outcome.code}${outcome.closeCode ? ` ${outcome.closeCode}` : ''} ${outcome.text.slice(0, 300)}\n  request: ${request.body.slice(0, 500)}`);
      }
    };
    const worker = async () => {
      while (sent < COUNT) {
        sent += 1;
        const socketTurn = sent % SOCKET_EVERY === 0;
        const request = fuzzer.next({ subscriptions: socketTurn });
        const payload = socketTurn ? socketPayload(request) : undefined;
        if (payload) await viaSocket(request, payload);
        else await viaHttp(request);
      }
    };
    let closesDuringRun = 0;
    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      closesDuringRun = closes;
    } finally {
      await socket?.dispose();
    }

    process.stdout.write(`fuzz ${JSON.stringify({ count: COUNT, seed: SEED, overSockets, socketCloses: closesDuringRun, codes: Object.fromEntries([...codes].sort((a, b) => b[1] - a[1])), failures: failures.length })}\n`);
    expect(failures.slice(0, 5)).toEqual([]);
    expect(await graphFingerprint()).toBe(before);
    // The sample reached the resolvers, not only the validator, over both transports.
    expect(codes.get('ok') ?? 0).toBeGreaterThan(COUNT / 20);
    expect(codes.get('ws ok') ?? 0).toBeGreaterThan(COUNT / 60);
    // One socket served every socket request: no bad document closed it.
    expect(closesDuringRun).toBe(0);
    // Client mistakes are not errors of the server: nothing at error, and the log stays JSON lines.
    const lines = api.output().split('\n').filter(Boolean);
    expect(lines.filter((l) => /"level":50/.test(l)).slice(0, 3)).toEqual([]);
    expect(lines.filter((l) => !l.startsWith('{')).slice(0, 3)).toEqual([]);
  });
});
