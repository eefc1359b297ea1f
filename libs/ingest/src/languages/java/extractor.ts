import { cleanBlockComment } from '../../parse/doc-comments';
import { endLine, fieldChild, fieldTable, LanguageExtractor, nodeText, startLine, SyntaxNode, Tree } from '../../parse/extractor';
import type { FileBuilder, ScopeDraft } from '../../parse/file-builder';
import type { Language, RawImport, ScopeKind } from '../../parse/types';

/** Every field this walker reads, resolved to ids once per grammar (see `fieldTable`). */
const FIELDS = fieldTable([
  'arguments', 'body', 'constructor', 'declarator', 'dimensions', 'element', 'field', 'interfaces', 'left', 'name',
  'object', 'parameters', 'right', 'superclass', 'type', 'type_parameters', 'value',
] as const);
type Fields = ReturnType<typeof FIELDS>;

const TYPE_DECLS: Record<string, ScopeKind> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  annotation_type_declaration: 'interface',
  enum_declaration: 'enum',
  record_declaration: 'record',
};

/** Leaves that never hold a reference. */
const LEAVES = new Set([
  'line_comment', 'block_comment', 'identifier', 'this', 'super', 'string_literal', 'decimal_integer_literal',
  'hex_integer_literal', 'octal_integer_literal', 'binary_integer_literal', 'decimal_floating_point_literal',
  'hex_floating_point_literal', 'true', 'false', 'null_literal', 'character_literal', 'text_block', 'integral_type',
  'floating_point_type', 'boolean_type', 'void_type', 'modifiers',
]);

const MAX_CHAIN = 8;

/**
 * Overloads: a method's or constructor's parameter types as written travel as a typed binding of
 * that scope named `(params)`, and each scope's argument types per call target as `(args)<target>`
 * (`(String,int);(?)` for two call sites). Neither is a Java identifier, so no lookup of a variable
 * meets them; bindings are what a partial re-index keeps of a parse, so the resolver may read them.
 */
export const OVERLOAD_PARAMS = '(params)';
/** A method's declared return type (generics stripped, a type parameter as its bound), the same way. */
export const RETURNS = '(returns)';
const OBJECT_RESULTS: Record<string, string> = { getClass: 'Class', toString: 'String', hashCode: 'int', equals: 'boolean' };
export const OVERLOAD_ARGS = '(args)';

/**
 * Java.
 *
 * Scopes: the `package` (a `namespace` scope spanning the file, so the resolver knows each file's
 * package), classes, interfaces and annotation types (`interface`), enums, records, nested and local
 * types, methods (also of anonymous classes, under the enclosing method), constructors (compact
 * ones too), annotation elements (`method`), and public/protected fields (`property`). Qualified names
 * leave the package out: `Outer.Inner.method`. `/** *\/` Javadoc is the doc comment; `exported` is
 * public or protected (interface members unless private).
 *
 * References: method invocations (CALLS `m`, `x.m`, `this.x.m`, `super.m`, `Type.m`, `a.b.Type.m`, and
 * on a call's result `x.m().n`),
 * `new T()` and `T::new` (CALLS `T`: the resolver lands on T's constructors), `this(..)`/`super(..)`
 * (CALLS `this`/`super`), method references `X::m` (CALLS `X.m`), `extends`/`implements` (EXTENDS /
 * IMPLEMENTS; an interface's `extends` is EXTENDS), type names in declarations, casts, `instanceof`,
 * generics, `throws`, class literals and annotations (REFERENCES). Imports: single-type, on-demand
 * (`.*`) and static ones. Typed bindings: fields (and enum constants), parameters, locals with a
 * declared type or `var x = new T()`, for-each variables, resources, catch parameters and patterns;
 * a type parameter stands for its bound (`Object` when unbounded).
 */
export class JavaExtractor implements LanguageExtractor {
  readonly languages: readonly Language[] = ['java'];
  readonly usesTreeSitter = true;

  extract(builder: FileBuilder, tree: Tree | null): void {
    if (!tree) return;
    new JavaWalker(builder, FIELDS(tree.language)).run(tree.rootNode);
  }
}

class JavaWalker {
  private readonly content: string;
  /** Bound of each type parameter in scope, by declaring scope (`Object` when unbounded). */
  private readonly bounds = new Map<ScopeDraft, Map<string, string>>();
  /** Declared types as written (simple names, arrays kept: `int[]`) of each scope's variables. */
  private readonly declared = new Map<ScopeDraft, Map<string, string>>();
  /** Argument types of each call target per calling scope (overload choice, see {@link OVERLOAD_ARGS}). */
  private readonly callArgs = new Map<ScopeDraft, Map<string, Set<string>>>();

