import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from 'graphql';
import { seededRandom } from '../../libs/rerank/src/prompt/shuffle';
import { INJECTION_STRINGS, LUCENE_STRINGS } from '../search/injection-strings';

/**
 * Schema-driven request generator for fuzzing the API as a client would get it wrong: every request
 * is built from the live schema (introspection), with arguments that are right, wrong in type, out of
 * range, hostile (Cypher/Lucene syntax, huge, control characters) or missing, plus malformed documents
 * and transport mistakes. Deterministic for a seed, so a failure replays.
 */

export interface FuzzRequest {
  /** What kind of mistake (or none) this request makes, for the report. */
  kind: string;
  body: string;
  contentType: string;
  /** Extra HTTP headers (a content-encoding the body does not have). */
  headers?: Record<string, string>;
}

/** Documents that once answered INTERNAL_SERVER_ERROR or a 500 (issue 24), and their kin. */
const TWO_OPERATIONS = 'query A { __typename } query B { health { ok } }';
const FRAGMENT_BOMB = `{ ...F0 } ${Array.from({ length: 24 }, (_, i) => `fragment F${i} on Query { __typename ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F24 on Query { __typename }`;
const HUGE_SOURCES = `{ ${Array.from({ length: 8 }, (_, i) => `a${i}: search(input: { text: "parse", topK: 200, sourceChars: 1000000 }) { results { scope { source } } }`).join(' ')} }`;

const HOSTILE_STRINGS = [...INJECTION_STRINGS, ...LUCENE_STRINGS, '', ' ', '\u0000', '\u202e', '😀'.repeat(50), '../../etc/passwd', '%s%n', '<script>', 'x'.repeat(5_000)];
const HOSTILE_NUMBERS = [0, -1, 1, 2, 3, 10, 200, 201, 1_000_000, 2 ** 31, -(2 ** 31) - 1, 1.5, Number.MAX_SAFE_INTEGER];

/** Root fields never fuzzed: they change the graph (the fuzz asserts reads change nothing). */
const WRITES = new Set(['deleteRepository', 'indexRepository']);

export class SchemaFuzzer {
  private readonly r: () => number;

  constructor(
    private readonly schema: GraphQLSchema,
    seed: number,
  ) {
    this.r = seededRandom(seed);
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.r() * list.length)];
  }

  private chance(p: number): boolean {
    return this.r() < p;
  }

  /** A request; with `subscriptions`, some are subscription operations (for graphql-ws). */
  next(options: { subscriptions?: boolean } = {}): FuzzRequest {
    const roll = this.r();
    if (roll < 0.05) return this.malformedDocument();
    if (roll < 0.08) return this.transportMistake();
    const useMutation = roll > 0.9 && this.schema.getMutationType();
    const useSubscription = !useMutation && options.subscriptions && roll > 0.8 && this.schema.getSubscriptionType();
    const root = useMutation ? this.schema.getMutationType()! : useSubscription ? this.schema.getSubscriptionType()! : this.schema.getQueryType()!;
    const fields = Object.values(root.getFields()).filter((f) => !WRITES.has(f.name));
    const field = this.pick(fields);
    const asVariables = this.chance(0.5);
    const variables: Record<string, unknown> = {};
    const defs: string[] = [];
    const args = field.args
      .filter((a) => isNonNullType(a.type) || this.chance(0.6))
      .map((a) => {
        const value = this.value(a.type, 0);
        if (asVariables && value !== undefined) {
          variables[a.name] = value;
          defs.push(`$${a.name}: ${String(this.chance(0.05) ? 'Int' : a.type)}`);
          return `${a.name}: $${a.name}`;
        }
        return value === undefined ? undefined : `${a.name}: ${literal(value, a)}`;
      })
      .filter(Boolean);
    const selection = this.selection(field.type, 0);
    const op = useMutation ? 'mutation' : useSubscription ? 'subscription' : 'query';
    const query = `${op}${defs.length ? `(${defs.join(', ')})` : ''} { ${field.name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`;
    return { kind: `${op}.${field.name}`, body: JSON.stringify({ query, variables }), contentType: 'application/json' };
  }

  /** A value for an input type: usually plausible, sometimes wrong. */
  private value(type: GraphQLInputType, depth: number): unknown {
    if (this.chance(0.05)) return null;
    if (this.chance(0.04)) return this.pick<unknown>([{}, [], 'str', 42, true, -7.5]);
    if (isNonNullType(type)) return this.value(type.ofType, depth);
    if (isListType(type)) {
      const n = this.chance(0.1) ? 60 : Math.floor(this.r() * 4);
      return Array.from({ length: n }, () => this.value(type.ofType, depth + 1));
    }
    const named = getNamedType(type) as GraphQLNamedType;
    if (isEnumType(named)) return this.chance(0.9) ? this.pick(named.getValues()).value : 'NOT_A_VALUE';
    if (isInputObjectType(named)) {
      if (depth > 3) return {};
      const out: Record<string, unknown> = {};
      for (const f of Object.values(named.getFields())) {
        if (isNonNullType(f.type) || this.chance(0.4)) {
          const v = this.value(f.type, depth + 1);
          if (v !== undefined) out[f.name] = v;
        }
      }
      if (this.chance(0.05)) out.notAField = 1;
      return out;
    }
    if (isScalarType(named)) {
      switch (named.name) {
        case 'Int':
          return this.pick(HOSTILE_NUMBERS);
        case 'Float':
          return this.pick([0, 0.5, 1, -1, 2.5, 1e308]);
        case 'Boolean':
          return this.chance(0.5);
        case 'ID':
        case 'String':
          return this.chance(0.5) ? this.pick(['parse', 'InvoiceService', 'create invoice', 'src/**/*.ts', 'typescript', 'function', 'base']) : this.pick(HOSTILE_STRINGS);
        default:
          return this.pick<unknown>([{ a: 1 }, 'x', 1]);
      }
    }
    return undefined;
  }

  private selection(type: GraphQLOutputType, depth: number): string {
    const named = getNamedType(type);
    if (isUnionType(named)) return ' { __typename }';
    if (!isObjectType(named) && !isInterfaceType(named)) return '';
    const fields = Object.values(named.getFields() as Record<string, GraphQLField<unknown, unknown>>).filter((f) => f.args.every((a) => !isNonNullType(a.type)));
    const chosen = fields.filter(() => this.chance(0.5)).slice(0, 6);
    if (chosen.length === 0 || depth > 3) return ' { __typename }';
    return ` { ${chosen.map((f) => `${f.name}${this.selection(f.type, depth + 1)}`).join(' ')} }`;
  }

  private malformedDocument(): FuzzRequest {
    const docs = [
      '{', '}', 'query {', '{ search(input: ) { x } }', '{ health { ok }', 'mutation', '{ __schema { types { name } } }', 'fragment F on Query { ...F } { ...F }', '{ health @skip { ok } }', 'subscription { x }',
      '{ a: health { ok } a: pipelines { name } }', '\u0000', 'query Q { health { ok } } query Q { health { ok } }', TWO_OPERATIONS, FRAGMENT_BOMB, HUGE_SOURCES,
      `{ ${' __typename'.repeat(1000)} }`, 'subscription { askProgress(id: "x") { step } }', 'subscription { jobEvents(queue: INDEX, jobId: "x") { __typename } }', 'fragment F on Query { __typename }',
    ];
    const query = this.pick(docs);
    const operationName = query === TWO_OPERATIONS ? this.pick([undefined, 'C', '', 'A']) : undefined;
    return { kind: 'malformed', body: JSON.stringify({ query, ...(operationName !== undefined ? { operationName } : {}) }), contentType: 'application/json' };
  }

  private transportMistake(): FuzzRequest {
    return this.pick<FuzzRequest>([
      { kind: 'transport', body: '{"query": ', contentType: 'application/json' },
      { kind: 'transport', body: JSON.stringify([{ query: '{ __typename }' }]), contentType: 'application/json' },
      { kind: 'transport', body: JSON.stringify({ query: '{ __typename }' }), contentType: 'text/plain' },
      { kind: 'transport', body: JSON.stringify({ query: 42 }), contentType: 'application/json' },
      { kind: 'transport', body: JSON.stringify({ query: '{ __typename }', variables: 'x' }), contentType: 'application/json' },
      { kind: 'transport', body: JSON.stringify({}), contentType: 'application/json' },
      { kind: 'transport', body: JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } }), contentType: 'application/json' },
      { kind: 'transport', body: JSON.stringify({ query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } }), contentType: 'application/json' },
      { kind: 'transport', body: 'not gzip at all', contentType: 'application/json', headers: { 'content-encoding': 'gzip' } },
      { kind: 'transport', body: JSON.stringify({ query: '{ __typename }' }), contentType: 'application/json', headers: { 'content-encoding': 'br' } },
      { kind: 'transport', body: '{"query": "{ __typename }"', contentType: 'application/json; charset=utf-16' },
    ]);
  }
}

/** A JSON value as a GraphQL literal (enums unquoted). */
function literal(value: unknown, arg: GraphQLArgument): string {
  const enumNamed = isEnumType(getNamedType(arg.type));
  const lit = (v: unknown): string => {
    if (v === null) return 'null';
    if (Array.isArray(v)) return `[${v.map(lit).join(', ')}]`;
    if (typeof v === 'object') return `{ ${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}: ${lit(x)}`).join(', ')} }`;
    if (typeof v === 'string') return enumNamed && /^[A-Z_][A-Z0-9_]*$/.test(v) ? v : JSON.stringify(v);
    return String(v);
  };
  return lit(value);
}
