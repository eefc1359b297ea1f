/**
 * A synthetic repository for search benchmarks at 10k / 100k scopes: realistic paths, names, kinds,
 * sources and call edges, with real 384-dimensional vectors, generated deterministically (a seeded
 * PRNG; the same size always gives the same repository) and written through ingestion's own
 * repository methods (UNWIND batches, the vector property set as ingestion sets it).
 *
 * Vectors: the local model embeds the real embedding text of the first PROTOTYPES scopes; scope i
 * gets prototype (i mod PROTOTYPES) plus Gaussian noise, normalised. That keeps the clustered shape
 * of real code embeddings (which an HNSW index finds easier than uniform noise) without embedding
 * 100k texts: generation stays around a minute or two.
 */
import { type GraphEdge, type GraphEdgeType, graphId, KIND_LABEL, type ScopeKind, subTokenList } from '@scopegraph/code-model';
import { embeddingText, IngestRepository, type ScopeRow } from '@scopegraph/ingest';
import type { EmbeddingProvider } from '@scopegraph/llm';
import { seededRandom } from '../../libs/rerank/src/prompt/shuffle';

export const SYNTH_PREFIX = 'bench-synth-';
const SCOPES_PER_FILE = 10;
const PROTOTYPES = 600;
const NOISE_SIGMA = 0.035;
const SEED = 0x5eed;
const WRITE_BATCH = 1_000;
const EMBED_BATCH = 64;

export function synthRepoId(size: number): string {
  return `${SYNTH_PREFIX}${size % 1000 === 0 ? `${size / 1000}k` : size}`;
}

// ---- vocabulary ------------------------------------------------------------------------------------

const VERBS = 'create parse load save update delete find build render validate format compute fetch send resolve merge split map filter reduce encode decode sync schedule cancel retry flush read write open close init reset register handle emit subscribe notify convert normalize serialize compare hash sort group index cache lock publish apply refresh'.split(' ');
const NOUNS = 'invoice user order payment account token session config report file stream message event queue job task node edge graph scope query result request response header cookie cart product price tax discount customer address email template schema record table column row batch chunk buffer socket channel route policy role permission audit log metric trace span cursor page document image asset bundle module plugin'.split(' ');
const MODULES = 'billing auth orders catalog shipping reporting search storage messaging scheduling analytics admin notifications payments users inventory pricing tax audit api core shared utils infra'.split(' ');
const SUFFIXES = 'service repository controller model util handler client parser mapper factory validator store module types'.split(' ');
const TYPES = 'string number boolean Date Buffer Record<string, unknown> unknown[] Map<string, number>'.split(' ');

const cap = (w: string) => w[0].toUpperCase() + w.slice(1);


export interface SynthScope {
  localId: string;
  name: string;
  qualifiedName: string;
  kind: ScopeKind;
  path: string;
  parentLocalId: string | null;
  signature: string;
  source: string;
  startLine: number;
  endLine: number;
}

export interface SynthFile {
  path: string;
  scopes: SynthScope[];
  /** CALLS from a scope of this file to a function of another file (local ids). */
  calls: { from: string; to: string }[];
}

