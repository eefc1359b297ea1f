import * as path from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import type { IngestProgress, IngestResult } from '@scopegraph/ingest';
import { ApiClient, CliError } from '../client';

/** What the indexProgress subscription sends: the worker's progress, plus the result at the end. */
type Progress = IngestProgress & { result?: IngestResult; failedReason?: string };

const PROGRESS_FIELDS = 'phase checker filesTotal filesParsed filesReused scopes edges embedded embedReused toEmbed etaSeconds errors recentErrors { path message } result failedReason';

/** `scopegraph index <path>`: queue an index job and follow it with a progress bar until it ends. */
export async function indexCommand(
  dir: string,
  opts: { name?: string; json?: boolean; excludeDocComments?: boolean; include?: string[]; exclude?: string[]; scip?: string },
  client = new ApiClient(),
): Promise<number> {
  const root = path.resolve(dir);
  const name = opts.name ?? path.basename(root).replace(/[^A-Za-z0-9._-]/g, '-');
  const { indexRepository } = await client.request<{ indexRepository: { id: string } }>(
    'mutation($input: IndexRepositoryInput!) { indexRepository(input: $input) { id } }',
    { input: { path: root, name, excludeDocComments: opts.excludeDocComments === true, ...(opts.include ? { include: opts.include } : {}), ...(opts.exclude ? { exclude: opts.exclude } : {}), ...(opts.scip ? { scip: path.resolve(opts.scip) } : {}) } },
  );
  const interactive = !opts.json && process.stderr.isTTY;
  const bar = new SingleBar({ format: ' {phase} |{bar}| {value}/{total} {unit}  ETA {etaText}  scopes {scopes}  edges {edges}  errors {errors}', hideCursor: true, stream: process.stderr }, Presets.shades_classic);
  let started = false;
  let last: Progress | undefined;
  let lastPhase = '';
  await client.subscribe<{ indexProgress: Progress }>(
    `subscription($id: ID!) { indexProgress(jobId: $id) { ${PROGRESS_FIELDS} } }`,
    { id: indexRepository.id },
    ({ indexProgress: p }) => {
      last = p;
      const embedding = p.phase === 'embedding';
      const total = embedding ? Math.max(p.toEmbed, 1) : Math.max(p.filesTotal, 1);
      const value = embedding ? p.embedded : p.filesParsed + p.filesReused;
      const payload = { phase: p.phase.padEnd(9), unit: embedding ? `embedded (reused ${p.embedReused ?? 0})` : 'files', etaText: formatEta(p.etaSeconds), scopes: p.scopes, edges: p.edges, errors: p.errors };
      if (interactive) {
        if (!started) {
          bar.start(total, value, payload);
          started = true;
        } else {
          bar.setTotal(total);
          bar.update(value, payload);
        }
      } else if (!opts.json && p.phase !== lastPhase) {
        process.stderr.write(`${p.phase}...\n`);
      }
      lastPhase = p.phase;
    },
  );
  if (started) bar.stop();
  if (!last) throw new CliError('the index job ended without reporting');
  if (last.phase === 'failed') throw new CliError(`indexing failed: ${last.failedReason}`);
  const r = last.result!;
  if (opts.json) {
    process.stdout.write(JSON.stringify(r, null, 2) + '\n');
  } else {
    const skipped = Object.entries(r.files.skipped).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
    process.stdout.write(
      [
        `indexed ${name} (${root})`,
        `  files   ${r.files.indexed} (parsed ${r.files.parsed}, unchanged ${r.files.reused}; skipped: ${skipped})`,
        ...(r.filters && (r.filters.include.length || r.filters.exclude.length) ? [`  filters include [${r.filters.include.join(', ')}] exclude [${r.filters.exclude.join(', ')}]`] : []),
        `  scopes  ${r.scopes.total} (added ${r.scopes.added}, changed ${r.scopes.changed}, moved ${r.scopes.moved}, deleted ${r.scopes.deleted})`,
        `  edges   ${r.edges.total} (added ${r.edges.added}, removed ${r.edges.removed}, unresolved ${r.edges.unresolved})`,
        ...(r.scip ? scipLines(r.scip) : []),
        ...(r.resolver.pyPrecise ? [pyCheckerLine(r.resolver.pyPrecise)] : []),
        `  embedded ${r.embedded}${r.embedding ? `  (this run: computed ${r.embedding.computed ?? '?'}, reused ${r.embedding.reused ?? r.embedding.cacheHits}; reuse ${r.embedding.reuse ?? 'on'})` : ''}${r.embeddingError ? `  (embedding failed: ${r.embeddingError})` : ''}`,
        ...(last.errors > 0 ? [`  ${last.errors} file errors, latest:`, ...last.recentErrors.map((e) => `    ${e.path}: ${e.message}`)] : []),
      ].join('\n') + '\n',
    );
    const { repository } = await client.request<{ repository: { coverage: Coverage[] } | null }>(
      `query($name: String!) { repository(name: $name) { ${COVERAGE_FIELDS} } }`,
      { name },
    );
    if (repository?.coverage.length) process.stdout.write(['  references by language:', ...coverageLines(repository.coverage, '    ')].join('\n') + '\n');
  }
  return 0;
}

interface Coverage {
  language: string;
  resolved: number;
  byCompiler: number;
  byScip: number;
  byName: number;
  byHeuristic: number;
  external: number;
  dynamic: number;
  notFound: number;
  callsResolved: number;
  callsNotFound: number;
}

const COVERAGE_FIELDS = 'coverage { language resolved byCompiler byScip byName byHeuristic external dynamic notFound callsResolved callsNotFound }';