  constructor(private readonly b: FileBuilder, private readonly f: Fields) {
    this.content = b.content;
  }

  private text(n: SyntaxNode): string {
    return nodeText(this.content, n);
  }

  run(root: SyntaxNode): void {
    let scope = this.b.file;
    for (const c of root.namedChildren) {
      if (c.type === 'package_declaration') {
        const nameNode = c.namedChildren.find((x) => x.type === 'scoped_identifier' || x.type === 'identifier');
        const name = nameNode ? this.text(nameNode).replace(/\s+/g, '') : 'package';
        scope = this.b.addScope({
          name, qualifiedName: name, kind: 'namespace', parent: this.b.file,
          startIndex: c.startIndex, endIndex: this.content.length,
          startLine: startLine(c), endLine: this.b.file.endLine,
          signature: `package ${name}`,
          docComment: null,
        });
        continue;
      }
      if (c.type === 'import_declaration') {
        this.importDecl(c);
        continue;
      }
      this.walk(c, scope);
    }
    for (const [sc, calls] of this.callArgs) {
      for (const [target, lists] of calls) this.b.binding(sc, `${OVERLOAD_ARGS}${target}`, [...lists].join(';'), false);
    }
  }

  private walkChildren(node: SyntaxNode, scope: ScopeDraft): void {
    for (const c of node.namedChildren) this.walk(c, scope);
  }

  private walk(node: SyntaxNode, scope: ScopeDraft): void {
    const t = node.type;
    if (LEAVES.has(t)) {
      if (t === 'modifiers') this.annotations(node, scope);
      return;
    }
    const typeKind = TYPE_DECLS[t];
    if (typeKind) {
      this.typeDecl(node, scope, typeKind);
      return;
    }
    switch (t) {
      case 'method_declaration':
      case 'annotation_type_element_declaration':
        this.method(node, scope, 'method');
        return;
      case 'constructor_declaration':
      case 'compact_constructor_declaration':
        this.method(node, scope, 'constructor');
        return;
      case 'field_declaration':
      case 'constant_declaration':
        this.field(node, scope);
        return;
      case 'local_variable_declaration':
        this.variables(node, scope, false);
        return;
      case 'formal_parameter':
      case 'spread_parameter':
      case 'catch_formal_parameter':
      case 'resource':
      case 'enhanced_for_statement':
        this.parameterLike(node, scope);
        return;
      case 'enum_constant': {
        const args = fieldChild(node, this.f.arguments);
        if (args) this.walk(args, scope);
        const body = fieldChild(node, this.f.body);
        if (body) this.walkChildren(body, scope);
        return;
      }
      case 'method_invocation': {
        const nameNode = fieldChild(node, this.f.name);
        const obj = fieldChild(node, this.f.object);
        const recv = obj ? this.chain(obj) : null;
        if (nameNode && (!obj || recv)) {
          const target = recv ? `${recv}.${this.text(nameNode)}` : this.text(nameNode);
          this.b.ref(scope, 'CALLS', target, startLine(node));
          this.recordCall(scope, target, fieldChild(node, this.f.arguments));
        }
        // the receiver's own calls (`a.b()` in `a.b().c()`) are call sites too
        if (obj && (!recv || recv.includes('()'))) this.walk(obj, scope);
        for (const c of node.namedChildren) {
          if (c.type === 'type_arguments') this.typeRefs(c, scope);
          else if (c.type === 'argument_list') this.walk(c, scope);
        }
        return;
      }
      case 'object_creation_expression': {
        const type = fieldChild(node, this.f.type);
        const tn = type ? this.typeName(type, scope) : null;
        if (tn && type && !this.b.isTypeParam(scope, tn)) {
          this.b.ref(scope, 'CALLS', tn, startLine(node));
          this.recordCall(scope, tn, fieldChild(node, this.f.arguments));
          this.typeArgs(type, scope);
        }
        for (const c of node.namedChildren) {
          if (c.id === type?.id) continue;
          if (c.type === 'class_body') this.anonymousBody(c, scope);
          else this.walk(c, scope);
        }
        return;
      }
      case 'explicit_constructor_invocation': {
        const ctor = fieldChild(node, this.f.constructor);
        if (ctor) {
          const target = ctor.type === 'super' ? 'super' : 'this';
          this.b.ref(scope, 'CALLS', target, startLine(node));
          this.recordCall(scope, target, fieldChild(node, this.f.arguments));
        }
        for (const c of node.namedChildren) if (c.id !== ctor?.id) this.walk(c, scope);
        return;
      }
      case 'method_reference': {
        const parts = node.namedChildren;
        const target = parts[0];
        const last = parts[parts.length - 1];
        const isNew = node.children.some((c) => c.type === 'new');
        const recv = target ? (target.type.endsWith('type') || target.type === 'scoped_type_identifier' ? this.typeName(target, scope) : this.chain(target)) : null;
        if (recv && isNew) this.b.ref(scope, 'CALLS', recv, startLine(node));
        else if (recv && last && last.id !== target.id && last.type === 'identifier') this.b.ref(scope, 'CALLS', `${recv}.${this.text(last)}`, startLine(node));
        else if (target && !recv) this.walk(target, scope);
        return;
      }
      case 'cast_expression':
      case 'class_literal':
      case 'array_creation_expression':
      case 'instanceof_expression': {
        for (const c of node.namedChildren) {
          if (isTypeNode(c.type)) this.typeRefs(c, scope);
          else this.walk(c, scope);
        }
        if (t === 'instanceof_expression') {
          const right = fieldChild(node, this.f.right);
          const name = fieldChild(node, this.f.name);
          const tn = right ? this.typeName(right, scope) : null;
          if (tn && name && right) this.bind(scope, this.text(name), tn, false, right);
          for (const c of node.namedChildren) if (c.type === 'record_pattern' || c.type === 'type_pattern') this.pattern(c, scope);
        }
        return;
      }
      case 'type_pattern':
      case 'record_pattern':
        this.pattern(node, scope);
        return;
      case 'lambda_expression':
        this.walkChildren(node, scope);
        return;
      case 'type_arguments':
        this.typeRefs(node, scope);
        return;
      case 'marker_annotation':
      case 'annotation':
        this.annotation(node, scope);
        return;
      case 'static_initializer':
      case 'block':
      default:
        this.walkChildren(node, scope);
    }
  }

