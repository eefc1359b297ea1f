import { Injectable } from '@nestjs/common';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { DomainError, DomainErrorCode } from '@scopegraph/errors';
import { Neo4jService } from '@scopegraph/graph';
import type { ScopeRef } from './impact.service';
import { codeOnly, NameUse, nameUses } from './code-text';
import { Manifests, readManifests } from './manifests';
import { classBases, dottedBases, frameworkConvention, frameworkInnerClass, implementsInterface, importsOwnPackage, inheritedOutsideBase, inPackage, mkdocsHookFiles, pythonContext, stdlibProtocol, topLevelPackages } from './python-conventions';
import { inAbstractClass, ioProtocolMethod, lookedUpNames, pluginBaseMember, pythonApiContext, pythonPublicApi, siblingMethods } from './python-api';
import { BY_NAME_PROTOCOLS, STDLIB_BY_NAME, attributePrefixMaps, builtName, builtNameHeads, identifierStrings, moduleGetattrHead, moduleGetattrHeads, prefixMappedUse } from './python-dynamic';
import { HandedFolder, handedFolderOf, pathHandedFolders } from './python-paths';
import { affixMatch, attributeScanAffixes, commentAbove, isClassExpression, isDoctestHolder, isLoaderHook, isReturnedThroughLocals, isTestSuitePath, keyAffixes, registeredHookFiles, testHook } from './dead-code-signs';

export const DEAD_CODE_LIMITS = { defaultMinConfidence: 0.7, maxResults: 2_000, defaultResults: 200 };
const KINDS = ['function', 'method', 'class'];

export interface DeadCodeCandidate {
  scope: ScopeRef & { language: string };
  /** 0-1: how sure the graph is that nothing uses it. */
  confidence: number;
  /** Why it could still be live (each lowered the confidence). */
  reasons: string[];
}

export interface DeadCodeResult {
  repository: string;
  candidates: DeadCodeCandidate[];
  /** Unreferenced declarations left out as entry points, by why. */
  excluded: Record<string, number>;
  considered: number;
  minConfidence: number;
}

interface CandidateRow extends ScopeRef {
  language: string;
  exported: boolean;
  head: string | null;
  parentKind: string | null;
  parentExported: boolean;
  externalBase: boolean;
  repoBase: boolean;
  /** The scope itself extends or implements something (in the repository or outside). */
  extends: boolean;
  /** Python methods: the first lines of the parent class (its decorators). */
  parentHead?: string | null;
  /** Python methods: outside classes the parent inherits through classes of the repository. */
  outsideAncestors?: string[] | null;
}

/** A package's API entry files when no manifest says: what outside code imports (programs' entry files export nothing). */
const ENTRY_FILE = /(^|\/)(index|mod|lib|__init__)\.[a-z]+$/;
/** Methods a runtime or framework calls by name (protocols, lifecycles, test fixtures). */
const CALLED_BY_NAME = new Set([
  'toString', 'toJSON', 'valueOf', 'then', 'constructor', 'render', 'setUp', 'tearDown', 'setUpClass', 'tearDownClass', 'setUpModule', 'tearDownModule',
  'onModuleInit', 'onModuleDestroy', 'onApplicationBootstrap', 'beforeApplicationShutdown', 'onApplicationShutdown',
  'ngOnInit', 'ngOnDestroy', 'ngOnChanges', 'componentDidMount', 'componentWillUnmount', 'componentDidUpdate', 'shouldComponentUpdate',
  'getDerivedStateFromProps', 'connectedCallback', 'disconnectedCallback', 'attributeChangedCallback', 'main', 'run', 'handle', 'execute',
  // Python protocols and framework hooks called by name: pytest/nose/unittest module hooks, Django and
  // Flask class-based views, logging/argparse/socketserver/ast/cmd/threading hooks.
  'setup_module', 'teardown_module', 'setup_function', 'teardown_function', 'setup_method', 'teardown_method', 'setup_class', 'teardown_class',
  'pytest_configure', 'pytest_addoption', 'get_queryset', 'get_context_data', 'dispatch_request', 'get_object', 'form_valid', 'emit', 'format',
  'handle_error', 'default', 'emptyline', 'load_ipython_extension', 'unload_ipython_extension', 'precmd', 'postcmd', 'preloop', 'postloop', 'generic_visit', 'load_tests', 'setup', 'teardown',
]);
/**
 * Methods of the languages beyond JS/TS and Python that their runtime calls by name: PHP's magic
 * methods (every `__` name is reserved for them), Java's serialization hooks, Ruby's object hooks
 * and conversion protocols, and the method sets of Go's standard interfaces (satisfied implicitly,
 * so no edge names the method: fmt.Stringer, error, json.Marshaler, http.Handler, io.Reader...).
 */
