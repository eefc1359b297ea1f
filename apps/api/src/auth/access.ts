import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { AppConfig, isLoopbackHost } from '@scopegraph/config';

/**
 * Who may do what, decided once per HTTP request or WebSocket handshake:
 * - `admin` may do everything (index, delete, diagnostics jobs, the queue board);
 * - `read` may query, search, rerank and ask, but not change what is indexed.
 * Keys: API_ADMIN_KEY is the admin key and API_KEY the read key; with only API_KEY set it is the
 * admin key too (the single key of earlier versions keeps working). Without any key the API only
 * binds to loopback (config refuses anything else) and every local caller is admin, but browsers are
 * held to the Origin/Host rules below.
 */
export type Role = 'admin' | 'write' | 'read' | 'metrics';

/** `metrics` is below `read`: a metrics key reads /metrics and nothing else. */
export const ROLE_ORDER: Record<Role, number> = { metrics: 0, read: 1, write: 2, admin: 3 };

/**
 * What a request may do: its role, the key id it is recorded under (never the key), and the
 * repository patterns it may see (undefined: every repository; environment keys and the keyless
 * local user see all).
 */
export interface Access {
  role: Role;
  keyId: string;
  repositories?: string[];
}

/** Keys created through the API start with this, so a lookup is only tried for keys that could exist. */
export const STORED_KEY_PREFIX = 'sgk_';

/** Finds a stored (API-created) key by its secret; undefined when unknown or revoked. */
export type KeyLookup = (key: string) => Promise<Access | undefined>;