  // ---------------------------------------------------------------- declarations

  private typeDecl(node: SyntaxNode, parent: ScopeDraft, kind: ScopeKind): void {
    const nameNode = fieldChild(node, this.f.name);
    const name = nameNode ? this.text(nameNode) : 'type';
    const body = fieldChild(node, this.f.body);
    const topLevel = parent.kind === 'file' || parent.kind === 'namespace';
    const s = this.b.addScope({
      name, kind, parent,
      qualifiedName: topLevel ? name : this.b.qualify(parent, name),
      ...range(node),
      signature: this.signature(node, body),
      docComment: this.doc(node),
      exported: this.isExported(node, parent),
    });
    this.typeParameters(node, s);
    for (const c of node.namedChildren) {
      switch (c.type) {
        case 'modifiers':
          this.annotations(c, s);
          break;
        case 'superclass':
          for (const x of c.namedChildren) this.heritage(x, s, 'EXTENDS');
          break;
        case 'super_interfaces':
        case 'extends_interfaces':
          for (const list of c.namedChildren) {
            const rel = c.type === 'extends_interfaces' ? 'EXTENDS' : 'IMPLEMENTS';
            for (const x of list.type === 'type_list' ? list.namedChildren : [list]) this.heritage(x, s, rel);
          }
          break;
        case 'permits':
          for (const list of c.namedChildren) this.typeRefs(list, s);
          break;
        case 'formal_parameters':
          // record components: fields and accessors of the record
          for (const p of c.namedChildren) {
            const type = fieldChild(p, this.f.type);
            const pn = fieldChild(p, this.f.name);
            if (!type) continue;
            this.typeRefs(type, s);
            const tn = this.typeName(type, s);
            if (tn && pn) this.bind(s, this.text(pn), tn, true, type);
          }
          break;
        default:
      }
    }
    if (!body) return;
    // The enum's own members first, so they keep the bare ids when a constant's body overrides one (`~N`).
    for (const c of body.namedChildren) {
      if (c.type === 'enum_body_declarations') this.walkChildren(c, s);
      else if (c.type !== 'enum_constant') this.walk(c, s);
    }
    for (const c of body.namedChildren) {
      if (c.type !== 'enum_constant') continue;
      const cn = fieldChild(c, this.f.name);
      if (cn) {
        this.bind(s, this.text(cn), name, true, null);
        // an enum constant is a member of its enum (kind `variable`, as every language's enum members)
        const cb = fieldChild(c, this.f.body);
        this.b.addScope({
          name: this.text(cn), kind: 'variable', parent: s, ...range(c),
          signature: this.signature(c, cb), docComment: this.doc(c), exported: s.exported,
        });
      }
      this.walk(c, s);
    }
    if (kind === 'record') this.recordAccessors(node, body, s);
  }

