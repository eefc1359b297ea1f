import { cleanBlockComment, cleanXmlDoc } from '../../parse/doc-comments';
import { endLine, fieldChild, fieldTable, LanguageExtractor, precedingComments, startLine, SyntaxNode, Tree } from '../../parse/extractor';
import type { FileBuilder, ScopeDraft } from '../../parse/file-builder';
import { sqlRefsInString } from '../sql/lexer';
import type { Language, RawImport, ScopeKind } from '../../parse/types';

/** Every field this walker reads, resolved to ids once per grammar (see `fieldTable`). */
const FIELDS = fieldTable([
  'accessors', 'arguments', 'body', 'condition', 'expression', 'function', 'left', 'name', 'operator',
  'parameters', 'returns', 'right', 'type', 'type_parameters',
] as const);
const TYPE_DECLS: Record<string, ScopeKind> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  struct_declaration: 'struct',
  record_declaration: 'record',
  record_struct_declaration: 'record',
  enum_declaration: 'enum',
};

/** Nodes whose `type` field names a type (REFERENCES). */
const TYPE_FIELD_NODES = new Set([
  'cast_expression', 'typeof_expression', 'array_creation_expression', 'declaration_pattern', 'default_expression',
  'sizeof_expression', 'declaration_expression', 'type_pattern', 'recursive_pattern', 'delegate_declaration',
  'indexer_declaration', 'operator_declaration', 'conversion_operator_declaration', 'stackalloc_array_creation_expression',
  'ref_type', 'catch_declaration', 'foreach_statement',
]);

const STRING_NODES = new Set([
  'string_literal', 'verbatim_string_literal', 'raw_string_literal', 'interpolated_string_expression',
]);

/** Binding name, on a method's scope, of the type it returns. */
export const CS_RESULT = '()';
/** Binding name, on an extension method's scope, of the type its `this` parameter extends. */
export const CS_EXTENDS = 'this';
/** Binding name, on a static method's scope, marking it static. */
export const CS_STATIC = 'static';
/** Prefix of a local binding that marks `new T()` in a scope. */
export const CS_NEW = 'new ';

/** `Task<T>` / `ValueTask<T>` -> T (calls are mostly awaited); any other type as written. */
function unwrapTask(t: SyntaxNode): SyntaxNode {
  const g = t.type === 'qualified_name' ? t.namedChildren.find((c) => c.type === 'generic_name') ?? t : t;
  if (g.type !== 'generic_name' || !/^(?:Task|ValueTask)$/.test(g.namedChild(0)?.text ?? '')) return t;
  const args = g.namedChildren.find((c) => c.type === 'type_argument_list')?.namedChildren ?? [];
  return args.length === 1 ? args[0] : t;
}

const SQL_CALL = /(?:Query|Execute|Sql|Proc|Command|Scalar|Reader)/;
const MAX_CHAIN = 6;

/**
 * C#.
 *
 * Scopes: namespaces (block and file-scoped), classes, interfaces (+ their methods and properties),
 * structs, records, enums, nested types, methods, constructors, properties, local functions
 * (`Type.Method.local`). Qualified names include the namespace: `MyApp.Services.InvoiceService.Create`.
 * `///` XML doc comments (tags turned into text) or `/** *\/` blocks are the doc comment.
 *
 * References: invocations and `new` (CALLS; `: base(...)` -> CALLS `base`), base lists (first base of a
 * class/record EXTENDS unless it looks like an interface `I[A-Z]...`, the rest IMPLEMENTS; interfaces
 * EXTENDS; structs IMPLEMENTS — the resolver corrects by target kind), type names in signatures, fields,
 * locals, casts, generics (REFERENCES), SQL object names in string literals (REFERENCES with
 * `targetLanguage: 'sql'`). Imports: `using`, `using static`, `using X = ...`, `global using`.
 */
export class CSharpExtractor implements LanguageExtractor {
  readonly languages: readonly Language[] = ['csharp'];
  readonly usesTreeSitter = true;

  extract(builder: FileBuilder, tree: Tree | null): void {
    if (!tree) return;
    new CsWalker(builder, FIELDS(tree.language)).run(tree.rootNode);
  }

  parseText(content: string): string {
    return activeBranches(content);
  }
}

const DIRECTIVE = /^[ \t]*#[ \t]*(if|elif|else|endif)\b(.*)$/;

