/**
 * A name whose static type is visible at parse time, so the resolver can follow `this.repo.save()`,
 * `_repo.Save()` or `repo.save()` to `Repo.save`:
 * - `member: true`: a field/property of the class `scopeId` (TS field or constructor parameter property,
 *   C# field/property, Python `self.x = Foo()` / annotated class attribute);
 * - `member: false`: a parameter or local of the function `scopeId` (typed parameter,
 *   `const x = new Foo()`, `var x = new Foo()`, `x = Foo()`).
 */
export interface TypedBinding {
  scopeId: string;
  name: string;
  /** Type name as written, generics stripped (`Repo`, `ns.Repo`). */
  typeName: string;
  member: boolean;
}

const MEMBER = ['0', '1', '-'] as const;

/**
 * A file's typed bindings as kept for resolution: three string columns and the member flags as one
 * string ('0' false, '1' true, '-' unset), instead of an object per binding. Python marks every
 * parameter and assignment (`param x`, `value x`), ~3.5 bindings a scope: as objects they were
 * 18 MiB per 100k scopes of what a run holds from the parse to the edge write. Reads as an iterable
 * of bindings (a fresh object per binding read: the resolvers read each file's once or twice).
 */
export class PackedBindings implements Iterable<TypedBinding> {
  private constructor(
    readonly scopeIds: readonly string[],
    readonly names: readonly string[],
    readonly types: readonly string[],
    private readonly members: string,
  ) {}

  /** `scopeId`: the string to keep for a binding's scope id (the scope's own, not a copy). */
  static of(bindings: Iterable<TypedBinding>, scopeId: (id: string) => string = (id) => id, name: (x: string) => string = (x) => x): PackedBindings {
    const scopeIds: string[] = [];
    const names: string[] = [];
    const types: string[] = [];
    let members = '';
    for (const b of bindings) {
      scopeIds.push(scopeId(b.scopeId));
      names.push(name(b.name));
      types.push(name(b.typeName));
      members += b.member === undefined ? MEMBER[2] : b.member ? MEMBER[1] : MEMBER[0];
    }
    return new PackedBindings(scopeIds, names, types, members);
  }

  get length(): number {
    return this.names.length;
  }

  /** Binding `k`'s member flag (undefined: not recorded, as in views written before the flag). */
  member(k: number): boolean | undefined {
    const c = this.members[k];
    return c === MEMBER[2] ? undefined : c === MEMBER[1];
  }

  at(k: number): TypedBinding {
    const member = this.member(k);
    return (member === undefined
      ? { scopeId: this.scopeIds[k], name: this.names[k], typeName: this.types[k] }
      : { scopeId: this.scopeIds[k], name: this.names[k], typeName: this.types[k], member }) as TypedBinding;
  }

  *[Symbol.iterator](): IterableIterator<TypedBinding> {
    for (let k = 0; k < this.names.length; k++) yield this.at(k);
  }

  some(test: (b: TypedBinding) => boolean): boolean {
    for (let k = 0; k < this.names.length; k++) if (test(this.at(k))) return true;
    return false;
  }

  filter(test: (b: TypedBinding) => boolean): TypedBinding[] {
    const out: TypedBinding[] = [];
    for (let k = 0; k < this.names.length; k++) {
      const b = this.at(k);
      if (test(b)) out.push(b);
    }
    return out;
  }

  map<T>(f: (b: TypedBinding) => T): T[] {
    const out: T[] = [];
    for (let k = 0; k < this.names.length; k++) out.push(f(this.at(k)));
    return out;
  }
}

/** A file's bindings as parsed (an array) or as kept for resolution (packed). */
export type FileBindings = TypedBinding[] | PackedBindings;