  /** A record's implicit accessors (`amount()` for component `amount`), unless the body declares them. */
  private recordAccessors(node: SyntaxNode, body: SyntaxNode, s: ScopeDraft): void {
    const declared = new Set(body.namedChildren
      .filter((m) => m.type === 'method_declaration' && !fieldChild(m, this.f.parameters)?.namedChildren.some((p) => p.type !== 'line_comment' && p.type !== 'block_comment'))
      .map((m) => fieldChild(m, this.f.name)?.text));
    const components = node.namedChildren.find((c) => c.type === 'formal_parameters');
    for (const p of components?.namedChildren ?? []) {
      const type = fieldChild(p, this.f.type);
      const pn = fieldChild(p, this.f.name);
      if (!type || !pn || declared.has(pn.text)) continue;
      const a = this.b.addScope({
        name: pn.text, kind: 'method', parent: s, ...range(p),
        signature: `public ${this.text(type)} ${pn.text}()`, docComment: null, exported: s.exported,
      });
      const tn = this.typeName(type, s);
      if (tn) this.b.binding(a, RETURNS, tn, false);
      this.b.binding(a, OVERLOAD_PARAMS, '()', false);
    }
  }

  private heritage(node: SyntaxNode, s: ScopeDraft, rel: 'EXTENDS' | 'IMPLEMENTS'): void {
    const tn = this.typeName(node, s);
    if (tn) this.b.ref(s, rel, tn, startLine(node));
    this.typeArgs(node, s);
  }

  private method(node: SyntaxNode, parent: ScopeDraft, kind: ScopeKind): void {
    const nameNode = fieldChild(node, this.f.name);
    const body = fieldChild(node, this.f.body);
    const s = this.b.addScope({
      name: nameNode ? this.text(nameNode) : 'method', kind, parent,
      ...range(node),
      signature: this.signature(node, body),
      docComment: this.doc(node),
      exported: this.isExported(node, parent),
    });
    this.typeParameters(node, s);
    this.parameterTypes(node, s);
    const type = fieldChild(node, this.f.type);
    const returns = type && type.type !== 'void_type' ? this.typeName(type, s) : null;
    if (returns && kind === 'method') this.b.binding(s, RETURNS, returns, false);
    for (const c of node.namedChildren) {
      if (c.id === nameNode?.id || c.type === 'type_parameters') continue;
      if (c.id === type?.id || c.type === 'throws') this.typeRefs(c, s);
      else this.walk(c, s);
    }
  }

  /** Methods of an anonymous class body: scopes under the enclosing one (`Outer.method.run`). */
  private anonymousBody(body: SyntaxNode, scope: ScopeDraft): void {
    for (const c of body.namedChildren) this.walk(c, scope);
  }

  private field(node: SyntaxNode, scope: ScopeDraft): void {
    const type = fieldChild(node, this.f.type);
    const tn = type ? this.typeName(type, scope) : null;
    if (type) this.typeRefs(type, scope);
    const exported = this.isExported(node, scope);
    const mods = node.namedChildren.find((c) => c.type === 'modifiers');
    if (mods) this.annotations(mods, scope);
    const head = type ? this.content.slice(this.sigStart(node), type.endIndex) : '';
    for (const d of node.namedChildren) {
      if (d.type !== 'variable_declarator') continue;
      const nameNode = fieldChild(d, this.f.name);
      if (!nameNode) continue;
      const name = this.text(nameNode);
      const dims = fieldChild(d, this.f.dimensions);
      let owner = scope;
      // Fields of the API (public/protected, interface constants) are scopes of their own; the rest
      // are only typed bindings of the class.
      if (exported && isTypeScope(scope)) {
        owner = this.b.addScope({
          name, kind: 'property', parent: scope,
          ...range(node),
          signature: `${head} ${name}${dims ? this.text(dims) : ''}`,
          docComment: this.doc(node),
          exported: true,
        });
      }
      // a field of an anonymous class is a local of the method declaring that class
      if (tn && type) this.bind(scope, name, dims ? 'Object' : tn, isTypeScope(scope), type, dims);
      const value = fieldChild(d, this.f.value);
      if (value) this.walk(value, owner);
    }
  }

  private variables(node: SyntaxNode, scope: ScopeDraft, member: boolean): void {
    const type = fieldChild(node, this.f.type);
    const isVar = type?.type === 'type_identifier' && this.text(type) === 'var';
    const explicit = type && !isVar ? this.typeName(type, scope) : null;
    if (type && !isVar) this.typeRefs(type, scope);
    for (const d of node.namedChildren) {
      if (d.type === 'modifiers') {
        this.annotations(d, scope);
        continue;
      }
      if (d.type !== 'variable_declarator') continue;
      const nameNode = fieldChild(d, this.f.name);
      const value = fieldChild(d, this.f.value);
      let tn = explicit;
      if (fieldChild(d, this.f.dimensions)) tn = 'Object';
      if (!tn && value?.type === 'object_creation_expression') {
        const vt = fieldChild(value, this.f.type);
        tn = vt ? this.typeName(vt, scope) : null;
      } else if (!tn && value?.type === 'cast_expression') {
        const vt = fieldChild(value, this.f.type);
        tn = vt ? this.typeName(vt, scope) : null;
      }
      if (tn && nameNode) {
        const written = type && !isVar ? type : value && fieldChild(value, this.f.type);
        this.bind(scope, this.text(nameNode), tn, member, written ?? null, fieldChild(d, this.f.dimensions));
      }
      if (value) this.walk(value, scope);
    }
  }

