import type { ResolverName } from '@scopegraph/code-model';
import type { RawReferenceKind } from '../parse/types';

/**
 * Why a reference was not resolved:
 * - `external`: the name comes from an import of a package outside the repository;
 * - `builtin`: a language / standard-library name (`console.log`, `print`, `Task`, `nameof`...);
 * - `unknown-receiver`: `x.m()` where the type of `x` is not known statically;
 * - `ambiguous`: several unrelated declarations match and nothing decides between them;
 * - `not-found`: nothing in the repository matches;
 * - `local`: the compiler found a parameter or local variable (a callback): callable, but not a scope;
 * - `dynamic`: a call through a function value, closure, or an interface/trait with several
 *   implementors: which code runs is decided at run time.
 */
export type UnresolvedReason = 'external' | 'builtin' | 'unknown-receiver' | 'ambiguous' | 'not-found' | 'local' | 'dynamic';

export interface UnresolvedRef {
  fromId: string;
  type: RawReferenceKind;
  targetName: string;
  line: number;
  reason: UnresolvedReason;
  resolver: ResolverName;
  /** `external`: the package or library the name comes from, when known (`lodash`, `python-stdlib`). */
  origin?: string;
}

/**
 * A run's unresolved references, in columns: the source scope's id and the target name (strings
 * shared with the parses), the line, and type / reason / resolver as one small code each, instead of
 * an object per miss. Misses are most of what resolution outputs (~2.8 a scope in Python code, 21 MiB
 * per 100k scopes as objects, held from resolution to the edge write); they are read back as
 * objects one at a time (`at`, iteration), as the edge hashes and the edge write take them.
 */
export class MissList implements Iterable<UnresolvedRef> {
  private readonly fromIds: string[] = [];
  private readonly targetNames: string[] = [];
  private lines = new Int32Array(256);
  /** type, reason and resolver, each an index into `words`, packed 8 bits apiece. */
  private codes = new Int32Array(256);
  private readonly words: string[] = [];
  private readonly wordIndex = new Map<string, number>();
  /**
   * One string per distinct target name: misses read back from the reference spill carry a copy per
   * batch of files, and the same names (`log.debug`, `self.opts.get`) miss in file after file.
   */
  private readonly names = new Map<string, string>();
  /** The rare misses with an origin (a package name), by index. */
  private readonly origins = new Map<number, string>();

  static of(misses: Iterable<UnresolvedRef>): MissList {
    const list = new MissList();
    for (const u of misses) list.push(u);
    return list;
  }

  get length(): number {
    return this.fromIds.length;
  }

  push(u: UnresolvedRef): void {
    const k = this.fromIds.length;
    if (k === this.lines.length) {
      this.lines = grown(this.lines);
      this.codes = grown(this.codes);
    }
    this.fromIds.push(u.fromId);
    let name = this.names.get(u.targetName);
    if (name === undefined) this.names.set(u.targetName, (name = u.targetName));
    this.targetNames.push(name);
    this.lines[k] = u.line;
    this.codes[k] = this.word(u.type) | (this.word(u.reason) << 8) | (this.word(u.resolver) << 16);
    if (u.origin !== undefined) this.origins.set(k, u.origin);
  }

  /** Miss `k` as an object (a new one each time), its fields as the resolver made them. */
  at(k: number): UnresolvedRef | undefined {
    if (k < 0 || k >= this.fromIds.length) return undefined;
    const c = this.codes[k];
    const u: UnresolvedRef = {
      fromId: this.fromIds[k], type: this.words[c & 0xff] as UnresolvedRef['type'], targetName: this.targetNames[k], line: this.lines[k],
      reason: this.words[(c >> 8) & 0xff] as UnresolvedRef['reason'], resolver: this.words[(c >> 16) & 0xff] as UnresolvedRef['resolver'],
    };
    const origin = this.origins.get(k);
    if (origin !== undefined) u.origin = origin;
    return u;
  }

  /** Miss `k`'s source scope id and reason, without making the object. */
  fromIdAt(k: number): string {
    return this.fromIds[k];
  }

  reasonAt(k: number): UnresolvedRef['reason'] {
    return this.words[(this.codes[k] >> 8) & 0xff] as UnresolvedRef['reason'];
  }

  *[Symbol.iterator](): IterableIterator<UnresolvedRef> {
    for (let k = 0; k < this.fromIds.length; k++) yield this.at(k)!;
  }

  /** The misses `keep` accepts, as a list of their own. */
  select(keep: (fromId: string) => boolean): MissList {
    const out = new MissList();
    for (let k = 0; k < this.fromIds.length; k++) if (keep(this.fromIds[k])) out.push(this.at(k)!);
    return out;
  }

  filter(test: (u: UnresolvedRef) => boolean): UnresolvedRef[] {
    return [...this].filter(test);
  }

  map<T>(f: (u: UnresolvedRef) => T): T[] {
    return [...this].map(f);
  }

  find(test: (u: UnresolvedRef) => boolean): UnresolvedRef | undefined {
    for (const u of this) if (test(u)) return u;
    return undefined;
  }

  some(test: (u: UnresolvedRef) => boolean): boolean {
    return this.find(test) !== undefined;
  }

  private word(w: string): number {
    let k = this.wordIndex.get(w);
    if (k === undefined) {
      k = this.words.push(w) - 1;
      if (k > 0xff) throw new Error('MissList: more than 256 distinct types, reasons and resolvers');
      this.wordIndex.set(w, k);
    }
    return k;
  }
}

function grown(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