/** File f of a synthetic repository: a file scope, a class with 4 methods and a property, 2 functions, an interface. */
export function synthFile(f: number, files: number): SynthFile {
  const r = seededRandom(SEED ^ Math.imul(f + 1, 0x9e3779b1));
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const module = MODULES[f % MODULES.length];
  const noun = NOUNS[Math.floor(f / MODULES.length) % NOUNS.length];
  const suffix = SUFFIXES[Math.floor(f / (MODULES.length * NOUNS.length)) % SUFFIXES.length];
  const variant = Math.floor(f / (MODULES.length * NOUNS.length * SUFFIXES.length));
  const path = `src/${module}/${variant > 0 ? `v${variant}/` : ''}${noun}-${suffix}.ts`;
  const className = `${cap(noun)}${cap(suffix)}`;
  const verbs = new Set<string>();
  while (verbs.size < 6) verbs.add(pick(VERBS));
  const [v1, v2, v3, v4, v5, v6] = [...verbs];
  const other = () => pick(NOUNS);
  const fileId = `${path}#${path}|file`;
  const classId = `${path}#${className}|class`;
  const scopes: SynthScope[] = [];
  let line = 1;
  const add = (s: Omit<SynthScope, 'startLine' | 'endLine'>) => {
    const lines = s.source.split('\n').length;
    scopes.push({ ...s, startLine: line, endLine: line + lines - 1 });
    line += lines + 1;
  };

  const iface = `${cap(noun)}${cap(other())}Options`;
  add({
    localId: `${path}#${iface}|interface`,
    name: iface,
    qualifiedName: iface,
    kind: 'interface',
    path,
    parentLocalId: fileId,
    signature: `export interface ${iface}`,
    source: `export interface ${iface} {\n  ${other()}Id: ${pick(TYPES)};\n  ${other()}Limit?: number;\n  ${v1}${cap(other())}?: boolean;\n}`,
  });
  const members = [v2, v3, v4, v5].map((v) => `${v}${cap(other())}`);
  const prop = `${other()}Cache`;
  add({
    localId: classId,
    name: className,
    qualifiedName: className,
    kind: 'class',
    path,
    parentLocalId: fileId,
    signature: `export class ${className}`,
    source: [`export class ${className} {`, `  private readonly ${prop} = new Map<string, ${cap(noun)}>();`, ...members.map((m) => `  async ${m}(${noun}: ${cap(noun)}, options?: ${iface}): Promise<${cap(noun)}> { ... }`), '}'].join('\n'),
  });
  add({
    localId: `${path}#${className}.${prop}|property`,
    name: prop,
    qualifiedName: `${className}.${prop}`,
    kind: 'property',
    path,
    parentLocalId: classId,
    signature: `private readonly ${prop}`,
    source: `private readonly ${prop} = new Map<string, ${cap(noun)}>();`,
  });
  const helpers: string[] = [];
  for (const m of members) {
    const dep = other();
    const helper = `${pick(VERBS)}${cap(dep)}`;
    helpers.push(helper);
    add({
      localId: `${path}#${className}.${m}|method`,
      name: m,
      qualifiedName: `${className}.${m}`,
      kind: 'method',
      path,
      parentLocalId: classId,
      signature: `async ${m}(${noun}: ${cap(noun)}, options?: ${iface}): Promise<${cap(noun)}>`,
      source: [
        `async ${m}(${noun}: ${cap(noun)}, options?: ${iface}): Promise<${cap(noun)}> {`,
        `  const cached = this.${prop}.get(${noun}.id);`,
        `  if (cached && !options?.${v1}${cap(dep)}) return cached;`,
        `  const ${dep} = await ${helper}(${noun}, options);`,
        `  if (!${dep}) throw new Error('cannot ${m.replace(/([A-Z])/g, ' $1').toLowerCase()} for ' + ${noun}.id);`,
        `  this.${prop}.set(${noun}.id, ${dep});`,
        `  return ${dep};`,
        '}',
      ].join('\n'),
    });
  }
  for (const v of [v5, v6]) {
    const target = other();
    const fn = `${v}${cap(noun)}${cap(target)}`;
    add({
      localId: `${path}#${fn}|function`,
      name: fn,
      qualifiedName: fn,
      kind: 'function',
      path,
      parentLocalId: fileId,
      signature: `export function ${fn}(input: ${cap(noun)}, ${target}: ${pick(TYPES)}): ${cap(target)}`,
      source: [
        `export function ${fn}(input: ${cap(noun)}, ${target}: ${pick(TYPES)}): ${cap(target)} {`,
        `  const ${noun}Key = ${pick(VERBS)}${cap(noun)}Key(input);`,
        `  for (const entry of input.${other()}s ?? []) {`,
        `    if (entry.${target} === ${target}) return ${pick(VERBS)}${cap(target)}(entry, ${noun}Key);`,
        '  }',
        `  return ${pick(VERBS)}${cap(target)}(input, ${noun}Key);`,
        '}',
      ].join('\n'),
    });
  }
  const body = scopes.map((s) => s.source).join('\n\n');
  scopes.unshift({
    localId: fileId,
    name: path.slice(path.lastIndexOf('/') + 1),
    qualifiedName: path,
    kind: 'file',
    path,
    parentLocalId: null,
    signature: '',
    source: `import { ${helpers.join(', ')} } from '../shared/${other()}-util';\n\n${body}`.slice(0, 4000),
    startLine: 1,
    endLine: line,
  });

  // Each method and function calls two functions of other files (chosen deterministically).
  const calls: { from: string; to: string }[] = [];
  for (const s of scopes) {
    if (s.kind !== 'method' && s.kind !== 'function') continue;
    for (let c = 0; c < 2; c++) {
      const g = Math.floor(r() * files);
      if (g === f) continue;
      calls.push({ from: s.localId, to: `${g}:${Math.floor(r() * 2)}` });
    }
  }
  return { path, scopes, calls };
}