  /** Parameters, catch parameters, resources, for-each variables: a typed name plus what follows. */
  private parameterLike(node: SyntaxNode, scope: ScopeDraft): void {
    let type = fieldChild(node, this.f.type);
    let nameNode = fieldChild(node, this.f.name);
    const skip = new Set<number>();
    if (node.type === 'spread_parameter') {
      type = node.namedChildren.find((c) => isTypeNode(c.type)) ?? null;
      const decl = node.namedChildren.find((c) => c.type === 'variable_declarator');
      nameNode = decl ? fieldChild(decl, this.f.name) : null;
      if (decl) skip.add(decl.id);
    } else if (node.type === 'catch_formal_parameter') {
      const ct = node.namedChildren.find((c) => c.type === 'catch_type');
      if (ct) {
        this.typeRefs(ct, scope);
        skip.add(ct.id);
        const types = ct.namedChildren.filter((c) => isTypeNode(c.type));
        // `catch (A | B e)`: e's type is their common supertype; the first alternative stands for it
        const tn = types.length ? this.typeName(types[0], scope) : null;
        if (tn && nameNode) this.bind(scope, this.text(nameNode), tn, false, types[0]);
      }
    }
    if (type) {
      this.typeRefs(type, scope);
      const isVar = type.type === 'type_identifier' && this.text(type) === 'var';
      const tn = isVar ? null : node.type === 'spread_parameter' || fieldChild(node, this.f.dimensions) ? 'Object' : this.typeName(type, scope);
      if (tn && nameNode) this.bind(scope, this.text(nameNode), tn, false, type, fieldChild(node, this.f.dimensions), node.type === 'spread_parameter');
    }
    for (const c of node.namedChildren) {
      if (c.id === type?.id || c.id === nameNode?.id || skip.has(c.id)) continue;
      this.walk(c, scope);
    }
  }

  /** `o instanceof Point(int x, Foo f)` / `case Foo f ->`: the pattern's variables. */
  private pattern(node: SyntaxNode, scope: ScopeDraft): void {
    if (node.type === 'type_pattern') {
      const type = node.namedChildren.find((c) => isTypeNode(c.type));
      const name = node.namedChildren.find((c) => c.type === 'identifier');
      if (type) {
        this.typeRefs(type, scope);
        const tn = this.typeName(type, scope);
        if (tn && name) this.bind(scope, this.text(name), tn, false, type);
      }
      return;
    }
    for (const c of node.namedChildren) {
      if (isTypeNode(c.type)) this.typeRefs(c, scope);
      else if (c.type === 'record_pattern_body') for (const p of c.namedChildren) this.pattern(p, scope);
      else if (c.type === 'record_pattern' || c.type === 'type_pattern') this.pattern(c, scope);
    }
  }

  private typeParameters(node: SyntaxNode, s: ScopeDraft): void {
    const tps = fieldChild(node, this.f.type_parameters);
    if (!tps) return;
    const bounds = new Map<string, string>();
    for (const p of tps.namedChildren) {
      const n = p.namedChildren.find((c) => c.type === 'type_identifier' || c.type === 'identifier');
      if (!n) continue;
      (s.typeParams ??= new Set()).add(this.text(n));
      bounds.set(this.text(n), 'Object');
    }
    this.bounds.set(s, bounds);
    for (const p of tps.namedChildren) {
      const n = p.namedChildren.find((c) => c.type === 'type_identifier' || c.type === 'identifier');
      const bound = p.namedChildren.find((c) => c.type === 'type_bound');
      if (!n || !bound) continue;
      const first = bound.namedChildren[0];
      const tn = first ? this.typeName(first, s) : null;
      if (tn) bounds.set(this.text(n), tn);
      this.typeRefs(bound, s);
    }
  }