/** The Python checker's part of the run (named: ty or pyright), the dependencies it read, and why the fast resolver stood in for it when it did. */
function pyCheckerLine(p: NonNullable<IngestResult['resolver']['pyPrecise']>): string {
  const checker = p.checker ?? 'the checker';
  if (p.skipped) return `  python  resolved fast: ${checker} not used (${p.skipped})`;
  const later = p.phase === 'deferred' && p.edges ? ` after the graph write (edges of ${p.edges.files} files upgraded)` : '';
  const env = `; dependencies: ${p.environment ?? 'none found (INGEST_PY_ENV names them)'}`;
  const run = `${checker} asked ${p.asked}, answered ${p.answered} in ${p.ms} ms${later}${p.peakMb ? `, peak ${p.peakMb} MB` : ''}${env}`;
  return p.failed ? `  python  ${run}; then given up (${p.failed}): the fast resolver answered the rest` : `  python  ${run}`;
}

/** What the SCIP import of a run used and ignored (stale or unknown documents, ranges outside files). */
function scipLines(s: NonNullable<IngestResult['scip']>): string[] {
  const listed = (paths: string[], n: number) => (n ? `: ${paths.slice(0, 5).join(', ')}${n > 5 ? ', ...' : ''}` : '');
  return [
    `  scip    ${s.tool}: ${s.used} of ${s.documents} documents used${s.pathPrefix ? ` (under ${s.pathPrefix}/)` : ''}, ${s.answered} references answered, ${s.unanswered} left to the name-based resolver`,
    ...(s.stale ? [`          ${s.stale} stale documents ignored (their files changed since the index was made)${listed(s.stalePaths, s.stale)}`] : []),
    ...(s.unknown ? [`          ${s.unknown} documents of unknown files ignored${listed(s.unknownPaths, s.unknown)}`] : []),
    ...(s.outOfRange ? [`          ${s.outOfRange} occurrences outside their file ignored`] : []),
  ];
}

/**
 * One line per language: where its references ended (resolved in the repository, by provenance;
 * external: standard library, platform or dependency; dynamic; not found), and the share of in-repo
 * call sites that found nothing (external and dynamic calls are not meant for the repository).
 */
function coverageLines(coverage: Coverage[], indent: string): string[] {
  const width = Math.max(...coverage.map((c) => c.language.length));
  return coverage.map((c) => {
    const calls = c.callsResolved + c.callsNotFound;
    const share = calls ? ` (not-found ${Math.round((100 * c.callsNotFound) / calls)}% of ${calls} in-repo call sites)` : '';
    const by = [['compiler', c.byCompiler], ['scip', c.byScip], ['name', c.byName], ['heuristic', c.byHeuristic]].filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ');
    return `${indent}${c.language.padEnd(width)}  resolved ${c.resolved}${by ? ` (${by})` : ''}, external ${c.external}, dynamic ${c.dynamic}, not-found ${c.notFound}${share}`;
  });
}

export async function reposCommand(opts: { json?: boolean }, client = new ApiClient()): Promise<number> {
  const { repositories } = await client.request<{
    repositories: { name: string; rootPath: string | null; files: number; scopes: number; edges: number; embedded: number; indexedAt: string; include: string[]; exclude: string[]; indexStatus: string; indexError: string | null; coverage: Coverage[];
      indexRun: { phase: string; scopesWritten: number; embedded: number; toEmbed: number } | null }[];
  }>(`{ repositories { name rootPath files scopes edges embedded indexedAt include exclude indexStatus indexError indexRun { phase scopesWritten embedded toEmbed } ${COVERAGE_FIELDS} } }`);
  if (opts.json) {
    process.stdout.write(JSON.stringify(repositories, null, 2) + '\n');
    return 0;
  }
  if (repositories.length === 0) {
    process.stdout.write('no repositories indexed yet: scopegraph index <path>\n');
    return 0;
  }
  const globs = (r: { include: string[]; exclude: string[] }) =>
    [...r.include.map((g) => `+${g}`), ...r.exclude.map((g) => `-${g}`)].join(' ') || 'defaults';
  const rows = repositories.map((r) => [r.name, r.indexStatus, String(r.files ?? ''), String(r.scopes ?? ''), String(r.edges ?? ''), String(r.embedded ?? ''), r.indexedAt ?? '', r.rootPath ?? '-', globs(r)]);
  const header = ['NAME', 'STATUS', 'FILES', 'SCOPES', 'EDGES', 'EMBEDDED', 'INDEXED AT', 'PATH', 'WALK FILTERS'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows]) process.stdout.write(row.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd() + '\n');
  for (const r of repositories) if (r.indexError) process.stdout.write(`${r.name}: ${r.indexError}\n`);
  for (const r of repositories) if (r.indexRun) process.stdout.write(`${r.name}: ${runLine(r.indexRun)}\n`);
  const withCoverage = repositories.filter((r) => r.coverage.length);
  if (withCoverage.length) {
    process.stdout.write('\nreferences by language (resolved in the repository, by provenance / external: standard library, platform or dependency / dynamic / not-found):\n');
    for (const r of withCoverage) process.stdout.write([`  ${r.name}`, ...coverageLines(r.coverage, '    ')].join('\n') + '\n');
  }
  return 0;
}

/** A running index in one line: what search can already find. */
export function runLine(run: { phase: string; scopesWritten: number; embedded: number; toEmbed: number }): string {
  const vectors = run.toEmbed > 0 ? `${run.embedded} of ${run.toEmbed} embedded` : 'none embedded yet';
  return `indexing (${run.phase}): ${run.scopesWritten} scopes written, searchable by keyword and graph; ${vectors}`;
}

/** The worker's estimate, not cli-progress's own: it knows the phase's real rate. */
function formatEta(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '--';
  const m = Math.floor(seconds / 60);
  return m > 0 ? `${m}m${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}