/** The local ids of the two functions of file g (resolved lazily: `${g}:${which}`). */
function functionIdsOf(g: number, files: number): string[] {
  return synthFile(g, files).scopes.filter((s) => s.kind === 'function').map((s) => s.localId);
}

function gaussian(r: () => number): number {
  const u = Math.max(r(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}

function normalise(v: Float64Array): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return Array.from(v, (x) => x / n);
}

export interface SynthStatus {
  repoId: string;
  scopes: number;
  embedded: number;
}

/** Scopes and embedded scopes of a synthetic repository (0 when absent). */
export async function synthStatus(repo: IngestRepository, repoId: string): Promise<SynthStatus> {
  const row = (await repo.repositories()).find((r) => r.id === repoId);
  return { repoId, scopes: row?.scopes ?? 0, embedded: row?.embedded ?? 0 };
}

/**
 * Makes sure `bench-synth-<size>` holds exactly `size` embedded scopes: reused when it does,
 * otherwise deleted and written again. Returns the seconds spent writing (0 when reused).
 */
export async function ensureSynthetic(repo: IngestRepository, embedder: EmbeddingProvider, size: number, log: (m: string) => void): Promise<{ repoId: string; seconds: number; reused: boolean }> {
  const repoId = synthRepoId(size);
  const status = await synthStatus(repo, repoId);
  if (status.scopes === size && status.embedded === size) return { repoId, seconds: 0, reused: true };
  const started = performance.now();
  if (status.scopes > 0) {
    log(`${repoId}: holds ${status.scopes} scopes (${status.embedded} embedded), not ${size}: deleting`);
    await repo.deleteRepository(repoId);
  }
  const files = Math.ceil(size / SCOPES_PER_FILE);
  await repo.upsertRepository(repoId, repoId, `/synthetic/${repoId}`);

  // Prototype vectors: the real embedding texts of the first scopes, embedded by the local model.
  const protoScopes: SynthScope[] = [];
  for (let f = 0; protoScopes.length < Math.min(PROTOTYPES, size); f++) protoScopes.push(...synthFile(f, files).scopes);
  protoScopes.length = Math.min(PROTOTYPES, size);
  const words = (name: string) => subTokenList(name).join(' ');
  const prototypes: number[][] = [];
  for (let i = 0; i < protoScopes.length; i += EMBED_BATCH) {
    const batch = protoScopes.slice(i, i + EMBED_BATCH);
    prototypes.push(...(await embedder.embedDocuments(batch.map((s) => embeddingText({ ...s, docComment: null }, words)))));
  }
  log(`${repoId}: ${prototypes.length} prototype vectors embedded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  let written = 0;
  let rows: ScopeRow[] = [];
  let vectors: { id: string; embedding: number[] }[] = [];
  let edges: GraphEdge[] = [];
  let fileIds: string[] = [];
  const flush = async (force: boolean) => {
    if (rows.length >= WRITE_BATCH || (force && rows.length > 0)) {
      await repo.upsertScopes(rows);
      await repo.setEmbeddings(vectors, embedder.model);
      rows = [];
      vectors = [];
    }
    if (force) {
      await repo.linkFiles(repoId, fileIds);
      fileIds = [];
    }
  };
  const allCalls: { from: string; to: string }[] = [];
  for (let f = 0; f < files && written < size; f++) {
    const file = synthFile(f, files);
    fileIds.push(graphId(repoId, file.scopes[0].localId));
    for (const s of file.scopes) {
      if (written >= size) break;
      const id = graphId(repoId, s.localId);
      rows.push({
        id,
        labels: [KIND_LABEL[s.kind]],
        props: {
          id,
          localId: s.localId,
          repoId,
          name: s.name,
          qualifiedName: s.qualifiedName,
          kind: s.kind,
          language: 'typescript',
          path: s.path,
          startLine: s.startLine,
          endLine: s.endLine,
          signature: s.signature || null,
          docComment: null,
          source: s.source,
          nameTokens: subTokenList(s.qualifiedName).join(' '),
          exported: s.kind !== 'method' && s.kind !== 'property',
          parentId: s.parentLocalId ? graphId(repoId, s.parentLocalId) : null,
          contentHash: `synthetic-${written}`,
        },
      });
      const r = seededRandom(SEED + written);
      const proto = prototypes[written % prototypes.length];
      const v = new Float64Array(proto.length);
      for (let d = 0; d < v.length; d++) v[d] = proto[d] + NOISE_SIGMA * gaussian(r);
      vectors.push({ id, embedding: normalise(v) });
      if (s.parentLocalId) {
        const parent = file.scopes.find((p) => p.localId === s.parentLocalId)!;
        edges.push({ from: graphId(repoId, s.parentLocalId), type: (parent.kind === 'file' ? 'DECLARES' : 'HAS_MEMBER') as GraphEdgeType, to: id, target: 'scope', line: s.startLine });
      }
      written++;
    }
    allCalls.push(...file.calls);
    await flush(false);
  }
  await flush(true);
  log(`${repoId}: ${written} scopes with vectors written in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // Call edges to scopes that exist (a size cut mid-file drops a few).
  const exists = new Set<string>();
  for (const row of edges) exists.add(row.to);
  const fnCache = new Map<number, string[]>();
  for (const c of allCalls) {
    const [g, which] = c.to.split(':').map(Number);
    let fns = fnCache.get(g);
    if (!fns) fnCache.set(g, (fns = functionIdsOf(g, files)));
    const to = graphId(repoId, fns[which]);
    const from = graphId(repoId, c.from);
    if (exists.has(to) && exists.has(from)) edges.push({ from, type: 'CALLS', to, target: 'scope', line: null });
  }
  await repo.mergeEdges(repoId, edges);
  edges = [];
  const counts = await repo.finishRepository(repoId, null, null);
  const seconds = (performance.now() - started) / 1000;
  log(`${repoId}: ${counts.scopes} scopes, ${counts.embedded} embedded, ${counts.edges} reference edges in ${seconds.toFixed(1)} s`);
  return { repoId, seconds, reused: false };
}

/** Names a benchmark can search for in the synthetic repositories (identifier and phrase forms). */
export function synthQueries(n: number): string[] {
  const out: string[] = [];
  const r = seededRandom(SEED * 7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  for (let i = 0; out.length < n; i++) {
    const [v, a, b] = [pick(VERBS), pick(NOUNS), pick(NOUNS)];
    out.push(i % 2 === 0 ? `${v}${cap(a)}${cap(b)}` : `${v} the ${a} ${b} and cache it`);
  }
  return out;
}