  private importDecl(node: SyntaxNode): void {
    const text = this.text(node);
    const isStatic = /^import\s+static\b/.test(text);
    const target = node.namedChildren.find((c) => c.type === 'scoped_identifier' || c.type === 'identifier');
    if (!target) return;
    const spec = this.text(target).replace(/\s+/g, '');
    const wildcard = node.namedChildren.some((c) => c.type === 'asterisk');
    const line = startLine(node);
    let imp: RawImport;
    if (wildcard) {
      imp = { fromPath: this.b.path, specifier: spec, names: [{ imported: '*', local: '*' }], isNamespace: true, line };
    } else {
      const dot = spec.lastIndexOf('.');
      const last = spec.slice(dot + 1);
      imp = isStatic
        ? { fromPath: this.b.path, specifier: spec.slice(0, Math.max(dot, 0)), names: [{ imported: last, local: last }], line }
        : { fromPath: this.b.path, specifier: spec, names: [{ imported: last, local: last }], line };
    }
    if (isStatic) imp.isStatic = true;
    this.b.imports.push(imp);
  }

  // ---------------------------------------------------------------- overloads

  /** A typed binding, and the type as written for overload choice at call sites. */
  private bind(scope: ScopeDraft, name: string, typeName: string, member: boolean, written: SyntaxNode | null, dims?: SyntaxNode | null, spread = false): void {
    this.b.binding(scope, name, typeName, member);
    let m = this.declared.get(scope);
    if (!m) this.declared.set(scope, (m = new Map()));
    if (m.has(name)) return;
    let w = written ? this.writtenType(written, scope) : typeName.slice(typeName.lastIndexOf('.') + 1);
    if (dims) w += '[]'.repeat(this.text(dims).split('[').length - 1);
    if (spread) w += '[]';
    m.set(name, w);
  }

  /**
   * The parameter types of a method or constructor as written (`(String,int[],Object...)`), as a
   * binding named {@link OVERLOAD_PARAMS}: the resolver picks overloads by them.
   */
  private parameterTypes(node: SyntaxNode, s: ScopeDraft): void {
    const params = fieldChild(node, this.f.parameters);
    const out: string[] = [];
    for (const p of params?.namedChildren ?? []) {
      if (p.type === 'formal_parameter') {
        const type = fieldChild(p, this.f.type);
        const dims = fieldChild(p, this.f.dimensions);
        out.push((type ? this.writtenType(type, s) : '?') + (dims ? '[]'.repeat(this.text(dims).split('[').length - 1) : ''));
      } else if (p.type === 'spread_parameter') {
        const type = p.namedChildren.find((c) => isTypeNode(c.type));
        out.push(`${type ? this.writtenType(type, s) : '?'}...`);
      }
    }
    this.b.binding(s, OVERLOAD_PARAMS, `(${out.join(',')})`, false);
  }

  /** Name of a type as written, generics dropped, arrays kept (`int[]`); `?` for a type parameter. */
  private writtenType(node: SyntaxNode, scope: ScopeDraft): string {
    switch (node.type) {
      case 'array_type': {
        const el = fieldChild(node, this.f.element);
        const dims = fieldChild(node, this.f.dimensions);
        return `${el ? this.writtenType(el, scope) : '?'}${'[]'.repeat(dims ? this.text(dims).split('[').length - 1 : 1)}`;
      }
      case 'generic_type': {
        const inner = node.namedChild(0);
        return inner ? this.writtenType(inner, scope) : '?';
      }
      case 'scoped_type_identifier':
        return this.typeName(node, scope) ?? '?';
      case 'type_identifier': {
        const n = this.text(node);
        return this.b.isTypeParam(scope, n) ? '?' : n;
      }
      case 'integral_type':
      case 'floating_point_type':
      case 'boolean_type':
        return this.text(node);
      default:
        return '?';
    }
  }

  private recordCall(scope: ScopeDraft, target: string, args: SyntaxNode | null): void {
    if (!args) return;
    const types = args.namedChildren.filter((a) => a.type !== 'line_comment' && a.type !== 'block_comment').map((a) => this.argType(a, scope));
    let m = this.callArgs.get(scope);
    if (!m) this.callArgs.set(scope, (m = new Map()));
    let set = m.get(target);
    if (!set) m.set(target, (set = new Set()));
    set.add(`(${types.join(',')})`);
  }

