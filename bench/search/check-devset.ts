/**
 * Checks the hand-written dev set (datasets/questions-dev.jsonl) against the real code of its pinned
 * codebases, parsed by the same walker and parser that ingestion uses:
 *
 *   - every expected answer (repo + path + qualified name, kind) is a scope that exists;
 *   - lexical: `meta.literal` is in the query, and the innermost scopes containing it verbatim are
 *     exactly the expected answers (the string has one place to be found; for an overloaded name,
 *     one of its overloads); or `meta.identifier` (an identifier pasted as it is) is the query and
 *     the last segment of every answer's name;
 *   - semantic: no expected answer's identifier appears as a word in the query;
 *   - structural: no expand spec (the parser refuses one), and the relationship is visible in the
 *     code: the anchor's name appears in every answer's text (or, for "what does X call", every
 *     answer's name appears in the anchor's text); `meta.relation` names relationships the answer's
 *     own text does not show: `implicit` (Go: the answer has a method of every name the anchor
 *     interface declares) and `impl` (Rust: an `impl <anchor> for <answer>` block in the codebase);
 *   - size: at least 90 queries over at least 3 codebases, every type in every codebase.
 *
 *   npm run build && node dist/bench/search/check-devset.js [--dataset FILE] [--corpora devset|lang]
 *
 * `--corpora lang` checks datasets/lang-dev.jsonl against the per-language codebases (lang-corpora.ts).
 *
 * Prints a table (codebase x type) and exits 1 listing every problem.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '@scopegraph/config';
import { DEFAULT_WALK_LIMITS, ParserService, walkRepository } from '@scopegraph/ingest';
import { type EvalQuery, parseDataset, QUERY_TYPES, scopeMatchesTarget } from '../../libs/search/src/eval';
import { arg, printTable } from '../support/bench-util';
import { corpusRoot, DEVSET_CORPORA, DEVSET_FILE, PY_STRUCTURAL_CORPORA, PY_STRUCTURAL_FILE } from './devset-corpora';
import { LANG_CORPORA, LANG_DEVSET_FILE, langCorpusRoot } from './lang-corpora';

/** A codebase to check against: where it is, what the index leaves out, and how the table names it. */
interface CheckedCorpus {
  repo: string;
  root: string;
  exclude?: string[];
  label: string;
  languages: string;
}

function corporaOf(which: string): CheckedCorpus[] {
  if (which === 'lang') return LANG_CORPORA.map((c) => ({ repo: c.repo, root: langCorpusRoot(c), exclude: c.exclude, label: `${c.name}@${c.version}`, languages: c.language }));
  if (which === 'py') return PY_STRUCTURAL_CORPORA.map((c) => ({ repo: c.repo, root: corpusRoot(c), label: `${c.name}@${c.version}`, languages: c.languages }));
  if (which !== 'devset') throw new Error(`--corpora: devset, lang or py, not ${which}`);
  return DEVSET_CORPORA.map((c) => ({ repo: c.repo, root: corpusRoot(c), label: `${c.name}@${c.version}`, languages: c.languages }));
}

const MIN_QUERIES = 90;
const MIN_CODEBASES = 3;

interface Scope {
  repoId: string;
  id: string;
  path: string;
  name: string;
  qualifiedName: string;
  kind: string;
  startLine: number;
  endLine: number;
  source: string;
}

async function loadScopes(corpora: readonly CheckedCorpus[]): Promise<Map<string, Scope[]>> {
  const parser = new ParserService();
  await parser.init();
  const byRepo = new Map<string, Scope[]>();
  try {
    for (const corpus of corpora) {
      const walk = await walkRepository(corpus.root, (p) => parser.supports(p), DEFAULT_WALK_LIMITS, { exclude: corpus.exclude });
      const scopes: Scope[] = [];
      for (const file of walk.files) {
        for (const s of parser.parseFile(file.path, file.content).scopes) {
          scopes.push({ repoId: corpus.repo, id: s.id, path: s.path, name: s.name, qualifiedName: s.qualifiedName, kind: s.kind, startLine: s.startLine, endLine: s.endLine, source: s.source });
        }
      }
      byRepo.set(corpus.repo, scopes);
    }
  } finally {
    parser.dispose();
  }
  return byRepo;
}

