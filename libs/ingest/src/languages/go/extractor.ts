import { cleanBlockComment, cleanLineComments } from '../../parse/doc-comments';
import { endLine, fieldChild, fieldTable, LanguageExtractor, nodeText, precedingComments, startLine, SyntaxNode, Tree } from '../../parse/extractor';
import type { FileBuilder, ScopeDraft } from '../../parse/file-builder';
import type { Language, ScopeKind } from '../../parse/types';
import { defaultPackageName, GO_PREDECLARED_TYPES } from './builtins';

/** Every field this walker reads, resolved to ids once per grammar (see `fieldTable`). */
const FIELDS = fieldTable([
  'alias', 'arguments', 'body', 'element', 'field', 'function', 'index', 'left', 'name', 'operand', 'package', 'parameters', 'path',
  'receiver', 'result', 'right', 'type', 'type_arguments', 'type_parameters', 'value',
] as const);
type Fields = ReturnType<typeof FIELDS>;

/**
 * Binding names with a meaning of their own (no Go identifier can take them), read by ./resolver.ts:
 * a function's first result type, a type alias's target (or `func` for a function type), and the
 * file's package clause.
 */
export const GO_RESULT = '()';
export const GO_UNDERLYING = '=';
export const GO_PACKAGE = 'package';
/** Binding type of a local whose type is not known at parse time (it is still a local: calling it is dynamic). */
export const GO_UNTYPED = '?';
/** Prefix of a binding typed as another value's declared type (`m := mx` -> `&mx`). */
export const GO_VALUE = '&';
/** Binding type of a local or field holding a function value. */
export const GO_FUNC = 'func';

const MAX_CHAIN = 8;
/** Go exports a name whose first character is an upper-case letter (Unicode class Lu). */
const UPPER = /^\p{Lu}/u;

/**
 * Go.
 *
 * Scopes: package-level functions, methods (`Server.Serve`, pointer or value receiver alike, `owner`
 * the receiver's type, parent the file), structs, interfaces (their method specs as methods
 * `Shape.Area`), other type definitions and aliases (`type_alias`), package-level consts and vars
 * (`variable`). No package scope: a package is its directory. godoc comments (`//` lines right above)
 * are the doc; exported = capitalised.
 *
 * References: calls as written (`f`, `pkg.F`, `x.M`, `s.repo.Save`, and through a call result
 * `a.B().C`), generic instantiations, embedded structs/interfaces (EXTENDS), type names in
 * signatures, fields, composite literals, conversions and assertions (REFERENCES). Imports: one
 * RawImport per import spec (local = the alias as written, '' when none). Typed bindings: receivers,
 * parameters, named results, struct fields, `var x T`, `x := &T{}` / `T{}` / `f()` (typed as the
 * call's result `f()`), assertions `x.(T)`, function values (`func`), and untyped locals (`?`).
 */
export class GoExtractor implements LanguageExtractor {
  readonly languages: readonly Language[] = ['go'];
  readonly usesTreeSitter = true;

  extract(builder: FileBuilder, tree: Tree | null): void {
    if (!tree) return;
    new GoWalker(builder, FIELDS(tree.language)).run(tree.rootNode);
  }
}

class GoWalker {
  private readonly content: string;
  /** Type parameters' constraints that name an interface, per declaring scope. */
  private readonly constraints = new Map<ScopeDraft, Map<string, string>>();
  /** Local names of the file's imports: `pkg.Name` used as a value is a reference to Name. */
  private readonly packages = new Set<string>();
  /** Function literals seen so far per enclosing scope (their names count up). */
  private readonly closures = new Map<ScopeDraft, number>();

  constructor(private readonly b: FileBuilder, private readonly f: Fields) {
    this.content = b.content;
  }

  private text(n: SyntaxNode): string {
    return nodeText(this.content, n);
  }