/** Why a request was refused, with the GraphQL code and HTTP status it is answered with. */
export interface Refusal {
  status: 401 | 403 | 429;
  code: 'UNAUTHENTICATED' | 'FORBIDDEN' | 'RATE_LIMITED';
  message: string;
  /** Extra response headers (Retry-After for a 429). */
  headers?: Record<string, string>;
  /** Extra `extensions` of the GraphQL error (retryAfterS for a 429). */
  extensions?: Record<string, unknown>;
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Extracts the key from `x-api-key`, `Authorization: Bearer`, or graphql-ws connectionParams (`apiKey`). */
export function presentedKey(headers: Record<string, unknown> | undefined): string | undefined {
  if (!headers) return undefined;
  const direct = headers['x-api-key'] ?? headers['X-Api-Key'] ?? headers['apiKey'];
  if (typeof direct === 'string') return direct;
  const auth = headers['authorization'] ?? headers['Authorization'];
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice('Bearer '.length);
  return basicAuthPassword(headers);
}

/** HTTP Basic credentials' password: how a browser presents a key to pages it cannot add headers to (/queues, /graphiql). */
export function basicAuthPassword(headers: Record<string, unknown>): string | undefined {
  const auth = headers['authorization'] ?? headers['Authorization'];
  if (typeof auth !== 'string' || !auth.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(auth.slice('Basic '.length), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) : undefined;
}

/** Constant-time comparison (for equal lengths; a length mismatch is no secret worth hiding). */
export function keyMatches(expected: string | undefined, given: string | undefined): boolean {
  if (expected === undefined || given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function keysConfigured(config: AppConfig): boolean {
  return Boolean(config.api.apiKey || config.api.adminKey);
}

/** The role a presented key grants, or a refusal. */
export function roleForKey(config: AppConfig, given: string | undefined): Role | Refusal {
  const { apiKey, adminKey } = config.api;
  if (!apiKey && !adminKey) return 'admin';
  if (given === undefined) return { status: 401, code: 'UNAUTHENTICATED', message: 'missing API key: send it as x-api-key, a Bearer token or the Basic auth password' };
  if (keyMatches(adminKey ?? apiKey, given)) return 'admin';
  if (adminKey && keyMatches(apiKey, given)) return 'read';
  return { status: 401, code: 'UNAUTHENTICATED', message: 'wrong API key' };
}

function hostName(hostHeader: string): string {
  // "[::1]:4000" -> "::1", "localhost:4000" -> "localhost"
  const bracket = hostHeader.match(/^\[([^\]]+)\]/);
  if (bracket) return bracket[1];
  return hostHeader.replace(/:\d+$/, '');
}

function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

function portOfHost(hostHeader: string): string {
  return hostHeader.match(/:(\d+)$/)?.[1] ?? '80';
}

/**
 * Browser rules, checked before the key. On a loopback bind the Host header must name a loopback
 * host (a DNS-rebinding page arrives with its own domain as Host). A browser's Origin, when sent,
 * must be this API's own origin (any loopback name for its port while bound to loopback), or one listed in
 * API_ALLOWED_ORIGINS; requests without Origin come from non-browser clients and pass.
 */
export function browserRefusal(config: AppConfig, headers: Headers, publicDocument = false): Refusal | undefined {
  const host = header(headers, 'host') ?? '';
  const loopbackBind = isLoopbackHost(config.api.host);
  if (loopbackBind && !isLoopbackHost(hostName(host))) {
    return { status: 403, code: 'FORBIDDEN', message: 'Host header must name this machine (localhost or 127.0.0.1) while the API is bound to loopback' };
  }
  const origin = header(headers, 'origin');
  if (origin === undefined) return undefined;
  const normalized = origin.replace(/\/+$/, '').toLowerCase();
  if (config.api.allowedOrigins.some((o) => o.toLowerCase() === normalized)) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(normalized);
  } catch {
    url = undefined;
  }
  // "null" (sandboxed iframes, file://) and anything unparsable is foreign.
  if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
    if (url.host === host.toLowerCase()) return undefined;
    // Another local port (a dev server on localhost:5173) is another origin: allowed only when listed.
    // The same port under another loopback name (localhost vs 127.0.0.1) is this API.
    if (loopbackBind && isLoopbackHost(url.hostname) && isLoopbackHost(hostName(host)) && portOf(url) === portOfHost(host)) return undefined;
    // Public documents (the guide Neo4j Browser fetches from its own local port) change nothing.
    if (publicDocument && loopbackBind && isLoopbackHost(url.hostname)) return undefined;
  }
  return { status: 403, code: 'FORBIDDEN', message: `Origin ${origin.slice(0, 100)} may not call this API (set API_ALLOWED_ORIGINS to allow it)` };
}

/** Browser rules, then the key: the one decision for HTTP requests and WebSocket handshakes alike. */
export function decideAccess(config: AppConfig, headers: Headers, connectionParams?: Record<string, unknown>): Role | Refusal {
  const refusal = browserRefusal(config, headers);
  if (refusal) return refusal;
  return roleForKey(config, presentedKey(connectionParams) ?? presentedKey(headers));
}

export function isRefusal(decision: Role | Access | Refusal): decision is Refusal {
  return typeof decision !== 'string' && 'status' in decision;
}

const WRONG_KEY: Refusal = { status: 401, code: 'UNAUTHENTICATED', message: 'wrong API key' };

/**
 * decideAccess plus the keys created through the API and the metrics key. A stored key is honoured
 * whether or not environment keys are configured (a keyless local API can still hand out scoped
 * keys); a key that looks stored but is unknown or revoked is refused even on a keyless API.
 */
export async function decideAccessWithKeys(config: AppConfig, headers: Headers, lookup: KeyLookup, connectionParams?: Record<string, unknown>): Promise<Access | Refusal> {
  const refusal = browserRefusal(config, headers);
  if (refusal) return refusal;
  const key = presentedKey(connectionParams) ?? presentedKey(headers);
  if (key !== undefined && key.startsWith(STORED_KEY_PREFIX)) return (await lookup(key)) ?? WRONG_KEY;
  if (key !== undefined && keyMatches(config.api.metricsKey, key)) return { role: 'metrics', keyId: 'env:metrics' };
  const role = roleForKey(config, key);
  if (isRefusal(role)) return role;
  return { role, keyId: keysConfigured(config) ? `env:${role}` : 'local' };
}

export const FORBIDDEN_ADMIN: Refusal = { status: 403, code: 'FORBIDDEN', message: 'this operation needs the admin key (API_ADMIN_KEY)' };

/**
 * A request that passed the gate carries its role and, when a configured key matched, its principal:
 * which key that was. Without keys configured anything presented is unchecked, so there is no
 * principal and rate limits count by client address (an invented key must not buy a fresh budget).
 */
export type GatedRequest = IncomingMessage & { role?: Role; principal?: string; access?: Access };

/** The principal a decided role stands for: each configured key grants exactly one role. */
export function principalOf(config: AppConfig, role: Role): string | undefined {
  return keysConfigured(config) ? `key:${role}` : undefined;
}

/** Static documents from the repository (apps/api/src/guides), readable without a key. */
const PUBLIC_PREFIX = '/guides/';

/** Paths whose refusals are answered in MCP's JSON-RPC shape rather than GraphQL's. */
const MCP_PREFIX = '/mcp';

/**
 * The first middleware after the request id: every path (GraphQL, GraphiQL, MCP, metrics, the queue
 * board, the console) is behind the same rule, so a refused caller learns nothing about which paths
 * exist. WebSocket upgrades do not pass through here: graphql-ws's onConnect applies decideAccess.
 */
export function accessGate(config: AppConfig, lookup: KeyLookup) {
  return (req: GatedRequest, res: ServerResponse, next: () => void): void => {
    // Public documents (the Neo4j Browser guide) and their CORS preflight need no key, since Browser
    // cannot send one; the Host/Origin rules still apply.
    const publicRead = (req.method === 'GET' || req.method === 'OPTIONS') && (req.url ?? '').startsWith(PUBLIC_PREFIX);
    const decided: Promise<Access | Refusal> = publicRead
      ? Promise.resolve(browserRefusal(config, req.headers, true) ?? { role: 'read' as const, keyId: 'public', repositories: [] })
      : decideAccessWithKeys(config, req.headers, lookup);
    decided.then(
      (decision) => {
        if (isRefusal(decision)) return writeRefusal(req, res, decision);
        req.access = decision;
        req.role = decision.role;
        // Public reads match no key: they count by address like keyless requests.
        req.principal = publicRead ? undefined : decision.keyId.startsWith('env:') ? principalOf(config, decision.role) : decision.keyId === 'local' ? undefined : `key:${decision.keyId}`;
        next();
      },
      () => writeRefusal(req, res, { status: 401, code: 'UNAUTHENTICATED', message: 'the API key could not be checked (key store unavailable); retry' }),
    );
  };
}

export function writeRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', ...refusal.headers };
  // Browsers then prompt for the key (as the password) on pages such as /graphiql and /queues.
  if (refusal.status === 401 && !header(req.headers, 'origin')) headers['www-authenticate'] = 'Basic realm="scopegraph", charset="UTF-8"';
  const body = (req.url ?? '').startsWith(MCP_PREFIX)
    ? { jsonrpc: '2.0', error: { code: -32001, message: refusal.message, data: { code: refusal.code } }, id: null }
    : { errors: [{ message: refusal.message, extensions: { code: refusal.code, ...refusal.extensions } }] };
  res.writeHead(refusal.status, headers);
  res.end(JSON.stringify(body));
}