/**
 * The file as compiled with no conditional symbol defined: inactive `#if` branches and the directive
 * lines blanked, line breaks kept. Tree-sitter parses every branch at once, and branches that each
 * complete a declaration (`class A : B\n#if X\n, I1\n#else\n, I2\n#endif`) break the whole type's
 * parse. One configuration for every group keeps the branches consistent with each other (`#if X` and
 * `#if !X` never both read); a condition it cannot read takes the group's first branch.
 */
export function activeBranches(content: string): string {
  if (!content.includes('#')) return content;
  const lines = content.split('\n');
  // per open group: is the current branch read, has a branch been read
  const stack: { active: boolean; taken: boolean }[] = [];
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const m = DIRECTIVE.exec(lines[i]);
    if (m) {
      const cond = () => evalCondition(m[2].replace(/\/\/.*$/, ''));
      if (m[1] === 'if') {
        const v = cond() ?? true;
        stack.push({ active: v, taken: v });
      } else if (m[1] === 'endif') stack.pop();
      else if (stack.length) {
        const g = stack[stack.length - 1];
        g.active = !g.taken && (m[1] === 'else' || (cond() ?? false));
        g.taken ||= g.active;
      }
    }
    if (m || stack.some((g) => !g.active)) {
      lines[i] = lines[i].replace(/[^\r]/g, ' ');
      changed = true;
    }
  }
  return changed ? lines.join('\n') : content;
}

/** A `#if` condition with every symbol undefined (`true`/`false` as written); null when unreadable. */
export function evalCondition(text: string): boolean | null {
  const tokens = text.match(/\s*(\|\||&&|==|!=|!|\(|\)|[A-Za-z_][A-Za-z0-9_]*)/g);
  if (!tokens || tokens.join('').replace(/\s+/g, '') !== text.replace(/\s+/g, '')) return null;
  const t = tokens.map((x) => x.trim());
  let i = 0;
  // or := and ('||' and)*; and := eq ('&&' eq)*; eq := unary (('=='|'!=') unary)*; unary := '!' unary | atom
  const or = (): boolean | null => {
    let v = and();
    while (v !== null && t[i] === '||') { i++; const r = and(); v = r === null ? null : v || r; }
    return v;
  };
  const and = (): boolean | null => {
    let v = eq();
    while (v !== null && t[i] === '&&') { i++; const r = eq(); v = r === null ? null : v && r; }
    return v;
  };
  const eq = (): boolean | null => {
    let v = unary();
    while (v !== null && (t[i] === '==' || t[i] === '!=')) { const op = t[i++]; const r = unary(); v = r === null ? null : op === '==' ? v === r : v !== r; }
    return v;
  };
  const unary = (): boolean | null => {
    if (t[i] === '!') { i++; const v = unary(); return v === null ? null : !v; }
    if (t[i] === '(') { i++; const v = or(); if (t[i++] !== ')') return null; return v; }
    const w = t[i++];
    if (!w || !/^[A-Za-z_]/.test(w)) return null;
    return w === 'true';
  };
  const v = or();
  return i === t.length ? v : null;
}

class CsWalker {
  private readonly content: string;

  constructor(
    private readonly b: FileBuilder,
    private readonly f: ReturnType<typeof FIELDS>,
  ) {
    this.content = b.content;
  }

  run(root: SyntaxNode): void {
    let scope = this.b.file;
    for (const c of root.namedChildren) {
      if (c.type === 'file_scoped_namespace_declaration') {
        const name = fieldChild(c, this.f.name)?.text.replace(/\s+/g, '') ?? 'namespace';
        scope = this.b.addScope({
          name, qualifiedName: name, kind: 'namespace', parent: this.b.file,
          startIndex: c.startIndex, endIndex: this.content.length,
          startLine: startLine(c), endLine: this.b.file.endLine,
          signature: `namespace ${name}`,
          docComment: null,
        });
        continue;
      }
      this.walk(c, scope);
    }
  }

  private walkChildren(node: SyntaxNode, scope: ScopeDraft): void {
    for (const c of node.namedChildren) this.walk(c, scope);
  }

