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
  /** Languages to load grammars for (default: all). */
  languages?: Language[];
  /** Longer content yields only the file scope plus an error (default 4,000,000 characters). */
  maxContentLength?: number;
}

// Grammars are loaded once per process (per jest module registry) and shared by all instances.
let runtimeReady: Promise<void> | null = null;
const grammarCache = new Map<Language, Promise<GrammarLanguage>>();

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

function loadGrammar(lang: Language): Promise<GrammarLanguage> {
  let p = grammarCache.get(lang);
  if (!p) {
    const source = grammarOf(lang);
    if (!source) return Promise.reject(new Error(`no tree-sitter grammar is registered for ${lang}`));
    const file = require.resolve('vscode' in source ? `@vscode/tree-sitter-wasm/wasm/${source.vscode}` : source.module);
    p = Promise.resolve().then(() => GrammarLanguage.load(new Uint8Array(readFileSync(file))));
    p.catch(() => grammarCache.delete(lang));
    grammarCache.set(lang, p);
  }
  return p;
}

/**
 * Parses one file's content into scopes, raw references and imports (no I/O besides loading the
 * grammar .wasm files in {@link init}). Usable as a plain class or a Nest provider (`onModuleInit`
 * loads the grammars; or use a factory provider awaiting `init()`).
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
  private readonly maxContentLength: number;
  private readonly languages: Language[];

  constructor(options: ParserServiceOptions = {}) {
    this.languages = options.languages ?? [...REGISTERED_LANGUAGES];
    this.maxContentLength = options.maxContentLength ?? 4_000_000;
    for (const plugin of LANGUAGE_PLUGINS) {
      const ex = plugin.extractor();
      for (const l of ex.languages) this.extractors.set(l, ex);
    }
  }

  /** Load web-tree-sitter and the grammars. Idempotent. */
  init(): Promise<void> {
    if (!this.initPromise) {
      this.initPromise = (async () => {
        await ensureRuntime();
        for (const lang of this.languages) {
          if (!this.extractors.get(lang)?.usesTreeSitter) continue;
          const grammar = await loadGrammar(lang);
          const parser = new Parser();
          parser.setLanguage(grammar);
          this.parsers.set(lang, parser);
        }
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
    return this.parsers.size > 0 || this.languages.every((l) => !this.extractors.get(l)?.usesTreeSitter);
  }

  /** Whether {@link parseFile} can handle this path. */
  supports(path: string): boolean {
    const l = languageForPath(path);
    return l !== null && this.languages.includes(l);
  }

  /**
   * Parse one file. Never throws for bad content: syntax errors and extraction failures are reported
   * in `errors` (scopes found in the error-tolerant tree are kept; on an extraction failure only the
   * file scope is returned). Throws only when the path's language is unsupported or `init()` was not awaited.
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
    let parser: Parser | undefined;
    if (extractor.usesTreeSitter) {
      parser = this.parsers.get(lang);
      if (!parser) throw new Error('ParserService.init() must be awaited before parseFile()');
    }
    const builder = new FileBuilder(p, lang, content);
    let tree: ReturnType<Parser['parse']> = null;
    try {
      if (parser) {
        tree = parser.parse(chunked(content));
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

  /** Free the wasm parsers. */
  dispose(): void {
    for (const p of this.parsers.values()) p.delete();
    this.parsers.clear();
    this.initPromise = null;
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
