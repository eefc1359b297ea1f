import * as path from 'node:path';
import { SingleBar, Presets } from 'cli-progress';
import type { IngestProgress, IngestResult } from '@scopegraph/ingest';
import { ApiClient, CliError } from '../client';

/** What the indexProgress subscription sends: the worker's progress, plus the result at the end. */
type Progress = IngestProgress & { result?: IngestResult; failedReason?: string };

const PROGRESS_FIELDS = 'phase filesTotal filesParsed filesReused scopes edges embedded toEmbed etaSeconds errors recentErrors { path message } result failedReason';

/** `scopegraph index <path>`: queue an index job and follow it with a progress bar until it ends. */
export async function indexCommand(
  dir: string,
  opts: { name?: string; json?: boolean; excludeDocComments?: boolean; include?: string[]; exclude?: string[] },
  client = new ApiClient(),
): Promise<number> {
  const root = path.resolve(dir);
  const name = opts.name ?? path.basename(root).replace(/[^A-Za-z0-9._-]/g, '-');
  const { indexRepository } = await client.request<{ indexRepository: { id: string } }>(
    'mutation($input: IndexRepositoryInput!) { indexRepository(input: $input) { id } }',
    { input: { path: root, name, excludeDocComments: opts.excludeDocComments === true, ...(opts.include ? { include: opts.include } : {}), ...(opts.exclude ? { exclude: opts.exclude } : {}) } },
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
      const payload = { phase: p.phase.padEnd(9), unit: embedding ? 'embedded' : 'files', etaText: formatEta(p.etaSeconds), scopes: p.scopes, edges: p.edges, errors: p.errors };
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
        `  embedded ${r.embedded}${r.embeddingError ? `  (embedding failed: ${r.embeddingError})` : ''}`,
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
  external: number;
  dynamic: number;
  unresolved: number;
}

const COVERAGE_FIELDS = 'coverage { language resolved external dynamic unresolved }';

/**
 * One line per language: where its references ended (resolved in the repository, external, dynamic,
 * unresolved), and the share of those meant for the repository that were resolved (external and
 * dynamic ones are not misses).
 */
function coverageLines(coverage: Coverage[], indent: string): string[] {
  const width = Math.max(...coverage.map((c) => c.language.length));
  return coverage.map((c) => {
    const inRepo = c.resolved + c.unresolved;
    const share = inRepo ? ` (${Math.round((100 * c.resolved) / inRepo)}% of in-repo references resolved)` : '';
    return `${indent}${c.language.padEnd(width)}  resolved ${c.resolved}, external ${c.external}, dynamic ${c.dynamic}, unresolved ${c.unresolved}${share}`;
  });
}

export async function reposCommand(opts: { json?: boolean }, client = new ApiClient()): Promise<number> {
  const { repositories } = await client.request<{
    repositories: { name: string; rootPath: string | null; files: number; scopes: number; edges: number; embedded: number; indexedAt: string; include: string[]; exclude: string[]; indexStatus: string; indexError: string | null; coverage: Coverage[] }[];
  }>(`{ repositories { name rootPath files scopes edges embedded indexedAt include exclude indexStatus indexError ${COVERAGE_FIELDS} } }`);
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
  const withCoverage = repositories.filter((r) => r.coverage.length);
  if (withCoverage.length) {
    process.stdout.write('\nreferences by language (resolved in the repository / external: standard library or dependency / dynamic / unresolved):\n');
    for (const r of withCoverage) process.stdout.write([`  ${r.name}`, ...coverageLines(r.coverage, '    ')].join('\n') + '\n');
  }
  return 0;
}

/** The worker's estimate, not cli-progress's own: it knows the phase's real rate. */
function formatEta(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '--';
  const m = Math.floor(seconds / 60);
  return m > 0 ? `${m}m${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}