  private walk(node: SyntaxNode, scope: ScopeDraft): void {
    const t = node.type;
    const typeKind = TYPE_DECLS[t];
    if (typeKind) {
      this.typeDecl(node, scope, typeKind);
      return;
    }
    if (STRING_NODES.has(t)) {
      this.sqlString(node, this.stringText(node), scope);
      if (t === 'interpolated_string_expression') {
        for (const c of node.namedChildren) if (c.type === 'interpolation') this.walkChildren(c, scope);
      }
      return;
    }
    if (TYPE_FIELD_NODES.has(t)) {
      const type = fieldChild(node, this.f.type);
      if (type) this.typeRefs(type, scope);
      if (t === 'foreach_statement' || t === 'declaration_pattern' || t === 'declaration_expression') this.bindDeclared(node, type, scope);
      for (const c of node.namedChildren) if (c.id !== type?.id) this.walk(c, scope);
      return;
    }
    switch (t) {
      case 'comment':
      case 'identifier':
      case 'predefined_type':
      case 'integer_literal':
      case 'real_literal':
      case 'boolean_literal':
      case 'null_literal':
      case 'character_literal':
      case 'modifier':
        return;
      case 'using_directive':
        this.usingDirective(node);
        return;
      case 'namespace_declaration': {
        const nameText = fieldChild(node, this.f.name)?.text.replace(/\s+/g, '') ?? 'namespace';
        const body = fieldChild(node, this.f.body);
        const s = this.b.addScope({
          name: nameText, kind: 'namespace', parent: scope,
          ...range(node, node),
          signature: `namespace ${nameText}`,
          docComment: null,
        });
        if (body) this.walkChildren(body, s);
        return;
      }
      case 'method_declaration':
      case 'local_function_statement':
        this.method(node, scope, t === 'method_declaration' && isTypeScope(scope) ? 'method' : 'function');
        return;
      case 'constructor_declaration':
        this.method(node, scope, 'constructor');
        return;
      case 'property_declaration':
        this.property(node, scope);
        return;
      case 'field_declaration':
      case 'event_field_declaration': {
        const decl = node.namedChildren.find((c) => c.type === 'variable_declaration');
        if (decl) this.variableDeclaration(decl, scope, true);
        for (const c of node.namedChildren) if (c.type === 'attribute_list') this.walk(c, scope);
        return;
      }
      case 'local_declaration_statement':
      case 'using_statement': {
        for (const c of node.namedChildren) {
          if (c.type === 'variable_declaration') this.variableDeclaration(c, scope, false);
          else this.walk(c, scope);
        }
        return;
      }
      case 'variable_declaration':
        this.variableDeclaration(node, scope, false);
        return;
      case 'parameter': {
        const type = fieldChild(node, this.f.type);
        const name = fieldChild(node, this.f.name);
        if (type) {
          this.typeRefs(type, scope);
          if (name) this.bindTyped(scope, name.text, type, false);
        }
        for (const c of node.namedChildren) if (c.id !== type?.id && c.id !== name?.id) this.walk(c, scope);
        return;
      }
      case 'invocation_expression': {
        const fn = fieldChild(node, this.f.function);
        const name = fn ? this.chain(fn) : null;
        if (name) this.b.ref(scope, 'CALLS', name, startLine(node));
        if (fn) this.walkCallee(fn, scope, !!name);
        const args = fieldChild(node, this.f.arguments);
        if (args) this.walk(args, scope);
        return;
      }
      case 'object_creation_expression': {
        const type = fieldChild(node, this.f.type);
        const tn = type ? this.typeName(type) : null;
        if (tn) this.b.ref(scope, 'CALLS', tn, startLine(node));
        // marks the call as a construction (a name with a space is no identifier): the resolver calls a
        // `new` of a type nothing declares external, where a call of an undeclared method is a miss
        if (tn) this.b.binding(scope, `${CS_NEW}${tn}`, tn, false);
        if (type) this.typeArgs(type, scope);
        for (const c of node.namedChildren) if (c.id !== type?.id) this.walk(c, scope);
        return;
      }
      case 'constructor_initializer': {
        const kw = node.child(1)?.type === 'base' || node.text.replace(/^:\s*/, '').startsWith('base') ? 'base' : 'this';
        this.b.ref(scope, 'CALLS', kw, startLine(node));
        this.walkChildren(node, scope);
        return;
      }
      case 'generic_name':
      case 'type_argument_list':
        this.typeArgs(node, scope);
        return;
      case 'as_expression': {
        const right = fieldChild(node, this.f.right);
        if (right) this.typeRefs(right, scope);
        const left = fieldChild(node, this.f.left);
        if (left) this.walk(left, scope);
        return;
      }
      case 'binary_expression':
        if (this.concatenation(node, scope)) return;
        this.walkChildren(node, scope);
        return;
      case 'attribute_list':
        // Attribute arguments may carry SQL names ([Table("Invoice")]); attribute types are not recorded.
        for (const a of node.namedChildren) {
          const args = a.namedChildren.find((c) => c.type === 'attribute_argument_list');
          if (args) this.walk(args, scope);
        }
        return;
      default:
        this.walkChildren(node, scope);
    }
  }