const RUNTIME_BY_NAME: Record<string, RegExp | Set<string>> = {
  php: /^__[a-zA-Z]/,
  java: new Set(['writeObject', 'readObject', 'readObjectNoData', 'writeReplace', 'readResolve', 'finalize']),
  ruby: new Set([
    'initialize', 'initialize_copy', 'inherited', 'included', 'extended', 'prepended', 'method_added', 'method_missing', 'respond_to_missing?',
    'const_missing', 'coerce', 'to_s', 'to_str', 'to_a', 'to_ary', 'to_h', 'to_hash', 'to_proc', 'to_json', 'as_json', 'inspect', 'each', 'call', 'hash', 'eql?', '<=>', '==',
  ]),
  go: new Set([
    'String', 'GoString', 'Error', 'Unwrap', 'Is', 'As', 'Format', 'MarshalJSON', 'UnmarshalJSON', 'MarshalText', 'UnmarshalText', 'MarshalBinary',
    'UnmarshalBinary', 'MarshalYAML', 'UnmarshalYAML', 'MarshalXML', 'UnmarshalXML', 'ServeHTTP', 'Read', 'Write', 'Close', 'Seek', 'ReadFrom',
    'WriteTo', 'ReadAt', 'WriteAt', 'ReadByte', 'WriteByte', 'ReadRune', 'UnreadByte', 'UnreadRune', 'WriteString', 'Len', 'Less', 'Swap',
    'Push', 'Pop', 'Scan', 'Value', 'Set', 'Get', 'Type', 'Timeout', 'Temporary', 'Deadline', 'Done', 'Err',
  ]),
};
/** Rust attributes of tests and benchmarks (`#[test]`, `#[tokio::test]`, `#[bench]`, `#[cfg(test)]`). */
const RUST_TEST_ATTRIBUTE = /^\s*#\[(?:(?:[\w]+::)*(?:test|bench)\b|cfg\(test\))/m;
/** Rust attributes that hand a function to a linker, a runtime or a compiler plugin (`#[no_mangle]`, `#[tokio::main]`, `#[proc_macro]`). */
const RUST_EXPORT_ATTRIBUTE = /^\s*#\[(?:unsafe\()?(?:no_mangle|export_name|proc_macro\w*|(?:\w+::)+main)\b/m;
/** Ruby strings that build a method name from a literal head (`send("on_#{type}")`, `:"visit_#{kind}"`). */
const RUBY_STRING_HEAD = /["']([A-Za-z_]\w*)#\{/g;

/** Name prefixes that frameworks dispatch on (cmd's do_/help_/complete_, visitors, Django's clean_<field>, test_). */
const DISPATCH_PREFIX = /^(do|help|complete|visit|depart|clean|test|pytest)_[A-Za-z0-9]/;
const QUOTED = /['"`]([\p{L}_$][\p{L}\p{N}_$]*)['"`]/gu;
/**
 * The identifier a string starts with where the rest of the name is built at run time:
 * `"visit_" + name`, f"parse_{kind}", "get_%s" % x, `on${event}`, name.startswith("do_").
 */
const STRING_HEAD = /['"`]([A-Za-z_$][\w$]*)(?:['"`]\s*[+%]|\$\{|\{|%)|start[sS]_?[wW]ith\(\s*['"`]([A-Za-z_$][\w$]*)['"`]/g;
const MIN_PREFIX = 2;
const MODULE_VALUE = /(?:module\.exports\s*=|export\s+default)\s*(?:async\s+)?(?:class|function\*?)\s+([A-Za-z_$][\w$]*)/g;

/**
 * Dead-code candidates: unreferenced declarations minus entry points, each with a confidence lowered
 * by every reason it could still be live. The words counted are code only (comments and prose in
 * strings are not uses), outside the declaration itself (recursion is no use) and outside the
 * declarations of same-named scopes; a name that is still used somewhere no edge was pinned costs
 * most of the confidence, because false "dead" verdicts are what users of such tools distrust.
 */
@Injectable()
export class DeadCodeService {
  constructor(private readonly neo4j: Neo4jService) {}

  async deadCode(req: { repository: string; minConfidence?: number; limit?: number; language?: string; pathPrefix?: string }): Promise<DeadCodeResult> {
    const minConfidence = req.minConfidence ?? DEAD_CODE_LIMITS.defaultMinConfidence;
    if (!(minConfidence >= 0 && minConfidence <= 1)) throw new DomainError(DomainErrorCode.InvalidInput, 'minConfidence must be from 0 to 1', 'minConfidence');
    const limit = req.limit ?? DEAD_CODE_LIMITS.defaultResults;
    if (!Number.isInteger(limit) || limit < 1 || limit > DEAD_CODE_LIMITS.maxResults) throw new DomainError(DomainErrorCode.InvalidInput, `limit must be an integer from 1 to ${DEAD_CODE_LIMITS.maxResults}`, 'limit');
    const [repo] = await this.neo4j.read<{ rootPath: string }>('impact/repository', { repoId: req.repository });
    if (!repo) throw new DomainError(DomainErrorCode.UnknownRepository, `no repository named "${req.repository}"`, 'repository');

    const [rows, files, unresolved] = await Promise.all([
      this.neo4j.read<CandidateRow>('impact/dead-candidates', { repoId: req.repository, kinds: KINDS, language: req.language ?? null, pathPrefix: req.pathPrefix ?? null }),
      this.neo4j.read<{ path: string; source: string | null; importedBy: string[] }>('impact/dead-context', { repoId: req.repository }),
      this.neo4j.read<{ name: string; uses: number }>('impact/unresolved-names', { repoId: req.repository }),
    ]);
    const manifests = await readManifests(repo.rootPath, files.map((f) => f.path));
    const publicFiles = publicApiFiles(files, manifests);

    const excluded: Record<string, number> = {};
    const exclude = (why: string) => (excluded[why] = (excluded[why] ?? 0) + 1);
    const open: CandidateRow[] = [];
    for (const r of rows) {
      const why = entryPoint(r, publicFiles, manifests);
      if (why) exclude(why);
      else open.push(r);
    }
    const names = new Set(open.map((r) => r.name));
    const definitions = names.size ? await this.neo4j.read<{ name: string; path: string; startLine: number | null; qualifiedName?: string | null }>('impact/name-definitions', { repoId: req.repository, names: [...names] }) : [];

    const candidatePaths = new Set(open.map((r) => r.path));
    const moduleValues = new Set<string>();
    const importedFiles = new Set(files.filter((f) => f.importedBy.length > 0).map((f) => f.path));
    const uses = new Map<string, NameUse[]>();
    // Occurrences with strings kept, minus those in code: the name written inside string literals.
    const stringMentions = new Map<string, number>();
    const quoted = new Map<string, number>();
    const heads = new Set<string>();
    const pythonFiles: { path: string; text: string }[] = [];
    const affixes = new Set<string>();
    const hookFiles = new Set<string>();
    // Capitalised names written as call arguments or subscripts: classes a registry hands out by name.
    const lookups = new Set<string>();
    const sources = new Map<string, string[]>();
    // Prefixes a class __getattr__/__getattribute__ maps onto attribute names.
    const prefixMaps = new Set<string>();
    // The graph keeps only the head of a file's text: the words are counted in the files themselves.
    await mapLimit(files, FILE_READS, async (f) => {
      const text = (await readText(repo.rootPath, f.path)) ?? f.source ?? '';
      if (/\.pyi?$/.test(f.path)) {
        pythonFiles.push({ path: f.path, text });
        lookedUpNames(codeOnly(f.path, text, true), lookups);
        for (const p of attributePrefixMaps(text)) prefixMaps.add(p);
      }
      for (const m of text.matchAll(QUOTED)) if (names.has(m[1])) quoted.set(m[1], (quoted.get(m[1]) ?? 0) + 1);
      for (const m of text.matchAll(STRING_HEAD)) {
        const head = m[1] ?? m[2];
        if (head.length >= MIN_PREFIX) heads.add(head);
      }
      if (f.path.endsWith('.rb')) for (const h of rubyStringHeads(text)) heads.add(h);
      nameUses(f.path, codeOnly(f.path, text), names, uses);
      const inStrings = new Map<string, NameUse[]>();
      nameUses(f.path, codeOnly(f.path, text, true), names, inStrings);
      for (const [name, list] of inStrings) stringMentions.set(name, (stringMentions.get(name) ?? 0) + list.length);
      if (candidatePaths.has(f.path)) for (const m of text.matchAll(MODULE_VALUE)) moduleValues.add(`${f.path}#${m[1]}`);
      keyAffixes(text, affixes, /\.pyi?$/.test(f.path));
      registeredHookFiles(f.path, text, hookFiles);
      if (candidatePaths.has(f.path)) sources.set(f.path, text.split('\n'));
    });
    // Functions that pick methods out of dir(x) by a head and tail, given literally or by their callers.
    attributeScanAffixes(pythonFiles, affixes, heads);
    const testsShipped = files.some((f) => isTestSuitePath(f.path));
    const definitionCount = new Map<string, number>();
    for (const [name, list] of uses) definitionCount.set(name, list.length);
    dropDeclarations(uses, definitions);
    for (const [name, n] of definitionCount) definitionCount.set(name, n - (uses.get(name)?.length ?? 0));
    // `Class.method` of every declaration of the candidates' names, to tell overrides of dotted bases.
    const qualifiedNames = new Set(definitions.map((d) => (d.qualifiedName ?? '').split('.').slice(-2).join('.')));
    // Config, templates, rc files and docs name commands, handlers and keybindings the graph never sees.
    const packages = topLevelPackages(files.map((f) => f.path));
    // Held in an object: the callback below sets it, which TypeScript's narrowing does not follow.
    const config: { python: { path: string; pkg: string } | null } = { python: null };
    const classes = pythonMethodClasses(open);
    const mkdocsHooks = new Set<string>();
    const elsewhere = await namesOutsideCode(repo.rootPath, new Set(files.map((f) => f.path)), new Set([...names, ...classes.values()]), (p, text) => {
      // A launcher script (`#!/usr/bin/env python`) imports the package to run it, not to configure it.
      const pkg = !config.python && !text.startsWith('#!') ? importsOwnPackage(text, packages) : null;
      if (pkg) config.python = { path: p, pkg };
      if (/(^|\/)mkdocs\.ya?ml$/.test(p)) for (const h of mkdocsHookFiles(p, text)) mkdocsHooks.add(h);
    });
    const python = pythonContext(pythonFiles, mkdocsHooks);
    const handed = pathHandedFolders(pythonFiles, files.map((f) => f.path));
    const api = pythonApiContext(pythonFiles, manifests.read);
    const unresolvedByName = new Map<string, number>();
    for (const u of unresolved) {
      const last = u.name.slice(u.name.lastIndexOf('.') + 1);
      unresolvedByName.set(last, (unresolvedByName.get(last) ?? 0) + u.uses);
    }

    const codeWords = new Set<string>();
    // Only when some class maps a prefix: most repositories have none, and this reads all of their Python code.
    if (prefixMaps.size) for (const f of pythonFiles) for (const m of codeOnly(f.path, f.text).matchAll(/[A-Za-z_]\w*/g)) codeWords.add(m[0]);
    const fileNames = new Map<string, { heads: Set<string>; strings: Set<string>; getattrHeads: Set<string> }>();
    const pythonText = new Map(pythonFiles.map((f) => [f.path, f.text]));
    const importersOf = new Map(files.map((f) => [f.path, f.importedBy]));
    const namesOf = (p: string) => {
      let v = fileNames.get(p);
      if (!v) {
        const text = sources.get(p)?.join('\n') ?? pythonText.get(p) ?? '';
        v = { heads: builtNameHeads(text), strings: identifierStrings(text), getattrHeads: moduleGetattrHeads(text) };
        fileNames.set(p, v);
      }
      return v;
    };

    const candidates: DeadCodeCandidate[] = [];
    for (const r of open) {
      // `module.exports = class X`, `export default function X`: whoever imports the file holds X.
      if (moduleValues.has(`${r.path}#${r.name}`) && (importedFiles.has(r.path) || publicFiles.has(r.path))) {
        exclude('the value of a module that is imported');
        continue;
      }
      const hook = pythonHook(r, python);
      if (hook) {
        exclude(hook);
        continue;
      }
      if (r.kind === 'class' && r.language === 'python' && r.parentKind === 'class' && frameworkInnerClass(r, r.parentHead, r.outsideAncestors, (sources.get(r.path) ?? []).join('\n'), packages)) {
        exclude('an inner class of a class with an outside base or metaclass: the framework reads it (Meta, Config)');
        continue;
      }
      const base = pythonBase(r, python.fileImports.get(r.path) ?? new Set(), packages, qualifiedNames);
      if (base.entry) {
        exclude(base.entry);
        continue;
      }
      const io = r.language === 'python' && r.kind === 'method' && r.startLine !== null
        ? ioProtocolMethod(r, r.parentHead ? classBases(r.parentHead) : [], r.outsideAncestors, siblingMethods(sources.get(r.path) ?? [], Number(r.startLine)))
        : null;
      if (io) {
        exclude('an io protocol method of a file-like class: io wrappers call it by name');
        continue;
      }
      const signs = declarationSigns(r, sources.get(r.path) ?? [], { hookFiles, affixes, testsShipped });
      if (signs.entry) {
        exclude(signs.entry);
        continue;
      }
      const own = r.language === 'python' ? namesOf(r.path) : null;
      const { confidence, reasons } = judge(base.repoBase ? { ...r, repoBase: true } : r, {
        builtName: own ? builtName(r.name, own, (importersOf.get(r.path) ?? []).filter((p) => pythonText.has(p)).map(namesOf)) : null,
        moduleGetattr: own && (!r.parentKind || r.parentKind === 'module' || r.parentKind === 'file') ? moduleGetattrHead(r.name, own.getattrHeads) : null,
        prefixMapped: r.language === 'python' && prefixMaps.size ? prefixMappedUse(r.name, prefixMaps, codeWords) : null,
        testHook: signs.testHook,
        keyAffix: signs.keyAffix,
        quoted: quoted.get(r.name) ?? 0,
        prefix: namePrefix(r.name, heads),
        unresolved: unresolvedByName.get(r.name) ?? 0,
        outsideCode: elsewhere.get(r.name) ?? null,
        inStrings: Math.max(0, (stringMentions.get(r.name) ?? 0) - (uses.get(r.name)?.length ?? 0) - (definitionCount.get(r.name) ?? 0) - (quoted.get(r.name) ?? 0)),
        uses: (uses.get(r.name) ?? []).filter((u) => !(u.path === r.path && r.startLine !== null && r.endLine !== null && u.line >= r.startLine && u.line <= r.endLine)),
        manifests,
        inheritsOutside: inheritedOutsideBase(r, r.outsideAncestors),
        configuredInPython: config.python && inPackage(r.path, config.python.pkg) ? config.python.path : null,
        pythonApi: pythonPublicApi(r, api),
        pluginBase: pluginBaseMember(r, api, r.language === 'python' && r.kind === 'method' && r.startLine !== null && inAbstractClass(sources.get(r.path) ?? [], Number(r.startLine))),
        handedFolder: r.language === 'python' ? handedFolderOf(r, handed) : null,
        lookedUpClass: classes.has(r.id) && lookups.has(classes.get(r.id)!) ? classes.get(r.id)! : null,
        classOutsideCode: classes.has(r.id) ? { name: classes.get(r.id)!, ...(elsewhere.get(classes.get(r.id)!) ?? { path: '', count: 0 }) } : null,
      });
      if (confidence >= minConfidence) {
        candidates.push({
          scope: { id: r.id, name: r.name, qualifiedName: r.qualifiedName, kind: r.kind, path: r.path, startLine: r.startLine, endLine: r.endLine, language: r.language },
          confidence,
          reasons,
        });
      }
    }
    candidates.sort((a, b) => b.confidence - a.confidence || (a.scope.id < b.scope.id ? -1 : 1));
    return { repository: req.repository, candidates: candidates.slice(0, limit), excluded, considered: rows.length, minConfidence };
  }
}

interface Evidence {
  /** Python: the head + string its file builds the name from (`'_' + self.kind`, kind 'StarFive'). */
  builtName?: string | null;
  /** Python: the head under which its module's `__getattr__` hands out globals (PEP 562). */
  moduleGetattr?: string | null;
  /** Python: the word in code a prefix-mapping `__getattr__`/`__getattribute__` turns into its name. */
  prefixMapped?: string | null;
  /** Why it serves a test suite the package does not ship (its name, the comment above it). */
  testHook?: string | null;
  /** A key built at run time from a head and tail the name fits (`` this[`_${name}Summary`] ``). */
  keyAffix?: string | null;
  /** A file that is not code (config, template, rc file, docs) naming it, with how many such mentions. */
  outsideCode?: { path: string; count: number } | null;
  quoted: number;
  /** Times the name is written inside longer string literals (command strings run by eval, templates, SQL). */
  inStrings?: number;
  prefix: string | null;
  unresolved: number;
  uses: NameUse[];
  manifests: Manifests;
  /** Python: an outside class the scope's class inherits through the repository's own classes. */
  inheritsOutside?: string | null;
  /** Python: a non-module file (a config sample users copy) that imports the package. */
  configuredInPython?: string | null;
  /** Python: why the declaration is public API of an installable package (import pkg.mod), or null. */
  pythonApi?: string | null;
  /** Python methods: why a protected method is API of a public plugin base class (subclasses outside override or call it). */
  pluginBase?: string | null;
  /** Python methods: the class's name, where code looks it up by a string (`component.get("Core")`). */
  lookedUpClass?: string | null;
  /** Python: the folder the declaration lies in, which the package hands out as a path (stubs for an analyser, sys.path). */
  handedFolder?: HandedFolder | null;
  /** Python methods: the class's name as written in files that are not code (docs, config samples). */
  classOutsideCode?: { name: string; path: string; count: number } | null;
}

/** The confidence that an unreferenced, non-entry declaration is dead, and every reason it could be live. */
export function judge(r: Pick<CandidateRow, 'name' | 'kind' | 'path' | 'exported' | 'parentKind' | 'parentExported' | 'repoBase' | 'extends' | 'language'>, e: Evidence): { confidence: number; reasons: string[] } {
  let confidence = 0.95;
  const reasons: string[] = [];
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (e.quoted > 0) {
    confidence -= 0.5;
    reasons.push(`its name is written as a string ${plural(e.quoted, 'time')} (lookup by name, reflection, a registry)`);
  }
  if (e.inStrings) {
    confidence -= 0.4;
    reasons.push(`written ${plural(e.inStrings, 'time')} inside string literals: a command string run by eval, a template or a lookup may call it`);
  }
  if (e.prefix) {
    confidence -= 0.5;
    reasons.push(`a name is built from "${e.prefix}" at run time (getattr(self, "${e.prefix}" + ...), dispatch tables)`);
  }
  if (e.builtName) {
    confidence -= 0.5;
    reasons.push(`a name is built at run time as ${e.builtName} (getattr with a head and a value written as a string), which is this name`);
  }
  if (e.moduleGetattr) {
    confidence -= 0.3;
    reasons.push(`its module's __getattr__ hands out globals named "${e.moduleGetattr}" + the attribute asked for: module API reached as module.${r.name.slice(e.moduleGetattr.length)}`);
  }
  if (e.prefixMapped) {
    confidence -= 0.5;
    reasons.push(`a class __getattr__/__getattribute__ maps a literal prefix onto attribute names: ${e.prefixMapped} in code reaches it`);
  }
  if (e.handedFolder) {
    // Stub and data folders are read by a tool (an analyser, whoever imports from the path), not called by the package.
    confidence -= 0.3;
    const how = e.handedFolder.how === 'sys.path' ? 'puts it on sys.path' : 'hands it out as a folder that is no package';
    reasons.push(`in a folder the package hands out as a path (${e.handedFolder.folder}: ${e.handedFolder.where} ${how}): read by a tool, not called`);
  }
  if (e.unresolved > 0) {
    confidence -= 0.4;
    reasons.push(`${plural(e.unresolved, 'unresolved reference')} named ${r.name} could be calls to it`);
  }
  if (e.outsideCode) {
    confidence -= 0.5;
    reasons.push(`named ${plural(e.outsideCode.count, 'time')} in files the graph does not hold (first ${e.outsideCode.path}): configuration, templates, key bindings or code the index skipped may call it`);
  }
  if (e.testHook) {
    confidence -= 0.4;
    reasons.push(`a hook for tests the package does not ship: ${e.testHook}`);
  }
  if (e.keyAffix) {
    confidence -= 0.5;
    reasons.push(`a member key is built at run time as \`${e.keyAffix}\` (this[key]()), which fits its name`);
  }
  const bare = e.uses.filter((u) => !u.member);
  const member = e.uses.filter((u) => u.member);
  if (bare.length) {
    confidence -= 0.5;
    reasons.push(`the name ${r.name} is used ${plural(bare.length, 'time')} in code (first ${bare[0].path}:${bare[0].line}) where no edge was pinned`);
  }
  if (member.length) {
    // `x.name`: a call on a receiver the resolver could not type, or `module.name` in Python.
    confidence -= 0.4;
    reasons.push(`.${r.name} is read as an attribute ${plural(member.length, 'time')} (first ${member[0].path}:${member[0].line}): a receiver the resolver could not type may be this`);
  }
  if (r.kind === 'method' && r.parentKind && !['class', 'struct', 'interface', 'trait', 'enum', 'record'].includes(r.parentKind)) {
    confidence -= 0.5;
    reasons.push(`a property of a ${r.parentKind} (an object literal): read by key, which no edge records`);
  }
  if (DISPATCH_PREFIX.test(r.name)) {
    confidence -= 0.5;
    reasons.push(`its name follows a convention frameworks dispatch on (${r.name.split('_')[0]}_...)`);
  }
  const isPrivate = r.name.startsWith('_') || /(^|\/)_[^/_]/.test(r.path);
  // A Python library's public method is reachable from any instance users hold, wherever its class lives.
  const pyPublicMethod = r.language === 'python' && r.kind === 'method' && !r.name.startsWith('_') && e.manifests.library;
  // The same holds for a JavaScript/TypeScript package with a library entry (main/exports): an instance
  // handed out (a SourceCode, a TokenStore) is called by code outside, wherever its class is declared.
  const jsLibraryMethod = r.language !== 'python' && r.kind === 'method' && /^[A-Za-z$]/.test(r.name) && !!e.manifests.jsLibrary;
  const exported = r.exported || (r.kind === 'method' && r.parentExported && !r.name.startsWith('_'));
  // A program configured in Python against its own API (buildbot's master.cfg) is a library to its users.
  const pyProgram = e.manifests.application && !e.configuredInPython;
  // A program's class that its docs or config samples name is offered to users, as a library's is.
  const documented = e.classOutsideCode && e.classOutsideCode.count > 0 ? e.classOutsideCode : null;
  if (e.pythonApi) {
    // Users of an installable package import any public module; a library that also ships a console
    // script is still imported (only a clear application, or a private module, is judged on its uses).
    confidence -= 0.3;
    reasons.push(e.pythonApi);
  } else if (pyPublicMethod) {
    const asLibrary = !e.manifests.application || !pyProgram || documented;
    confidence -= asLibrary ? 0.3 : 0.15;
    const why = !e.manifests.application
      ? 'library'
      : documented
        ? `program whose files that are not code name the class ${documented.name} (first ${documented.path}): documented for users`
        : !pyProgram
          ? `program configured in Python against its own API (${e.configuredInPython} imports it)`
          : 'package that is also a program';
    reasons.push(`public method of a class in a Python ${why}: code outside the repository could call it`);
  } else if (jsLibraryMethod) {
    confidence -= 0.3;
    reasons.push('public method of a class in a package with a library entry: code outside the repository could call it');
  } else if (exported && !isPrivate) {
    if (e.manifests.library && r.language === 'python' && (!e.manifests.application || e.configuredInPython)) {
      confidence -= 0.3;
      reasons.push(`public name of a Python ${e.manifests.application ? `program configured in Python against its own API (${e.configuredInPython} imports it)` : 'library'}: code outside the repository could use it`);
    } else if (e.manifests.library && r.language === 'python') {
      confidence -= 0.15;
      reasons.push('public name of a Python package that is also a program: code outside the repository could use it');
    } else if (r.language && e.manifests.libraries?.has(r.language) && !/(^|\/)internal\//.test(r.path)) {
      // (Go's internal/ packages are importable only from inside the module.)
      confidence -= 0.3;
      reasons.push(`public name of a library (${e.manifests.libraries.get(r.language)} declares one): code outside the repository could use it`);
    } else if (e.manifests.jsDeepImports && r.language !== 'python') {
      // Without an `exports` map Node lets `require('pkg/lib/x')` reach every file: each export is API.
      confidence -= 0.3;
      reasons.push('exported by a library package without an exports map: outside code can require this file by path and use it');
    } else if (e.manifests.jsLibrary && r.language !== 'python') {
      confidence -= 0.1;
      reasons.push('exported by a package with a library entry: a deep import from outside could use it');
    } else {
      confidence -= 0.05;
      reasons.push('exported, though nothing in this application imports it');
    }
  }
  if (e.pluginBase) {
    confidence -= 0.3;
    reasons.push(e.pluginBase);
  }
  if (e.lookedUpClass && !e.pythonApi) {
    confidence -= 0.3;
    reasons.push(`its class ${e.lookedUpClass} is looked up by a string ("${e.lookedUpClass}" in a call or subscript): a registry hands the instance to code that calls its methods`);
  }
  if (r.kind === 'method' && r.repoBase) {
    confidence -= 0.1;
    reasons.push('its class extends another: a base could call it by name');
  }
  if (e.inheritsOutside) {
    confidence -= 0.3;
    reasons.push(`its class inherits the outside class ${e.inheritsOutside} through classes of the repository: it may override one of its methods, called from outside`);
  }
  if (r.kind === 'class' && r.extends) {
    confidence -= 0.3;
    reasons.push('a subclass: plugin registries find subclasses without naming them (__subclasses__, module scans)');
  }
  return { confidence: Math.max(0, Math.round(confidence * 100) / 100), reasons };
}

/** Python methods' classes by candidate id (`A.B.method` → `B`), to look their names up in docs and configs. */
function pythonMethodClasses(rows: CandidateRow[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of rows) {
    if (r.language !== 'python' || r.kind !== 'method' || r.name.startsWith('_')) continue;
    const parts = (r.qualifiedName ?? '').split('.');
    if (parts.length >= 2 && /^[A-Za-z]\w*$/.test(parts[parts.length - 2])) out.set(r.id, parts[parts.length - 2]);
  }
  return out;
}

/** Why a Python declaration is called by a framework or through an interface though nothing names it, or null. */
function pythonHook(r: CandidateRow, python: ReturnType<typeof pythonContext>): string | null {
  if (frameworkConvention(r, python)) return 'called by a framework it imports by its name pattern';
  if (implementsInterface(r, r.parentHead ?? null)) return 'a method of a class declared to implement an interface';
  return null;
}

/**
 * Signs read from the declaration's own lines: an entry-point reason (a class expression, a Node
 * loader hook) or evidence for `judge` (a test hook, a run-time key it fits).
 */
function declarationSigns(
  r: Pick<CandidateRow, 'name' | 'kind' | 'path' | 'startLine' | 'endLine' | 'language'>,
  lines: string[],
  ctx: { hookFiles: Set<string>; affixes: Set<string>; testsShipped: boolean },
): { entry: string | null; testHook: string | null; keyAffix: string | null } {
  const start = r.startLine === null ? null : Number(r.startLine);
  if (r.kind === 'class' && start !== null && isClassExpression(lines[start - 1] ?? '', r.name)) return { entry: 'a class expression: its value is used where it is written', testHook: null, keyAffix: null };
  if (isLoaderHook(r.name, r.path, ctx.hookFiles)) return { entry: 'a Node module-loader hook (its file is given to register())', testHook: null, keyAffix: null };
  if (r.language === 'python' && r.kind !== 'class' && start !== null && r.endLine !== null && isDoctestHolder(lines.slice(start - 1, Number(r.endLine)))) {
    return { entry: 'holds only a doctest, which doctest collection runs', testHook: null, keyAffix: null };
  }
  if (r.language === 'python' && r.kind !== 'class' && start !== null && r.endLine !== null && isReturnedThroughLocals(lines, start, Number(r.endLine))) {
    return { entry: "handed out by name through its enclosing function's locals() (property(**f()))", testHook: null, keyAffix: null };
  }
  return {
    entry: null,
    testHook: ctx.testsShipped || start === null ? null : testHook(r.name, commentAbove(lines, start)),
    keyAffix: r.kind === 'class' ? null : affixMatch(r.name, ctx.affixes),
  };
}

/**
 * What a Python method's class inherits where the graph has no edge: a standard-library protocol
 * reached through the repository's classes, a dotted base (`json.JSONEncoder`, `SCons.cpp.PreProcessor`)
 * from outside (the method may be one of its hooks) or from the repository (the method overrides one
 * of the base's when the base declares the same name; otherwise the class still extends another).
 */
export function pythonBase(r: CandidateRow, fileImports: Set<string>, packages: Set<string>, qualifiedNames: Set<string>): { entry: string | null; repoBase: boolean } {
  if (r.language !== 'python' || r.kind !== 'method') return { entry: null, repoBase: false };
  const protocol = stdlibProtocol(r, r.outsideAncestors);
  if (protocol) return { entry: 'a standard-library protocol method of an outside base the class inherits', repoBase: false };
  const dotted = r.parentHead ? dottedBases(r.parentHead, fileImports, packages) : [];
  if (dotted.some((d) => d.where === 'outside')) return { entry: 'overrides a method of an outside class', repoBase: false };
  const own = dotted.filter((d) => d.where === 'repository');
  if (own.some((d) => qualifiedNames.has(`${d.className}.${r.name}`))) return { entry: 'overrides a method of its base class (a dotted base the graph has no edge for)', repoBase: false };
  return { entry: null, repoBase: own.length > 0 };
}

/** Public API: manifest entry files, and files they import (re-exports, `from .x import y` in __init__). */
function publicApiFiles(files: { path: string; importedBy: string[] }[], manifests: Manifests): Set<string> {
  const out = new Set<string>();
  // A package without a manifest that says: its index/__init__ files are what outside code imports.
  const entry = (p: string) => manifests.entryFiles.has(p) || (!manifests.read.some((m) => m.endsWith('package.json')) && ENTRY_FILE.test(p)) || (manifests.library && /(^|\/)__init__\.py$/.test(p));
  for (const f of files) {
    if (entry(f.path)) out.add(f.path);
    else if (f.importedBy.some(entry)) out.add(f.path);
  }
  return out;
}

/** Removes, per declaration of each name, the first occurrence on or just after its first line. */
function dropDeclarations(uses: Map<string, NameUse[]>, definitions: { name: string; path: string; startLine: number | null }[]): void {
  for (const d of definitions) {
    const list = uses.get(d.name);
    if (!list || d.startLine === null) continue;
    const start = Number(d.startLine);
    // Decorators and multi-line signatures put the name a few lines below the scope's first line.
    const i = list.findIndex((u) => u.path === d.path && u.line >= start && u.line <= start + 6);
    if (i >= 0) list.splice(i, 1);
  }
}

/** Why an unreferenced declaration is an entry point (so not a candidate), or null. */
export function entryPoint(
  r: Pick<CandidateRow, 'name' | 'kind' | 'path' | 'exported' | 'head' | 'parentKind' | 'parentExported' | 'externalBase' | 'language'>,
  publicFiles: Set<string>,
  manifests?: Pick<Manifests, 'entryFunctions' | 'library'>,
): string | null {
  if (isTestSuitePath(r.path) || /^test/i.test(r.name)) return 'test';
  if (r.path.endsWith('.pyi')) return 'a declaration in a .pyi stub: stubs are read by type checkers, never run';
  if (/^__\w+__$/.test(r.name)) return 'dunder method';
  if (/(^|\/)(docs?|examples?|samples?)\//.test(r.path)) return 'example or documentation code';
  if (r.name === 'main' || r.name === '<anonymous>' || r.name === '') return 'main';
  // Go names a function literal after its place (`Serve.func1`, as stack traces do): its value is used where it is written.
  if (r.language === 'go' && /^func\d+$/.test(r.name)) return 'a function literal: its value is used where it is written';
  if (r.language === 'go' && r.name === 'init' && r.kind === 'function') return 'called by name by a runtime or framework';
  const attributes = r.language === 'rust' && r.head ? rustAttributes(r.head) : '';
  if (RUST_TEST_ATTRIBUTE.test(attributes)) return 'test';
  if (RUST_EXPORT_ATTRIBUTE.test(attributes)) return 'registered by an attribute (a linker symbol, a runtime entry or a compiler plugin)';
  const byName = RUNTIME_BY_NAME[r.language ?? ''];
  if (byName && (r.kind === 'method' || r.language === 'php') && (byName instanceof RegExp ? byName.test(r.name) : byName.has(r.name))) return 'called by name by a runtime or framework';
  // The TypeScript extractor names a class without a name `anonymous` (`internals.Server = class {...}`):
  // there is no name to look for, and its value is used where it is written.
  if (r.kind === 'class' && r.name === 'anonymous') return 'a class expression: its value is used where it is written';
  // `[Symbol.iterator]()`, `[Symbol.asyncIterator]()`: protocols the runtime calls.
  if (r.name.startsWith('[')) return 'called by name by a runtime or framework';
  if (manifests?.entryFunctions.get(r.path)?.has(r.name)) return 'named as an entry point by the package manifest';
  if (r.language === 'python' && BY_NAME_PROTOCOLS.test(r.name)) return 'a display protocol method notebooks call by name (_repr_*_)';
  const stdlibCaller = r.language === 'python' ? STDLIB_BY_NAME.get(r.name) : undefined;
  if (stdlibCaller) return `a standard-library protocol method called by name: ${stdlibCaller}`;
  if (CALLED_BY_NAME.has(r.name)) return 'called by name by a runtime or framework';
  if (r.head && /^\s*(export\s+)?(default\s+)?(abstract\s+)?@[\w.]+/m.test(firstLines(r.head))) return 'registered by a decorator';
  if (r.kind === 'method' && r.externalBase) return 'overrides a method of an outside class';
  if (r.parentKind === 'interface') return 'interface member';
  const exported = r.exported || (r.kind === 'method' && r.parentExported && !r.name.startsWith('_'));
  if (exported && publicFiles.has(r.path) && !r.name.startsWith('_')) return 'public API of the package';
  return null;
}

const FILE_READS = 16;
/** Bounds of the walk over files that are not code: enough for configs and docs, not a whole vendored tree. */
const OTHER_FILES = { max: 4_000, maxBytes: 512 * 1024, maxCodeBytes: 4 * 1024 * 1024 };
const CODE_FILE = /\.(py|pyi|[cm]?[jt]sx?|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp)$/;
const SKIP_DIRS = new Set(['.git', 'node_modules', '__pycache__', '.cache', '.venv', 'venv', '.tox', 'dist', 'build', 'coverage']);
const BINARY = /\.(png|jpe?g|gif|ico|webp|bmp|woff2?|ttf|otf|eot|zip|gz|tgz|bz2|xz|tar|jar|pyc|so|dylib|dll|exe|pdf|mp[34]|wav|ogg|wasm|onnx|bin|lock|map|min\.js)$/i;

/** Names of the candidates as written in the repository's files the graph does not hold (not code, or code the index skipped), first file and count. */
export async function namesOutsideCode(root: string, code: Set<string>, names: Set<string>, onText?: (path: string, text: string) => void): Promise<Map<string, { path: string; count: number }>> {
  const found = new Map<string, { path: string; count: number }>();
  if (!names.size) return found;
  const files: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    if (files.length >= OTHER_FILES.max) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && !SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) await walk(p);
      else if (e.isFile() && !code.has(p) && !BINARY.test(e.name) && files.length < OTHER_FILES.max) files.push(p);
    }
  };
  await walk('');
  await mapLimit(files, FILE_READS, async (p) => {
    const full = path.join(root, p);
    try {
      // Code the index skipped (too large, generated) still calls what it names: read it, up to a bound.
      if ((await fs.stat(full)).size > (CODE_FILE.test(p) ? OTHER_FILES.maxCodeBytes : OTHER_FILES.maxBytes)) return;
      const text = await fs.readFile(full, 'utf8');
      if (text.slice(0, 4096).includes('\u0000')) return;
      // Files that are not code (config samples, docs), for what they say about the package.
      if (!CODE_FILE.test(p)) onText?.(p, text);
      for (const m of text.matchAll(/[\p{L}_$][\p{L}\p{N}_$]*/gu)) {
        if (!names.has(m[0])) continue;
        const f = found.get(m[0]);
        if (f) f.count++;
        else found.set(m[0], { path: p, count: 1 });
      }
    } catch {
      // Unreadable files name nothing.
    }
  });
  return found;
}