  run(root: SyntaxNode): void {
    const file = this.b.file;
    for (const c of root.namedChildren) {
      switch (c.type) {
        case 'package_clause': {
          const id = c.namedChild(0);
          if (id) this.b.binding(file, GO_PACKAGE, this.text(id), true);
          break;
        }
        case 'import_declaration':
          this.imports(c);
          break;
        case 'function_declaration':
        case 'method_declaration':
          this.func(c);
          break;
        case 'type_declaration':
          this.typeDecl(c);
          break;
        case 'const_declaration':
        case 'var_declaration':
          this.packageVars(c);
          break;
        case 'comment':
          break;
        default:
          this.walk(c, file);
      }
    }
  }

  // ---------------------------------------------------------------- declarations

  private imports(node: SyntaxNode): void {
    const specs: SyntaxNode[] = [];
    for (const c of node.namedChildren) {
      if (c.type === 'import_spec') specs.push(c);
      else if (c.type === 'import_spec_list') for (const s of c.namedChildren) if (s.type === 'import_spec') specs.push(s);
    }
    for (const s of specs) {
      const path = fieldChild(s, this.f.path);
      if (!path) continue;
      const alias = fieldChild(s, this.f.name);
      const spec = this.text(path).replace(/^["`]|["`]$/g, '');
      const local = alias ? this.text(alias) : defaultPackageName(spec);
      if (local !== '_' && local !== '.') this.packages.add(local);
      this.b.imports.push({
        fromPath: this.b.path,
        specifier: spec,
        names: [{ imported: '*', local: alias ? this.text(alias) : '' }],
        isNamespace: true,
        line: startLine(s),
      });
    }
  }

  private func(node: SyntaxNode): void {
    const nameNode = fieldChild(node, this.f.name);
    const name = nameNode ? this.text(nameNode) : 'func';
    const receiver = fieldChild(node, this.f.receiver);
    const body = fieldChild(node, this.f.body);
    let owner: string | undefined;
    let recvName: string | null = null;
    let recvType: SyntaxNode | null = null;
    if (receiver) {
      const p = receiver.namedChildren.find((c) => c.type === 'parameter_declaration');
      recvType = p ? fieldChild(p, this.f.type) : null;
      const rn = p ? fieldChild(p, this.f.name) : null;
      recvName = rn ? this.text(rn) : null;
      owner = recvType ? this.typeName(recvType) ?? undefined : undefined;
    }
    const s = this.b.addScope({
      name,
      qualifiedName: owner ? `${owner}.${name}` : name,
      kind: receiver ? 'method' : 'function',
      parent: this.b.file,
      ...range(node),
      signature: this.content.slice(node.startIndex, body ? body.startIndex : node.endIndex),
      docComment: this.doc(node),
      exported: isExported(name),
      ...(owner ? { owner } : {}),
    });
    if (recvType) {
      // `func (b *Box[T]) Get() T`: the receiver's type arguments are the method's type parameters
      const gen = recvType.type === 'pointer_type' ? recvType.namedChild(0) : recvType;
      const args = gen?.type === 'generic_type' ? fieldChild(gen, this.f.type_arguments) : null;
      if (args) for (const a of args.namedChildren) (s.typeParams ??= new Set()).add(this.text(a));
      if (recvName && owner) this.b.binding(s, recvName, owner, false);
    }
    this.typeParams(node, s);
    const params = fieldChild(node, this.f.parameters);
    if (params) this.params(params, s);
    const result = fieldChild(node, this.f.result);
    if (result) this.result(result, s, s);
    if (body) this.walk(body, s);
  }

  private typeParams(node: SyntaxNode, s: ScopeDraft): void {
    const tps = fieldChild(node, this.f.type_parameters);
    if (!tps) return;
    for (const d of tps.namedChildren) {
      const c = fieldChild(d, this.f.type);
      // `[T Shape]`: a T value has Shape's methods; a union or `~int` constraint names none
      const only = c?.type === 'type_constraint' && c.namedChildCount === 1 ? c.namedChild(0) : c;
      const bound = only && only.type !== 'type_constraint' ? this.typeName(only) : null;
      for (const n of d.childrenForFieldId(this.f.name).filter(isName)) {
        const name = this.text(n);
        (s.typeParams ??= new Set()).add(name);
        if (bound && !GO_PREDECLARED_TYPES.has(bound)) {
          let m = this.constraints.get(s);
          if (!m) this.constraints.set(s, (m = new Map()));
          m.set(name, bound);
        }
      }
      if (c) this.typeRefs(c, s);
    }
  }

  /** Parameters: REFERENCES to their types, bindings for their names. */
  private params(list: SyntaxNode, s: ScopeDraft): void {
    for (const p of list.namedChildren) {
      if (p.type !== 'parameter_declaration' && p.type !== 'variadic_parameter_declaration') continue;
      const type = fieldChild(p, this.f.type);
      if (!type) continue;
      this.typeRefs(type, s);
      const tn = p.type === 'variadic_parameter_declaration' ? GO_UNTYPED : this.bindingType(type, s);
      for (const n of p.childrenForFieldId(this.f.name).filter(isName)) this.b.binding(s, this.text(n), tn, false);
    }
  }

  /** Result types: REFERENCES, named results as locals, and the first result's type as the `()` binding. */
  private result(result: SyntaxNode, s: ScopeDraft, bindTo: ScopeDraft): void {
    let first: SyntaxNode | null = result;
    if (result.type === 'parameter_list') {
      this.params(result, s);
      const p = result.namedChildren.find((c) => c.type === 'parameter_declaration');
      first = p ? fieldChild(p, this.f.type) : null;
    } else this.typeRefs(result, s);
    const tn = first ? this.bindingType(first, s) : GO_UNTYPED;
    if (tn !== GO_UNTYPED) this.b.binding(bindTo, GO_RESULT, tn, true);
  }

  private typeDecl(node: SyntaxNode): void {
    const specs = node.namedChildren.filter((c) => c.type === 'type_spec' || c.type === 'type_alias');
    for (const spec of specs) {
      // A lone spec spans its `type` keyword and takes the comment above it; grouped ones their own.
      const outer = specs.length === 1 ? node : spec;
      this.typeSpec(spec, outer);
    }
  }

  private typeSpec(spec: SyntaxNode, outer: SyntaxNode): void {
    const nameNode = fieldChild(spec, this.f.name);
    const name = nameNode ? this.text(nameNode) : 'type';
    const type = fieldChild(spec, this.f.type);
    const kind: ScopeKind = type?.type === 'struct_type' ? 'struct' : type?.type === 'interface_type' ? 'interface' : 'type_alias';
    const sigEnd = kind === 'type_alias' || !type ? spec.endIndex : type.startIndex + (kind === 'struct' ? 6 : 9);
    const s = this.b.addScope({
      name, kind, parent: this.b.file,
      ...range(outer),
      signature: `type ${this.content.slice(spec.startIndex, sigEnd)}`,
      docComment: this.doc(outer),
      exported: isExported(name),
    });
    this.typeParams(spec, s);
    if (!type) return;
    if (kind === 'struct') this.structFields(type, s);
    else if (kind === 'interface') this.interfaceBody(type, s);
    else {
      this.typeRefs(type, s);
      // `type A = B`: A is B; `type HandlerFunc func(...)`: calling one is calling a function value;
      // `type nodes []*node`: ranging over or indexing one gives a node
      const under = this.bindingType(type, s);
      if (spec.type === 'type_alias' ? under !== GO_UNTYPED : under === GO_FUNC || under.startsWith('[]')) {
        this.b.binding(s, GO_UNDERLYING, under, true);
      }
    }
  }

  private structFields(struct: SyntaxNode, s: ScopeDraft): void {
    const list = struct.namedChildren.find((c) => c.type === 'field_declaration_list');
    if (!list) return;
    for (const fd of list.namedChildren) {
      if (fd.type !== 'field_declaration') continue;
      const type = fieldChild(fd, this.f.type);
      if (!type) continue;
      const names = fd.childrenForFieldId(this.f.name).filter(isName);
      if (!names.length) {
        // embedded: its fields and methods are promoted
        const tn = this.typeName(type);
        if (tn) {
          this.b.ref(s, 'EXTENDS', tn, startLine(fd));
          this.typeArgRefs(type, s);
          const simple = tn.slice(tn.lastIndexOf('.') + 1);
          this.b.binding(s, simple, tn, true);
        }
        continue;
      }
      this.typeRefs(type, s);
      const tn = this.bindingType(type, s);
      for (const n of names) this.b.binding(s, this.text(n), tn, true);
    }
  }

  private interfaceBody(iface: SyntaxNode, s: ScopeDraft): void {
    for (const c of iface.namedChildren) {
      if (c.type === 'method_elem') {
        const nameNode = fieldChild(c, this.f.name);
        const name = nameNode ? this.text(nameNode) : 'method';
        const m = this.b.addScope({
          name, kind: 'method', parent: s,
          ...range(c),
          signature: this.text(c),
          docComment: this.doc(c),
          exported: isExported(name),
        });
        const params = fieldChild(c, this.f.parameters);
        if (params) this.params(params, m);
        const result = fieldChild(c, this.f.result);
        if (result) this.result(result, m, m);
      } else if (c.type === 'type_elem' || c.type === 'constraint_elem') {
        // `fmt.Stringer` embeds an interface; `~int | ~string` is a constraint, not heritage
        const only = c.namedChildCount === 1 ? c.namedChild(0) : null;
        const tn = only && (only.type === 'type_identifier' || only.type === 'qualified_type' || only.type === 'generic_type') ? this.typeName(only) : null;
        if (tn && !GO_PREDECLARED_TYPES.has(tn)) {
          this.b.ref(s, 'EXTENDS', tn, startLine(c));
          if (only) this.typeArgRefs(only, s);
        } else this.typeRefs(c, s);
      } else if (c.type !== 'comment') this.typeRefs(c, s);
    }
  }

  private packageVars(decl: SyntaxNode): void {
    const isConst = decl.type === 'const_declaration';
    const specs: SyntaxNode[] = [];
    for (const c of decl.namedChildren) {
      if (c.type === 'const_spec' || c.type === 'var_spec') specs.push(c);
      else if (c.type === 'var_spec_list') for (const s of c.namedChildren) if (s.type === 'var_spec') specs.push(s);
    }
    for (const spec of specs) {
      const names = spec.childrenForFieldId(this.f.name).filter(isName).filter((n) => this.text(n) !== '_');
      const type = fieldChild(spec, this.f.type);
      const value = fieldChild(spec, this.f.value);
      const values = value ? value.namedChildren : [];
      const outer = specs.length === 1 && names.length === 1 ? decl : spec;
      const scopes: ScopeDraft[] = [];
      names.forEach((n) => {
        const name = this.text(n);
        const s = this.b.addScope({
          name, kind: 'variable', parent: this.b.file,
          ...range(names.length === 1 ? outer : n),
          signature: `${isConst ? 'const' : 'var'} ${this.text(spec)}`,
          docComment: this.doc(outer),
          exported: isExported(name),
        });
        scopes.push(s);
      });
      const owner = scopes.length === 1 ? scopes[0] : this.b.file;
      if (type) this.typeRefs(type, owner);
      names.forEach((n, i) => {
        const tn = type ? this.bindingType(type) : values.length === names.length ? this.exprType(values[i]) : GO_UNTYPED;
        this.b.binding(this.b.file, this.text(n), tn, false);
      });
      if (value) {
        if (scopes.length === values.length) values.forEach((v, i) => this.walk(v, scopes[i]));
        else this.walk(value, owner);
      }
    }
  }

  // ---------------------------------------------------------------- bodies

  private walk(node: SyntaxNode, scope: ScopeDraft): void {
    switch (node.type) {
      case 'comment':
      case 'identifier':
      case 'field_identifier':
      case 'package_identifier':
      case 'int_literal':
      case 'float_literal':
      case 'imaginary_literal':
      case 'rune_literal':
      case 'interpreted_string_literal':
      case 'raw_string_literal':
      case 'true':
      case 'false':
      case 'nil':
      case 'iota':
        return;
      case 'type_identifier':
      case 'qualified_type':
      case 'generic_type':
      case 'pointer_type':
      case 'slice_type':
      case 'array_type':
      case 'map_type':
      case 'channel_type':
      case 'function_type':
      case 'struct_type':
      case 'interface_type':
        this.typeRefs(node, scope);
        return;
      case 'call_expression':
        this.call(node, scope);
        return;
      case 'selector_expression': {
        // `http.StatusOK`, `store.ErrNotFound`, `api.Handle` passed as a value: what the file uses of a package
        const operand = fieldChild(node, this.f.operand);
        const field = fieldChild(node, this.f.field);
        if (operand?.type === 'identifier' && field && this.packages.has(this.text(operand))) {
          this.b.ref(scope, 'REFERENCES', `${this.text(operand)}.${this.text(field)}`, startLine(node));
        } else if (operand) this.walk(operand, scope);
        return;
      }
      case 'type_conversion_expression': {
        // `Map[int](xs)`: a generic function's instantiation parses as a conversion
        const type = fieldChild(node, this.f.type);
        const callee = type?.type === 'generic_type' ? fieldChild(type, this.f.type) : null;
        if (callee?.type === 'type_identifier' && type) {
          this.b.ref(scope, 'CALLS', this.text(callee), startLine(node));
          this.typeArgRefs(type, scope);
        } else if (type) this.typeRefs(type, scope);
        const operand = fieldChild(node, this.f.operand);
        if (operand) this.walk(operand, scope);
        return;
      }
      case 'composite_literal': {
        const type = fieldChild(node, this.f.type);
        if (type) this.typeRefs(type, scope);
        const body = fieldChild(node, this.f.body);
        if (body) this.literalBody(body, scope);
        return;
      }
      case 'func_literal':
        this.closure(node, scope);
        return;
      case 'short_var_declaration':
        this.shortVar(node, scope);
        return;
      case 'var_declaration':
      case 'const_declaration':
        for (const c of node.namedChildren) {
          if (c.type === 'var_spec' || c.type === 'const_spec') this.localVar(c, scope);
          else if (c.type === 'var_spec_list') for (const s of c.namedChildren) if (s.type === 'var_spec') this.localVar(s, scope);
        }
        return;
      case 'range_clause': {
        // `for i, v := range xs`: v is an element of xs (written `xs[]`); the key or index is not followed
        const left = fieldChild(node, this.f.left);
        const right = fieldChild(node, this.f.right);
        const of = right ? this.chain(right, 0) : null;
        const vars = left ? left.namedChildren.filter((n) => n.type === 'identifier') : [];
        vars.forEach((n, i) => {
          if (this.text(n) !== '_') this.b.binding(scope, this.text(n), i === 1 && of ? `${of}[]` : GO_UNTYPED, false);
        });
        if (right) this.walk(right, scope);
        return;
      }
      case 'type_switch_statement': {
        const alias = fieldChild(node, this.f.alias);
        if (alias) for (const n of alias.namedChildren) this.b.binding(scope, this.text(n), GO_UNTYPED, false);
        for (const c of node.namedChildren) if (c.id !== alias?.id) this.walk(c, scope);
        return;
      }
      case 'type_declaration':
        // a local type: its members are not scopes, its names are still type uses
        for (const spec of node.namedChildren) {
          const t = fieldChild(spec, this.f.type);
          if (t) this.typeRefs(t, scope);
        }
        return;
      default:
        for (const c of node.namedChildren) this.walk(c, scope);
    }
  }

  /**
   * A function literal is a scope of its own, named as Go's runtime names it in stack traces
   * (`Handle.func1`, nested `Handle.func1.func1`): its parameters shadow the enclosing function's
   * locals (`r := NewRouter(); r.Get("/", func(w http.ResponseWriter, r *http.Request) {...})`).
   */
  private closure(node: SyntaxNode, parent: ScopeDraft): void {
    const n = (this.closures.get(parent) ?? 0) + 1;
    this.closures.set(parent, n);
    const body = fieldChild(node, this.f.body);
    const s = this.b.addScope({
      name: `func${n}`, kind: 'function', parent,
      ...range(node),
      signature: this.content.slice(node.startIndex, body ? body.startIndex : node.endIndex),
      docComment: null,
      exported: false,
    });
    const params = fieldChild(node, this.f.parameters);
    if (params) this.params(params, s);
    const result = fieldChild(node, this.f.result);
    if (result) this.result(result, s, s);
    if (body) this.walk(body, s);
  }

  /** `{Key: v}` keys are field names (or values for maps): only values and nested literals are walked. */
  private literalBody(body: SyntaxNode, scope: ScopeDraft): void {
    for (const e of body.namedChildren) {
      if (e.type === 'keyed_element') {
        const v = fieldChild(e, this.f.value) ?? e.namedChild(1);
        const k = fieldChild(e, this.f.left) ?? e.namedChild(0);
        if (k && k.namedChild(0)?.type !== 'identifier') this.walk(k, scope);
        if (v) this.walk(v, scope);
      } else this.walk(e, scope);
    }
  }

  private call(node: SyntaxNode, scope: ScopeDraft): void {
    const fn = fieldChild(node, this.f.function);
    const args = fieldChild(node, this.f.arguments);
    const name = fn ? this.chain(fn, 0) : null;
    if (name) this.b.ref(scope, 'CALLS', name, startLine(node));
    if (fn) {
      if (fn.type === 'selector_expression') {
        const operand = fieldChild(fn, this.f.operand);
        if (operand) this.walk(operand, scope);
      } else if (!name) this.walk(fn, scope);
      const targs = fieldChild(node, this.f.type_arguments);
      if (targs) this.typeRefs(targs, scope);
    }
    if (args) this.walk(args, scope);
  }

  /** `a.b.C` as written; a call in the chain keeps its `()`: `a.B().C`. Null when computed otherwise. */
  private chain(node: SyntaxNode, depth: number): string | null {
    if (depth > MAX_CHAIN) return null;
    switch (node.type) {
      case 'identifier':
        return this.text(node);
      case 'selector_expression': {
        const operand = fieldChild(node, this.f.operand);
        const field = fieldChild(node, this.f.field);
        if (!operand || !field) return null;
        const o = this.chain(operand, depth + 1);
        return o ? `${o}.${this.text(field)}` : null;
      }
      case 'call_expression': {
        const fn = fieldChild(node, this.f.function);
        const o = fn ? this.chain(fn, depth + 1) : null;
        return o ? `${o}()` : null;
      }
      case 'parenthesized_expression': {
        const inner = node.namedChild(0);
        return inner ? this.chain(inner, depth + 1) : null;
      }
      case 'index_expression': {
        // `c.Commands[i].Run()`: an element, written `c.Commands[].Run`
        const operand = fieldChild(node, this.f.operand);
        const o = operand ? this.chain(operand, depth + 1) : null;
        return o && !o.endsWith('[]') ? `${o}[]` : null;
      }
      default:
        return null;
    }
  }

  private shortVar(node: SyntaxNode, scope: ScopeDraft): void {
    const left = fieldChild(node, this.f.left);
    const right = fieldChild(node, this.f.right);
    const names = left ? left.namedChildren.filter((n) => n.type === 'identifier') : [];
    const values = right ? right.namedChildren : [];
    names.forEach((n, i) => {
      const name = this.text(n);
      if (name === '_') return;
      let tn = GO_UNTYPED;
      if (values.length === names.length) tn = this.exprType(values[i]);
      else if (i === 0 && values.length === 1) tn = this.exprType(values[0]); // `v, err := f()`: the first result
      this.b.binding(scope, name, tn, false);
    });
    if (right) this.walk(right, scope);
  }

  private localVar(spec: SyntaxNode, scope: ScopeDraft): void {
    const type = fieldChild(spec, this.f.type);
    const value = fieldChild(spec, this.f.value);
    const values = value ? value.namedChildren : [];
    const names = spec.childrenForFieldId(this.f.name).filter(isName);
    if (type) this.typeRefs(type, scope);
    names.forEach((n, i) => {
      const tn = type ? this.bindingType(type) : values.length === names.length ? this.exprType(values[i]) : GO_UNTYPED;
      this.b.binding(scope, this.text(n), tn, false);
    });
    if (value) this.walk(value, scope);
  }

  /** The static type of an initialiser where it is visible at parse time. */
  private exprType(v: SyntaxNode): string {
    switch (v.type) {
      case 'composite_literal': {
        const t = fieldChild(v, this.f.type);
        return (t && this.typeName(t)) ?? GO_UNTYPED;
      }
      case 'unary_expression': {
        const o = fieldChild(v, this.f.operand);
        return o && o.type === 'composite_literal' && this.text(v).startsWith('&') ? this.exprType(o) : GO_UNTYPED;
      }
      case 'func_literal':
        return GO_FUNC;
      case 'type_assertion_expression': {
        const t = fieldChild(v, this.f.type);
        return (t && this.typeName(t)) ?? GO_UNTYPED;
      }
      case 'call_expression': {
        const fn = fieldChild(v, this.f.function);
        if (fn?.type === 'identifier' && this.text(fn) === 'new') {
          const arg = fieldChild(v, this.f.arguments)?.namedChild(0);
          return (arg && this.typeName(arg)) ?? GO_UNTYPED;
        }
        const name = fn ? this.chain(fn, 0) : null;
        return name ? `${name}()` : GO_UNTYPED;
      }
      case 'type_conversion_expression': {
        const t = fieldChild(v, this.f.type);
        const callee = t?.type === 'generic_type' ? fieldChild(t, this.f.type) : t;
        return callee?.type === 'type_identifier' ? `${this.text(callee)}()` : GO_UNTYPED;
      }
      case 'parenthesized_expression': {
        const inner = v.namedChild(0);
        return inner ? this.exprType(inner) : GO_UNTYPED;
      }
      case 'index_expression':
        return this.chain(v, 0) ?? GO_UNTYPED;
      case 'identifier':
      case 'selector_expression': {
        // `m := mx`, `h := s.handler`: the value's own declared type, looked up by the resolver
        const c = this.chain(v, 0);
        return c && !c.includes('(') && !c.includes('[') ? `${GO_VALUE}${c}` : GO_UNTYPED;
      }
      default:
        return GO_UNTYPED;
    }
  }

  // ---------------------------------------------------------------- types

  /** A named type (`T`, `*T`, `pkg.T`, `T[int]`) -> `T` / `pkg.T`; null for composite types. */
  private typeName(node: SyntaxNode): string | null {
    switch (node.type) {
      case 'type_identifier':
      case 'identifier':
        return this.text(node);
      case 'qualified_type': {
        const pkg = fieldChild(node, this.f.package);
        const name = fieldChild(node, this.f.name);
        return pkg && name ? `${this.text(pkg)}.${this.text(name)}` : null;
      }
      case 'pointer_type':
      case 'parenthesized_type': {
        const inner = node.namedChild(0);
        return inner ? this.typeName(inner) : null;
      }
      case 'generic_type': {
        const t = fieldChild(node, this.f.type);
        return t ? this.typeName(t) : null;
      }
      case 'type_elem':
        return node.namedChildCount === 1 ? this.typeName(node.namedChild(0)!) : null;
      default:
        return null;
    }
  }

  /**
   * A binding's type: a named type, `func` for a function type, `[]T` for a slice, array or map of a
   * named type (what ranging over or indexing it gives), `?` otherwise.
   */
  private bindingType(type: SyntaxNode, scope?: ScopeDraft): string {
    switch (type.type) {
      case 'function_type':
        return GO_FUNC;
      case 'slice_type':
      case 'array_type':
      case 'map_type': {
        const elem = fieldChild(type, type.type === 'map_type' ? this.f.value : this.f.element);
        const tn = elem ? this.bindingType(elem, scope) : GO_UNTYPED;
        return tn === GO_UNTYPED || tn.startsWith('[]') ? GO_UNTYPED : `[]${tn}`;
      }
      default: {
        const tn = this.typeName(type);
        if (!tn) return GO_UNTYPED;
        if (scope && this.b.isTypeParam(scope, tn)) {
          for (let p: ScopeDraft | null = scope; p; p = p.parent) {
            const bound = this.constraints.get(p)?.get(tn);
            if (bound) return bound;
          }
          return GO_UNTYPED;
        }
        return tn;
      }
    }
  }

  /** REFERENCES for every named type inside a type expression (predeclared and type parameters left out). */
  private typeRefs(node: SyntaxNode, scope: ScopeDraft): void {
    switch (node.type) {
      case 'type_identifier': {
        const n = this.text(node);
        if (!GO_PREDECLARED_TYPES.has(n) && !this.b.isTypeParam(scope, n)) this.b.ref(scope, 'REFERENCES', n, startLine(node));
        return;
      }
      case 'qualified_type': {
        const n = this.typeName(node);
        if (n) this.b.ref(scope, 'REFERENCES', n, startLine(node));
        return;
      }
      case 'comment':
        return;
      case 'struct_type':
      case 'interface_type':
      case 'function_type':
      case 'field_declaration_list':
      case 'field_declaration':
      case 'parameter_list':
      case 'parameter_declaration':
      case 'method_elem':
        for (const c of node.namedChildren) if (c.type !== 'field_identifier' && c.type !== 'identifier') this.typeRefs(c, scope);
        return;
      default:
        for (const c of node.namedChildren) this.typeRefs(c, scope);
    }
  }

  private typeArgRefs(node: SyntaxNode, scope: ScopeDraft): void {
    const g = node.type === 'pointer_type' ? node.namedChild(0) : node;
    const args = g?.type === 'generic_type' ? fieldChild(g, this.f.type_arguments) : null;
    if (args) this.typeRefs(args, scope);
  }

  // ---------------------------------------------------------------- docs

  /** godoc: the `//` lines (or one block comment) right above, compiler directives left out. */
  private doc(node: SyntaxNode): string | null {
    const comments = precedingComments(node, true);
    if (!comments.length) return null;
    const last = comments[comments.length - 1];
    if (last.endPosition.row < node.startPosition.row - 1) return null;
    const lastText = this.text(last);
    if (lastText.startsWith('/*')) return cleanBlockComment(lastText);
    const lines: string[] = [];
    for (let i = comments.length - 1; i >= 0; i--) {
      const t = this.text(comments[i]);
      if (!t.startsWith('//')) break;
      lines.unshift(t);
    }
    const text = lines.filter((l) => !/^\/\/(?:go:|line |nolint)/.test(l));
    return text.length ? cleanLineComments(text, '//') : null;
  }
}

function isExported(name: string): boolean {
  return UPPER.test(name);
}

/** `a, b int`: the name field also holds the commas. */
function isName(n: SyntaxNode): boolean {
  return n.isNamed;
}

function range(node: SyntaxNode) {
  return { startIndex: node.startIndex, endIndex: node.endIndex, startLine: startLine(node), endLine: endLine(node) };
}