  // ---------------------------------------------------------------- declarations

  private typeDecl(node: SyntaxNode, parent: ScopeDraft, kind: ScopeKind): void {
    const nameNode = fieldChild(node, this.f.name);
    const name = nameNode?.text ?? 'type';
    const body = fieldChild(node, this.f.body);
    const s = this.b.addScope({
      name, kind, parent,
      ...range(node, node),
      signature: this.signature(node, body),
      docComment: this.doc(node),
      exported: this.isPublic(node),
    });
    const tps = fieldChild(node, this.f.type_parameters);
    if (tps) for (const p of tps.namedChildren) { const n = fieldChild(p, this.f.name) ?? p.namedChild(0); if (n) (s.typeParams ??= new Set()).add(n.text); }
    let first = true;
    for (const c of node.namedChildren) {
      if (c.type === 'attribute_list') this.walk(c, s);
      else if (c.type === 'base_list') {
        if (kind === 'enum') continue;
        for (const base of c.namedChildren) {
          if (base.type === 'argument_list') {
            this.walk(base, s);
            continue;
          }
          const typeNode = base.type === 'primary_constructor_base_type' ? fieldChild(base, this.f.type) ?? base.namedChild(0) : base;
          const tn = typeNode ? this.typeName(typeNode) : null;
          if (!tn) {
            this.walk(base, s);
            continue;
          }
          const simple = tn.slice(tn.lastIndexOf('.') + 1);
          let rel: 'EXTENDS' | 'IMPLEMENTS';
          if (kind === 'interface') rel = 'EXTENDS';
          else if (kind === 'struct') rel = 'IMPLEMENTS';
          else rel = first && !/^I[A-Z]/.test(simple) ? 'EXTENDS' : 'IMPLEMENTS';
          first = false;
          this.b.ref(s, rel, tn, startLine(base));
          if (typeNode) this.typeArgs(typeNode, s);
          if (base.type === 'primary_constructor_base_type') {
            for (const a of base.namedChildren) if (a.type === 'argument_list') this.walk(a, s);
          }
        }
      } else if (c.type === 'parameter_list') {
        this.walk(c, s); // record primary constructor / positional record
      } else if (c.type === 'type_parameter_constraints_clause') {
        for (const k of c.namedChildren) if (k.id !== c.namedChild(0)?.id) this.typeRefs(k, s);
      }
    }
    if (body) this.walkChildren(body, s);
  }