/** Scopes containing `text` that contain no smaller scope containing it (file scopes excluded). */
function innermostContaining(scopes: readonly Scope[], text: string): Scope[] {
  const hits = scopes.filter((s) => s.kind !== 'file' && s.source.includes(text));
  return hits.filter((h) => !hits.some((o) => o !== h && o.path === h.path && o.startLine >= h.startLine && o.endLine <= h.endLine && o.source.length < h.source.length));
}

const lastSegment = (name: string) => name.split('.').pop()!;
const wordIn = (word: string, text: string) => new RegExp(`(^|[^A-Za-z0-9_])${word.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&')}($|[^A-Za-z0-9_])`, 'i').test(text);

function checkQuery(q: EvalQuery, scopes: readonly Scope[] | undefined, problems: string[]): void {
  const where = `${q.id} (line ${q.line})`;
  if (!q.type) return void problems.push(`${where}: no type`);
  if (!scopes) return void problems.push(`${where}: repo ${q.repo} is not one of the pinned codebases`);
  for (const t of q.relevant) {
    const found = scopes.filter((s) => scopeMatchesTarget(s, q.repo, t));
    if (found.length === 0) problems.push(`${where}: no scope ${t.path} ${t.name}`);
    else if (t.kind && !found.some((s) => s.kind === t.kind)) problems.push(`${where}: ${t.path} ${t.name} is a ${found[0].kind}, not a ${t.kind}`);
  }
  const meta = q.meta ?? {};
  if (q.type === 'lexical' && typeof meta.identifier === 'string') {
    if (q.query.trim() !== meta.identifier) problems.push(`${where}: an identifier question is the identifier alone`);
    for (const t of q.relevant) if (lastSegment(t.name) !== meta.identifier) problems.push(`${where}: ${t.name} is not named ${meta.identifier}`);
  } else if (q.type === 'lexical') {
    const literal = meta.literal;
    if (typeof literal !== 'string' || literal.length < 8) return void problems.push(`${where}: lexical needs meta.literal (the verbatim string, 8+ characters)`);
    if (!q.query.includes(literal)) problems.push(`${where}: the query does not contain meta.literal`);
    const holders = innermostContaining(scopes, literal);
    const extra = holders.filter((h) => !q.relevant.some((t) => scopeMatchesTarget(h, q.repo, t)));
    // A target with overloads (several scopes, one name) needs the literal in one of them.
    const missing = q.relevant.filter((t) => !holders.some((h) => scopeMatchesTarget(h, q.repo, t)));
    if (extra.length > 0) problems.push(`${where}: the literal is also in ${extra.map((s) => `${s.path} ${s.qualifiedName}`).join(', ')}`);
    if (missing.length > 0) problems.push(`${where}: the literal is not in ${missing.map((t) => `${t.path} ${t.name}`).join(', ')}`);
  } else if (q.type === 'semantic') {
    for (const t of q.relevant) if (wordIn(lastSegment(t.name), q.query)) problems.push(`${where}: the query names its answer ${t.name}`);
  } else {
    const anchor = typeof meta.anchor === 'string' ? lastSegment(meta.anchor.split('#').pop()!) : null;
    if (!anchor) return void problems.push(`${where}: structural needs meta.anchor (path#name or the name of what the question is about)`);
    if (!wordIn(anchor, q.query)) problems.push(`${where}: the query does not name its anchor ${anchor}`);
    if (meta.relation === 'implicit') {
      // Go: the anchor interface's methods, every one present on the answer (same name).
      const methods = scopes.filter((s) => s.kind === 'method' && s.qualifiedName.startsWith(`${anchor}.`)).map((s) => lastSegment(s.qualifiedName));
      if (methods.length === 0) problems.push(`${where}: the interface ${anchor} declares no method`);
      for (const t of q.relevant) {
        const missing = methods.filter((m) => !scopes.some((s) => s.path === t.path && s.qualifiedName === `${t.name}.${m}`) && !scopes.some((s) => s.qualifiedName === `${t.name}.${m}`));
        if (missing.length > 0) problems.push(`${where}: ${t.name} has no method ${missing.join(', ')} of ${anchor}`);
      }
    } else if (meta.relation === 'impl') {
      // Rust: `impl<...> Anchor<...> for Answer<...>` somewhere in the codebase.
      const files = scopes.filter((s) => s.kind === 'file');
      for (const t of q.relevant) {
        const block = new RegExp(`impl\\b[^{;]*\\b${anchor}\\b[^{;]*\\bfor\\s+${lastSegment(t.name)}\\b`);
        if (!files.some((f) => block.test(f.source))) problems.push(`${where}: no impl ${anchor} for ${t.name}`);
      }
    } else if (/^what does /i.test(q.query)) {
      const anchorScopes = scopes.filter((s) => s.qualifiedName === meta.anchor || `${s.path}#${s.qualifiedName}` === meta.anchor);
      for (const t of q.relevant) if (!anchorScopes.some((a) => a.source.includes(lastSegment(t.name)))) problems.push(`${where}: ${anchor} does not mention ${t.name}`);
    } else {
      for (const t of q.relevant) {
        const own = scopes.filter((s) => scopeMatchesTarget(s, q.repo, t));
        if (own.length > 0 && !own.some((s) => s.source.includes(anchor))) problems.push(`${where}: ${t.path} ${t.name} does not mention ${anchor}`);
      }
    }
  }
}