  /** The static type of an argument where the syntax tells it, else `?`. */
  private argType(node: SyntaxNode, scope: ScopeDraft, depth = 0): string {
    switch (node.type) {
      case 'decimal_integer_literal':
      case 'hex_integer_literal':
      case 'octal_integer_literal':
      case 'binary_integer_literal':
        return /[lL]$/.test(this.text(node)) ? 'long' : 'int';
      case 'decimal_floating_point_literal':
      case 'hex_floating_point_literal':
        return /[fF]$/.test(this.text(node)) ? 'float' : 'double';
      case 'string_literal':
      case 'text_block':
        return 'String';
      case 'character_literal':
        return 'char';
      case 'true':
      case 'false':
        return 'boolean';
      case 'null_literal':
        return 'null';
      case 'identifier':
        return this.declaredType(this.text(node), scope);
      case 'this': {
        let s: ScopeDraft | null = scope;
        while (s && !isTypeScope(s)) s = s.parent;
        return s?.name ?? '?';
      }
      case 'field_access': {
        const obj = fieldChild(node, this.f.object);
        const field = fieldChild(node, this.f.field);
        return obj?.type === 'this' && field ? this.declaredType(this.text(field), scope, true) : '?';
      }
      case 'object_creation_expression':
      case 'cast_expression': {
        const type = fieldChild(node, this.f.type);
        return type ? this.writtenType(type, scope) : '?';
      }
      case 'method_invocation': {
        // Object's methods, whatever the receiver
        const name = fieldChild(node, this.f.name);
        return (name && OBJECT_RESULTS[this.text(name)]) ?? '?';
      }
      case 'parenthesized_expression': {
        const inner = node.namedChild(0);
        return inner && depth < MAX_CHAIN ? this.argType(inner, scope, depth + 1) : '?';
      }
      case 'binary_expression': {
        if (node.child(1)?.type !== '+' || depth >= MAX_CHAIN) return '?';
        const l = fieldChild(node, this.f.left);
        const r = fieldChild(node, this.f.right);
        return (l && this.argType(l, scope, depth + 1) === 'String') || (r && this.argType(r, scope, depth + 1) === 'String') ? 'String' : '?';
      }
      default:
        return '?';
    }
  }

  /** The written type of a variable visible from `scope` (locals, then fields of enclosing types). */
  private declaredType(name: string, scope: ScopeDraft, fieldsOnly = false): string {
    for (let s: ScopeDraft | null = scope; s; s = s.parent) {
      if (fieldsOnly && !isTypeScope(s)) continue;
      const t = this.declared.get(s)?.get(name);
      if (t) return t;
    }
    return '?';
  }

  // ---------------------------------------------------------------- references

  private annotations(mods: SyntaxNode, scope: ScopeDraft): void {
    for (const c of mods.namedChildren) if (c.type === 'marker_annotation' || c.type === 'annotation') this.annotation(c, scope);
  }

  private annotation(node: SyntaxNode, scope: ScopeDraft): void {
    const name = fieldChild(node, this.f.name);
    if (name) {
      const n = this.chain(name);
      if (n) this.b.ref(scope, 'REFERENCES', n, startLine(node));
    }
    const args = fieldChild(node, this.f.arguments);
    if (args) this.walkChildren(args, scope);
  }