async function readText(root: string, rel: string): Promise<string | null> {
  const full = path.resolve(root, rel);
  if (!full.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) return null;
  try {
    return await fs.readFile(full, 'utf8');
  } catch {
    return null;
  }
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  }));
  return out;
}

/** A string head the name extends at a word boundary (`visit_` of `visit_For`, `on` of `onClick`). */
function namePrefix(name: string, heads: Set<string>): string | null {
  for (let end = name.length - 1; end >= MIN_PREFIX; end--) {
    const head = name.slice(0, end);
    const boundary = head.endsWith('_') || /[A-Z]/.test(name[end]);
    if (boundary && heads.has(head)) return head;
  }
  return null;
}

/** Heads of method names a Ruby file builds by interpolation (`send("on_#{type}")` gives `on_`). */
export function rubyStringHeads(text: string): string[] {
  return [...text.matchAll(RUBY_STRING_HEAD)].map((m) => m[1]).filter((h) => h.length >= MIN_PREFIX);
}

/** The `#[...]` lines of a Rust item's head, before the line that declares it (doc comments come first). */
function rustAttributes(head: string): string {
  const lines = head.split('\n');
  const decl = lines.findIndex((l) => /^\s*(pub(\([^)]*\))?\s+)?((const|async|unsafe|extern(\s+"[^"]*")?)\s+)*(fn|struct|enum|trait|impl|mod|type|union)\b/.test(l));
  return (decl < 0 ? lines : lines.slice(0, decl)).filter((l) => /^\s*#\[/.test(l)).join('\n');
}

function firstLines(head: string): string {
  return head.split('\n').slice(0, 3).join('\n');
}