  private method(node: SyntaxNode, parent: ScopeDraft, kind: ScopeKind): void {
    const nameNode = fieldChild(node, this.f.name);
    const body = fieldChild(node, this.f.body);
    const s = this.b.addScope({
      name: nameNode?.text ?? 'method', kind, parent,
      ...range(node, node),
      signature: this.signature(node, body),
      docComment: this.doc(node),
      exported: kind === 'function' ? undefined : this.isPublic(node) || parent.kind === 'interface',
    });
    const tps = fieldChild(node, this.f.type_parameters);
    if (tps) for (const p of tps.namedChildren) { const n = fieldChild(p, this.f.name) ?? p.namedChild(0); if (n) (s.typeParams ??= new Set()).add(n.text); }
    const returns = fieldChild(node, this.f.returns) ?? fieldChild(node, this.f.type);
    if (returns) {
      this.typeRefs(returns, s);
      // what a call returns, for `var x = M(); x.N()` (an awaited Task<T> is read as T)
      const ret = unwrapTask(returns);
      this.bindTyped(s, CS_RESULT, ret, true);
    }
    if (node.namedChildren.some((c) => c.type === 'modifier' && c.text === 'static')) this.b.binding(s, CS_STATIC, 'static', true);
    // an extension method: the type its `this` parameter extends
    const first = (fieldChild(node, this.f.parameters) ?? node.namedChildren.find((c) => c.type === 'parameter_list'))?.namedChildren.find((c) => c.type === 'parameter');
    if (first && /^this\s/.test(first.text.replace(/^\[[^\]]*\]\s*/, ''))) {
      const pt = fieldChild(first, this.f.type);
      const ptn = pt ? this.typeName(pt) : null;
      if (ptn) this.b.binding(s, CS_EXTENDS, this.b.isTypeParam(s, ptn) ? 'object' : ptn, true);
    }
    for (const c of node.namedChildren) {
      if (c.id === nameNode?.id || c.id === returns?.id || c.type === 'type_parameter_list') continue;
      this.walk(c, s);
    }
  }

  private property(node: SyntaxNode, parent: ScopeDraft): void {
    const nameNode = fieldChild(node, this.f.name);
    const type = fieldChild(node, this.f.type);
    const accessors = fieldChild(node, this.f.accessors);
    let sig = this.content.slice(this.sigStart(node), nameNode ? nameNode.endIndex : node.endIndex);
    if (accessors) {
      const kinds = accessors.namedChildren
        .filter((a) => a.type === 'accessor_declaration')
        .map((a) => a.text.replace(/\s*(\{[\s\S]*|=>[\s\S]*|;)\s*$/, '').trim());
      sig += ` { ${kinds.map((k) => `${k};`).join(' ')} }`;
    }
    const s = this.b.addScope({
      name: nameNode?.text ?? 'property', kind: 'property', parent,
      ...range(node, node),
      signature: sig,
      docComment: this.doc(node),
      exported: this.isPublic(node) || parent.kind === 'interface',
    });
    if (type) {
      this.typeRefs(type, s);
      if (nameNode) this.bindTyped(parent, nameNode.text, type, true);
    }
    for (const c of node.namedChildren) {
      if (c.id === nameNode?.id || c.id === type?.id || c.type === 'modifier') continue;
      this.walk(c, s);
    }
  }

  private variableDeclaration(decl: SyntaxNode, scope: ScopeDraft, member: boolean): void {
    const type = fieldChild(decl, this.f.type);
    const explicit = type && type.type !== 'implicit_type' ? type : null;
    if (explicit) this.typeRefs(explicit, scope);
    for (const d of decl.namedChildren) {
      if (d.type !== 'variable_declarator') continue;
      const nameNode = fieldChild(d, this.f.name) ?? d.namedChild(0);
      let inferred: string | null = null;
      for (const c of d.namedChildren) {
        if (c.id === nameNode?.id) continue;
        const v = c.type === 'equals_value_clause' ? c.namedChild(0) : c;
        if (!explicit && !inferred && v) inferred = this.exprType(v);
        this.walk(c, scope);
      }
      if (!nameNode) continue;
      if (explicit) this.bindTyped(scope, nameNode.text, explicit, member);
      else if (inferred) this.b.binding(scope, nameNode.text, inferred, member);
    }
  }

  /** `foreach (T x in e)` / `foreach (var x in e)` (x: e's element), `o is T x`, `out T x`. */
  private bindDeclared(node: SyntaxNode, type: SyntaxNode | null, scope: ScopeDraft): void {
    const name = fieldChild(node, node.type === 'foreach_statement' ? this.f.left : this.f.name);
    if (!type || name?.type !== 'identifier') return;
    if (type.type !== 'implicit_type') {
      this.b.binding(scope, name.text, this.typeName(type) ?? '', false);
      return;
    }
    if (node.type !== 'foreach_statement') return;
    const right = fieldChild(node, this.f.right);
    const coll = right ? this.exprType(right) : null;
    if (coll?.startsWith('=')) this.b.binding(scope, name.text, `${coll}[]`, false);
  }

  /**
   * Binds `name` to a declared type, and `name[]` to its element type (`List<Foo>`, `Foo[]`,
   * `IEnumerable<Foo>`: Foo) so `foreach (var x in name)` knows x.
   */
  private bindTyped(scope: ScopeDraft, name: string, type: SyntaxNode, member: boolean): void {
    const tn = this.typeName(type);
    if (!tn) return;
    this.b.binding(scope, name, tn, member);
    const elem = this.elementType(type);
    if (elem) this.b.binding(scope, `${name}[]`, elem, member);
  }

  private elementType(type: SyntaxNode): string | null {
    if (type.type === 'nullable_type') return type.namedChild(0) ? this.elementType(type.namedChild(0)!) : null;
    if (type.type === 'array_type') {
      const inner = fieldChild(type, this.f.type) ?? type.namedChild(0);
      return inner ? this.typeName(inner) : null;
    }
    const generic = type.type === 'generic_name' ? type : type.type === 'qualified_name' ? type.namedChildren.find((c) => c.type === 'generic_name') : null;
    const args = generic?.namedChildren.find((c) => c.type === 'type_argument_list')?.namedChildren ?? [];
    // the last type argument: a list's item, a dictionary's value
    return args.length ? this.typeName(args[args.length - 1]) : null;
  }

  /**
   * The type of an initializer, as a binding: a type name (`new T()`, `(T)e`, `e as T`) or an
   * expression the resolver types later (`=a.B()`: what B returns; `=a.b`: b's type).
   */
  private exprType(v: SyntaxNode, depth = 0): string | null {
    if (depth > 4) return null;
    switch (v.type) {
      case 'object_creation_expression':
      case 'cast_expression': {
        const t = fieldChild(v, this.f.type);
        return t ? this.typeName(t) : null;
      }
      case 'as_expression': {
        const t = fieldChild(v, this.f.right);
        return t ? this.typeName(t) : null;
      }
      case 'await_expression':
      case 'parenthesized_expression':
      case 'checked_expression':
        return v.namedChild(0) ? this.exprType(v.namedChild(0)!, depth + 1) : null;
      case 'invocation_expression': {
        const fn = fieldChild(v, this.f.function);
        const c = fn ? this.chain(fn) : null;
        return c ? `=${c}()` : null;
      }
      case 'lambda_expression':
      case 'anonymous_method_expression':
        return 'Delegate';
      case 'identifier':
      case 'member_access_expression':
      case 'conditional_access_expression': {
        const c = this.chain(v);
        return c ? `=${c}` : null;
      }
      default:
        return null;
    }
  }

  private usingDirective(node: SyntaxNode): void {
    const text = node.text;
    const isStatic = /^\s*(?:global\s+)?using\s+static\b/.test(text);
    const alias = fieldChild(node, this.f.name);
    let target: SyntaxNode | null = null;
    for (const c of node.namedChildren) {
      if (c.id === alias?.id) continue;
      if (c.type === 'qualified_name' || c.type === 'identifier' || c.type === 'generic_name' || c.type === 'alias_qualified_name') target = c;
    }
    if (!target) return;
    const spec = target.text.replace(/\s+/g, '').replace(/^global::/, '');
    const imp: RawImport = {
      fromPath: this.b.path,
      specifier: spec,
      names: [{ imported: '*', local: alias ? alias.text : '*' }],
      isNamespace: true,
      line: startLine(node),
    };
    if (isStatic) imp.isStatic = true;
    this.b.imports.push(imp);
  }

  // ---------------------------------------------------------------- references

  private walkCallee(fn: SyntaxNode, scope: ScopeDraft, named: boolean): void {
    // Record generic arguments and anything computed (`GetRepo().Save()` -> GetRepo).
    if (fn.type === 'member_access_expression') {
      const expr = fieldChild(fn, this.f.expression);
      const name = fieldChild(fn, this.f.name);
      if (expr && (!named || expr.type === 'invocation_expression' || expr.type === 'object_creation_expression')) this.walk(expr, scope);
      else if (expr?.type === 'generic_name') this.typeArgs(expr, scope);
      if (name) this.typeArgs(name, scope);
    } else if (fn.type === 'generic_name') {
      this.typeArgs(fn, scope);
    } else if (fn.type === 'conditional_access_expression') {
      const cond = fieldChild(fn, this.f.condition);
      if (cond && !named) this.walk(cond, scope);
    } else if (!named) {
      this.walk(fn, scope);
    }
  }

  /** `a.b.C`, `this.x.Y`, `base.M`, `Foo<T>.Bar`, `a?.B` -> dotted name; null when computed. */
  private chain(node: SyntaxNode, depth = 0): string | null {
    if (depth > MAX_CHAIN) return null;
    switch (node.type) {
      case 'identifier':
        return node.text;
      case 'generic_name':
        return node.namedChild(0)?.text ?? null;
      case 'this_expression':
      case 'this':
        return 'this';
      case 'base_expression':
      case 'base':
        return 'base';
      case 'predefined_type':
        return node.text;
      case 'qualified_name':
      case 'alias_qualified_name':
        return node.text.replace(/\s+/g, '').replace(/^global::/, '').replace(/<[^>]*>/g, '');
      case 'member_access_expression': {
        const name = fieldChild(node, this.f.name);
        const expr = fieldChild(node, this.f.expression) ?? node.child(0);
        if (!name || !expr) return null;
        const o = this.chain(expr, depth + 1);
        const n = name.type === 'generic_name' ? name.namedChild(0)?.text : name.text;
        return o && n ? `${o}.${n}` : null;
      }
      case 'conditional_access_expression': {
        const cond = fieldChild(node, this.f.condition);
        const binding = node.namedChildren.find((c) => c.type === 'member_binding_expression');
        const name = binding ? fieldChild(binding, this.f.name) : null;
        if (!cond || !name) return null;
        const o = this.chain(cond, depth + 1);
        const n = name.type === 'generic_name' ? name.namedChild(0)?.text : name.text;
        return o && n ? `${o}.${n}` : null;
      }
      case 'parenthesized_expression': {
        const inner = node.namedChild(0);
        return inner ? this.chain(inner, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  /** REFERENCES for every type name inside a type node (generic arguments included). */
  private typeRefs(node: SyntaxNode, scope: ScopeDraft): void {
    switch (node.type) {
      case 'identifier':
        if (!this.b.isTypeParam(scope, node.text)) this.b.ref(scope, 'REFERENCES', node.text, startLine(node));
        return;
      case 'qualified_name':
      case 'alias_qualified_name': {
        const n = this.chain(node);
        if (n) this.b.ref(scope, 'REFERENCES', n, startLine(node));
        this.typeArgs(node, scope);
        return;
      }
      case 'generic_name': {
        const id = node.namedChild(0);
        if (id && !this.b.isTypeParam(scope, id.text)) this.b.ref(scope, 'REFERENCES', id.text, startLine(node));
        this.typeArgs(node, scope);
        return;
      }
      case 'predefined_type':
      case 'implicit_type':
      case 'comment':
        return;
      default:
        for (const c of node.namedChildren) this.typeRefs(c, scope);
    }
  }

  /** Type arguments (`<Invoice, Customer>`) anywhere below `node`, without the generic name itself. */
  private typeArgs(node: SyntaxNode, scope: ScopeDraft): void {
    if (node.type === 'type_argument_list') {
      for (const c of node.namedChildren) this.typeRefs(c, scope);
      return;
    }
    for (const c of node.namedChildren) {
      if (c.type === 'type_argument_list' || c.type === 'generic_name' || c.type === 'qualified_name') this.typeArgs(c, scope);
    }
  }

  /** Name of a declared type for bindings / base lists / `new`: generics and nullability stripped. */
  private typeName(node: SyntaxNode): string | null {
    switch (node.type) {
      case 'identifier':
        return node.text;
      case 'generic_name':
        return node.namedChild(0)?.text ?? null;
      case 'qualified_name':
      case 'alias_qualified_name':
        return this.chain(node);
      case 'nullable_type': {
        const inner = node.namedChild(0);
        return inner ? this.typeName(inner) : null;
      }
      case 'predefined_type':
        return node.text;
      case 'array_type':
        return 'Array';
      default:
        return null;
    }
  }

  // ---------------------------------------------------------------- SQL in strings

  private stringText(node: SyntaxNode): string {
    const raw = node.text;
    switch (node.type) {
      case 'string_literal':
        return raw.replace(/^"/, '').replace(/"(?:u8)?$/, '').replace(/\\(["\\'])/g, '$1').replace(/\\[nrt]/g, ' ');
      case 'verbatim_string_literal':
        return raw.replace(/^@"/, '').replace(/"$/, '').replace(/""/g, '"');
      case 'raw_string_literal':
        return raw.replace(/^"{3,}/, '').replace(/"{3,}$/, '');
      case 'interpolated_string_expression': {
        let out = '';
        for (const c of node.namedChildren) {
          if (c.type === 'interpolation') out += ' 0 ';
          else if (c.type !== 'interpolation_start' && c.type !== 'interpolation_quote') out += c.text;
        }
        return out;
      }
      default:
        return raw;
    }
  }

  private sqlString(node: SyntaxNode, text: string, scope: ScopeDraft): void {
    const refs = sqlRefsInString(text, this.inSqlContext(node));
    if (!refs.length) return;
    const base = startLine(node);
    for (const r of refs) this.b.ref(scope, 'REFERENCES', r.name, base + r.line - 1, 'sql');
  }

  /** `new SqlCommand("..")`, `cmd.CommandText = ".."`, `conn.Query<T>("..")`, `[Table("..")]`. */
  private inSqlContext(node: SyntaxNode): boolean {
    let n: SyntaxNode | null = node.parent;
    for (let depth = 0; n && depth < 4; depth++, n = n.parent) {
      switch (n.type) {
        case 'object_creation_expression': {
          const type = fieldChild(n, this.f.type);
          const tn = type ? this.typeName(type) : null;
          return !!tn && /(?:Command|DataAdapter)$/.test(tn);
        }
        case 'invocation_expression': {
          const fn = fieldChild(n, this.f.function);
          const name = fn ? this.chain(fn) : null;
          return !!name && SQL_CALL.test(name.slice(name.lastIndexOf('.') + 1));
        }
        case 'assignment_expression': {
          const left = fieldChild(n, this.f.left);
          const name = left ? this.chain(left) : null;
          return !!name && /(?:CommandText|Sql|Query|ProcedureName|ProcName)$/i.test(name);
        }
        case 'attribute': {
          const name = fieldChild(n, this.f.name)?.text ?? '';
          return /(?:^|\.)(?:Table|TableAttribute|StoredProcedure|Procedure)$/.test(name);
        }
        case 'variable_declarator': {
          const name = (fieldChild(n, this.f.name) ?? n.namedChild(0))?.text ?? '';
          return /(?:sql|query|proc|procedure|command)(?:name|text)?$/i.test(name);
        }
        case 'block':
        case 'method_declaration':
        case 'class_declaration':
          return false;
        default:
      }
    }
    return false;
  }

  /** `"SELECT * " + "FROM dbo.Invoice"`: analyse the concatenated literal parts as one string. */
  private concatenation(node: SyntaxNode, scope: ScopeDraft): boolean {
    if (fieldChild(node, this.f.operator)?.type !== '+' && node.child(1)?.type !== '+') return false;
    const parts: SyntaxNode[] = [];
    const flatten = (n: SyntaxNode): void => {
      if (n.type === 'binary_expression' && (fieldChild(n, this.f.operator)?.type === '+' || n.child(1)?.type === '+')) {
        const l = fieldChild(n, this.f.left);
        const r = fieldChild(n, this.f.right);
        if (l) flatten(l);
        if (r) flatten(r);
      } else parts.push(n);
    };
    flatten(node);
    if (!parts.some((p) => STRING_NODES.has(p.type))) return false;
    let text = '';
    for (const p of parts) {
      if (STRING_NODES.has(p.type)) text += this.stringText(p);
      else {
        text += ' 0 ';
        this.walk(p, scope);
      }
      if (p.type === 'interpolated_string_expression') {
        for (const c of p.namedChildren) if (c.type === 'interpolation') this.walkChildren(c, scope);
      }
    }
    this.sqlString(node, text, scope);
    return true;
  }

  // ---------------------------------------------------------------- helpers

  private sigStart(node: SyntaxNode): number {
    for (const c of node.children) {
      if (c.type === 'attribute_list' || c.type === 'comment') continue;
      return c.startIndex;
    }
    return node.startIndex;
  }

  private signature(node: SyntaxNode, body: SyntaxNode | null): string {
    const end = body ? body.startIndex : node.endIndex;
    return this.content.slice(this.sigStart(node), end).replace(/[;{]\s*$/, '');
  }

  private isPublic(node: SyntaxNode): boolean {
    for (const c of node.namedChildren) {
      if (c.type === 'modifier' && c.text === 'public') return true;
    }
    return false;
  }

  private doc(node: SyntaxNode): string | null {
    const comments = precedingComments(node, true);
    if (!comments.length) return null;
    const last = comments[comments.length - 1];
    if (last.endPosition.row < node.startPosition.row - 1) return null;
    if (last.text.startsWith('/**')) return cleanBlockComment(last.text);
    const xml: string[] = [];
    for (let i = comments.length - 1; i >= 0 && comments[i].text.startsWith('///'); i--) xml.unshift(comments[i].text);
    return xml.length ? cleanXmlDoc(xml) : null;
  }
}

function isTypeScope(s: ScopeDraft): boolean {
  return s.kind === 'class' || s.kind === 'interface' || s.kind === 'struct' || s.kind === 'record';
}

function range(startNode: SyntaxNode, endNode: SyntaxNode) {
  return {
    startIndex: startNode.startIndex,
    endIndex: endNode.endIndex,
    startLine: startLine(startNode),
    endLine: endLine(endNode),
  };
}