  /** `a.b.c`, `this.x`, `super`, `Outer.this` -> dotted name; null when computed. */
  private chain(node: SyntaxNode, depth = 0): string | null {
    if (depth > MAX_CHAIN) return null;
    switch (node.type) {
      case 'method_invocation': {
        // `a.b().c()` is CALLS `a.b().c`: the resolver continues from b's declared return type
        const name = fieldChild(node, this.f.name);
        const obj = fieldChild(node, this.f.object);
        if (!name) return null;
        const o = obj ? this.chain(obj, depth + 1) : null;
        if (obj && !o) return null;
        return `${o ? `${o}.` : ''}${this.text(name)}()`;
      }
      case 'identifier':
      case 'type_identifier':
        return this.text(node);
      case 'this':
        return 'this';
      case 'super':
        return 'super';
      case 'scoped_identifier':
      case 'scoped_type_identifier':
        // type annotations (`Outer.@Nullable Inner`) and generic arguments are not part of the name
        return this.text(node).replace(/@[\w.]+(?:\([^)]*\))?/g, '').replace(/\s+/g, '').replace(/<[^>]*>/g, '');
      case 'field_access': {
        const obj = fieldChild(node, this.f.object);
        const field = fieldChild(node, this.f.field);
        if (!obj || !field) return null;
        const o = this.chain(obj, depth + 1);
        if (!o) return null;
        // `Outer.this.x` is `this.x` (the enclosing instance: the resolver walks outwards anyway)
        if (field.type === 'this') return 'this';
        if (field.type === 'super') return 'super';
        return `${o}.${this.text(field)}`;
      }
      case 'parenthesized_expression': {
        const inner = node.namedChild(0);
        return inner ? this.chain(inner, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  /** REFERENCES for every type name inside a type node (generic arguments and bounds included). */
  private typeRefs(node: SyntaxNode, scope: ScopeDraft): void {
    switch (node.type) {
      case 'type_identifier': {
        const n = this.text(node);
        if (n !== 'var' && !this.b.isTypeParam(scope, n)) this.b.ref(scope, 'REFERENCES', n, startLine(node));
        return;
      }
      case 'scoped_type_identifier': {
        const n = this.chain(node);
        if (n) this.b.ref(scope, 'REFERENCES', n, startLine(node));
        this.typeArgs(node, scope);
        return;
      }
      case 'generic_type':
        for (const c of node.namedChildren) this.typeRefs(c, scope);
        return;
      case 'marker_annotation':
      case 'annotation':
        this.annotation(node, scope);
        return;
      case 'integral_type':
      case 'floating_point_type':
      case 'boolean_type':
      case 'void_type':
      case 'line_comment':
      case 'block_comment':
        return;
      default:
        for (const c of node.namedChildren) this.typeRefs(c, scope);
    }
  }

  /** Type arguments anywhere below a type node, without the type's own name. */
  private typeArgs(node: SyntaxNode, scope: ScopeDraft): void {
    for (const c of node.namedChildren) {
      if (c.type === 'type_arguments') this.typeRefs(c, scope);
      else if (c.type === 'generic_type' || c.type === 'scoped_type_identifier') this.typeArgs(c, scope);
    }
  }

  /**
   * Name of a declared type for bindings, heritage and `new`: generics stripped, arrays as `Object`
   * (their only methods are Object's), a type parameter as its bound.
   */
  private typeName(node: SyntaxNode, scope: ScopeDraft): string | null {
    switch (node.type) {
      case 'type_identifier': {
        const n = this.text(node);
        return this.b.isTypeParam(scope, n) ? this.boundOf(scope, n) : n;
      }
      case 'scoped_type_identifier': {
        // `Map.Entry<K, V>`: drop the generic arguments of every segment
        const parts = node.namedChildren
          .filter((c) => c.type !== 'marker_annotation' && c.type !== 'annotation')
          .map((c) => (c.type === 'generic_type' ? c.namedChild(0) : c))
          .filter((c): c is SyntaxNode => !!c);
        const names = parts.map((p) => (p.type === 'scoped_type_identifier' ? this.typeName(p, scope) : this.text(p)));
        return names.every(Boolean) ? names.join('.') : null;
      }
      case 'generic_type': {
        const inner = node.namedChild(0);
        return inner ? this.typeName(inner, scope) : null;
      }
      case 'array_type':
        return 'Object';
      case 'integral_type':
      case 'floating_point_type':
      case 'boolean_type':
        return this.text(node);
      default:
        return null;
    }
  }

  private boundOf(scope: ScopeDraft, name: string): string {
    for (let s: ScopeDraft | null = scope; s; s = s.parent) {
      const b = this.bounds.get(s)?.get(name);
      if (b) return b;
    }
    return 'Object';
  }

  // ---------------------------------------------------------------- helpers

  /** Where the declaration's header starts: after leading annotations and comments. */
  private sigStart(node: SyntaxNode): number {
    for (const c of node.children) {
      if (c.type === 'line_comment' || c.type === 'block_comment') continue;
      if (c.type === 'modifiers') {
        const first = c.children.find((m) => m.type !== 'marker_annotation' && m.type !== 'annotation' && m.type !== 'line_comment' && m.type !== 'block_comment');
        if (first) return first.startIndex;
        continue;
      }
      return c.startIndex;
    }
    return node.startIndex;
  }

  private signature(node: SyntaxNode, body: SyntaxNode | null): string {
    const end = body ? body.startIndex : node.endIndex;
    return this.content.slice(this.sigStart(node), end).replace(/[;{]\s*$/, '').trim();
  }

  private isExported(node: SyntaxNode, parent: ScopeDraft): boolean {
    const mods = node.namedChildren.find((c) => c.type === 'modifiers');
    const words = mods ? mods.children.map((c) => c.type) : [];
    if (words.includes('public') || words.includes('protected')) return true;
    if (words.includes('private')) return false;
    return parent.kind === 'interface';
  }

  private doc(node: SyntaxNode): string | null {
    const prev = node.previousNamedSibling;
    if (!prev || prev.type !== 'block_comment') return null;
    if (prev.endPosition.row < node.startPosition.row - 1) return null;
    const text = this.text(prev);
    return text.startsWith('/**') && text !== '/**/' ? cleanBlockComment(text) : null;
  }
}

function isTypeNode(t: string): boolean {
  return t === 'type_identifier' || t === 'scoped_type_identifier' || t === 'generic_type' || t === 'array_type'
    || t === 'integral_type' || t === 'floating_point_type' || t === 'boolean_type';
}

function isTypeScope(s: ScopeDraft): boolean {
  return s.kind === 'class' || s.kind === 'interface' || s.kind === 'enum' || s.kind === 'record';
}

function range(node: SyntaxNode) {
  return { startIndex: node.startIndex, endIndex: node.endIndex, startLine: startLine(node), endLine: endLine(node) };
}