async function main(): Promise<void> {
  const which = arg('corpora', 'devset');
  const corpora = corporaOf(which);
  const file = path.resolve(projectRoot(), arg('dataset', which === 'lang' ? LANG_DEVSET_FILE : which === 'py' ? PY_STRUCTURAL_FILE : DEVSET_FILE));
  // the Python relationship set is structural questions only, over two codebases: no size or mix rule
  const structuralOnly = which === 'py';
  const queries = parseDataset(fs.readFileSync(file, 'utf8'), path.basename(file));
  const scopes = await loadScopes(corpora);
  const problems: string[] = [];
  for (const q of queries) checkQuery(q, scopes.get(q.repo), problems);

  const repos = [...new Set(queries.map((q) => q.repo))];
  if (!structuralOnly && queries.length < MIN_QUERIES) problems.push(`${queries.length} queries, at least ${MIN_QUERIES} wanted`);
  if (!structuralOnly && repos.length < MIN_CODEBASES) problems.push(`${repos.length} codebases, at least ${MIN_CODEBASES} wanted`);
  if (structuralOnly && queries.some((q) => q.type !== 'structural')) problems.push('the Python relationship set holds structural questions only');
  const rows: (string | number)[][] = [['codebase', 'languages', 'scopes', ...QUERY_TYPES, 'total']];
  for (const repo of repos) {
    const mine = queries.filter((q) => q.repo === repo);
    const corpus = corpora.find((c) => c.repo === repo);
    const counts = QUERY_TYPES.map((t) => mine.filter((q) => q.type === t).length);
    // Bug reports ('issue') have a dataset of their own (bench/localize): these sets need every other type.
    counts.forEach((n, i) => n === 0 && !structuralOnly && QUERY_TYPES[i] !== 'issue' && problems.push(`${repo}: no ${QUERY_TYPES[i]} question`));
    rows.push([`${repo} (${corpus?.label ?? '?'})`, corpus?.languages ?? '?', scopes.get(repo)?.length ?? 0, ...counts, mine.length]);
  }
  rows.push(['all', '', '', ...QUERY_TYPES.map((t) => queries.filter((q) => q.type === t).length), queries.length]);
  printTable(rows);
  if (problems.length > 0) {
    process.stderr.write(`\n${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write(`\n${path.relative(projectRoot(), file)}: every answer exists, lexical strings are verbatim and unique, no semantic query names its answer\n`);
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
