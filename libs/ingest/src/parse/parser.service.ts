import { readFileSync } from 'node:fs';
import { Language as GrammarLanguage, Parser } from 'web-tree-sitter';
import { grammarOf, LANGUAGE_PLUGINS, languageForPath, pluginOf, REGISTERED_LANGUAGES } from '../languages';
import { LanguageExtractor, syntaxErrors } from './extractor';
import { FileBuilder } from './file-builder';
import type { Language, ParsedFile } from './types';

export { languageForPath };

/** Repo-relative path with forward slashes and no leading `./`. */
export function normalisePath(path: string): string {
  let p = path.replace(/\\/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  return p.replace(/\/{2,}/g, '/');
}

export interface ParserServiceOptions {
  /** Languages this instance parses (default: all registered). */
  languages?: Language[];
  /**
   * Grammars to load in {@link ParserService.init} rather than when the first file of their language is
   * parsed (default: none; `'all'`: every grammar of `languages`, as before grammars loaded lazily).
   */
  preload?: Language[] | 'all';
  /** Longer content yields only the file scope plus an error (default 4,000,000 characters). */
  maxContentLength?: number;
}

// The runtime and each grammar are loaded once per thread (per jest module registry) and shared by all
// instances; every parse thread has its own, so each loads only the grammars its files need.
let runtimeReady: Promise<void> | null = null;
const grammarCache = new Map<Language, GrammarLanguage>();

function ensureRuntime(): Promise<void> {
  if (!runtimeReady) {
    const wasm = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
    // Hand the bytes over: web-tree-sitter's own loading uses dynamic import(), which jest's CommonJS runtime rejects.
    runtimeReady = Parser.init({ locateFile: () => wasm, wasmBinary: readFileSync(wasm) }).catch((e: unknown) => {
      runtimeReady = null;
      throw e;
    });
  }
  return runtimeReady;
}

/** The `.wasm` file of a language's grammar (throws naming the language when it is not installed). */
function grammarFile(lang: Language): string {
  const source = grammarOf(lang);
  if (!source) throw new Error(`no tree-sitter grammar is registered for ${lang}`);
  const spec = 'vscode' in source ? `@vscode/tree-sitter-wasm/wasm/${source.vscode}` : source.module;
  try {
    return require.resolve(spec);
  } catch {
    throw new Error(`the tree-sitter grammar of ${lang} (${spec}) is not installed`);
  }
}

/**
 * A grammar, loaded on first use. Synchronous, so `parseFile` stays synchronous and two files of one
 * language can never load it twice: a thread runs one parse at a time. Compiling in the calling
 * thread costs what web-tree-sitter's async load did (20-40 ms for TypeScript, 200-400 ms for C#/C++).
 */
function loadGrammar(lang: Language): GrammarLanguage {
  let grammar = grammarCache.get(lang);
  if (!grammar) {
    grammar = GrammarLanguage.loadSync(new WebAssembly.Module(readFileSync(grammarFile(lang))));
    grammarCache.set(lang, grammar);
  }
  return grammar;
}

/**
 * Parses one file's content into scopes, raw references and imports (no I/O besides loading a
 * grammar's .wasm file the first time a file of its language is parsed). Usable as a plain class or a
 * Nest provider (`onModuleInit` loads the tree-sitter runtime; or use a factory provider awaiting `init()`).
 *
 * ```ts
 * const parser = new ParserService();
 * await parser.init();
 * const parsed = parser.parseFile('src/a.ts', text);
 * ```
 */
export class ParserService {
  private readonly parsers = new Map<Language, Parser>();
  private readonly extractors = new Map<Language, LanguageExtractor>();
  private initPromise: Promise<void> | null = null;
  private runtimeLoaded = false;
  private readonly maxContentLength: number;
  private readonly languages: Language[];
  private readonly preload: readonly Language[];

  constructor(options: ParserServiceOptions = {}) {
    this.languages = options.languages ?? [...REGISTERED_LANGUAGES];
    this.preload = options.preload === 'all' ? this.languages : (options.preload ?? []);
    this.maxContentLength = options.maxContentLength ?? 4_000_000;
    for (const plugin of LANGUAGE_PLUGINS) {
      const ex = plugin.extractor();
      for (const l of ex.languages) this.extractors.set(l, ex);
    }
  }

  /**
   * Load web-tree-sitter and the `preload` grammars, and check that every grammar is installed (the
   * others load when a file of their language is first parsed). Idempotent.
   */
  init(): Promise<void> {
    if (!this.initPromise) {
      this.initPromise = (async () => {
        for (const lang of this.languages) if (this.extractors.get(lang)?.usesTreeSitter) grammarFile(lang);
        await ensureRuntime();
        this.runtimeLoaded = true;
        for (const lang of this.preload) if (this.extractors.get(lang)?.usesTreeSitter) this.parserFor(lang);
      })();
      this.initPromise.catch(() => (this.initPromise = null));
    }
    return this.initPromise;
  }

  /** Nest lifecycle hook. */
  onModuleInit(): Promise<void> {
    return this.init();
  }

  /** True once {@link init} has completed. */
  get ready(): boolean {
    return this.runtimeLoaded;
  }

  /** Languages whose grammar this instance has loaded so far (preloaded or parsed). */
  get loadedGrammars(): Language[] {
    return [...this.parsers.keys()];
  }

  /** The language's parser, its grammar loaded on first use. */
  private parserFor(lang: Language): Parser {
    let parser = this.parsers.get(lang);
    if (!parser) {
      if (!this.runtimeLoaded) throw new Error('ParserService.init() must be awaited before parseFile()');
      parser = new Parser();
      try {
        parser.setLanguage(loadGrammar(lang));
      } catch (e) {
        parser.delete();
        throw e;
      }
      this.parsers.set(lang, parser);
    }
    return parser;
  }

  /** Whether {@link parseFile} can handle this path. */
  supports(path: string): boolean {
    const l = languageForPath(path);
    return l !== null && this.languages.includes(l);
  }

  /**
   * Parse one file. Never throws for bad content: syntax errors and extraction failures are reported
   * in `errors` (scopes found in the error-tolerant tree are kept; on an extraction failure only the
   * file scope is returned). Throws only when the path's language is unsupported, `init()` was not
   * awaited or the language's grammar cannot be loaded.
   */
  parseFile(path: string, content: string, language?: Language): ParsedFile {
    const p = normalisePath(path);
    const lang = language ?? languageForPath(p);
    if (!lang || !this.languages.includes(lang)) throw new Error(`Unsupported file type: ${path}`);
    const extractor = this.extractors.get(lang)!;
    if (content.length > this.maxContentLength) {
      const b = new FileBuilder(p, lang, content);
      b.errors.push(`file too large to parse (${content.length} characters > ${this.maxContentLength})`);
      return b.build();
    }
    if (content.charCodeAt(0) === 0xfeff) content = content.slice(1); // BOM
    const parser = extractor.usesTreeSitter ? this.parserFor(lang) : undefined;
    const builder = new FileBuilder(p, lang, content);
    let tree: ReturnType<Parser['parse']> = null;
    try {
      if (parser) {
        tree = parser.parse(chunked(extractor.parseText ? extractor.parseText(content) : content));
        if (!tree) throw new Error('tree-sitter returned no tree');
        const found = syntaxErrors(tree.rootNode);
        const confirm = found.length ? pluginOf(lang)?.syntaxErrors : undefined;
        builder.errors.push(...(confirm ? confirm(p, content, lang) : found));
      }
      extractor.extract(builder, tree);
      return builder.build();
    } catch (e) {
      const fallback = new FileBuilder(p, lang, content);
      fallback.errors.push(...builder.errors, `extraction failed: ${e instanceof Error ? e.message : String(e)}`);
      return fallback.build();
    } finally {
      tree?.delete();
    }
  }

  /** Free the wasm parsers (the grammars stay loaded for the thread's other instances). */
  dispose(): void {
    for (const p of this.parsers.values()) p.delete();
    this.parsers.clear();
    this.initPromise = null;
    this.runtimeLoaded = false;
  }
}

/**
 * Hands tree-sitter the text in chunks that end on a code-point boundary. web-tree-sitter 0.27's own
 * string input copies each chunk into a 10 KiB UTF-16 buffer and cuts it wherever that fills, which can
 * split a surrogate pair (an emoji, a supplementary-plane letter) and turns valid code into a syntax
 * error far from any mistake (regex-syntax's `case_folding_simple.rs`).
 */
const CHUNK = 4096;
export function chunked(content: string): (index: number) => string {
  return (index) => {
    if (index >= content.length) return '';
    let end = Math.min(content.length, index + CHUNK);
    const last = content.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff && end < content.length) end++;
    return content.slice(index, end);
  };
}
