import { cleanBlockComment } from '../../parse/doc-comments';
import { endLine, fieldChild, fieldTable, LanguageExtractor, nodeText, startLine, SyntaxNode, Tree } from '../../parse/extractor';
import type { FileBuilder, ScopeDraft } from '../../parse/file-builder';
import type { Language, ScopeKind } from '../../parse/types';

const FIELDS = fieldTable([
  'alias', 'arguments', 'body', 'default_value', 'function', 'left', 'name', 'object', 'parameters', 'prefix', 'return_type',
  'right', 'scope', 'type', 'value',
] as const);

const TYPE_DECLS: Record<string, ScopeKind> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  trait_declaration: 'trait',
  enum_declaration: 'enum',
};
const CALLS = new Set(['member_call_expression', 'nullsafe_member_call_expression', 'scoped_call_expression', 'function_call_expression']);
const MAX_CHAIN = 6;
/** Right-hand sides whose value's class the resolver can follow (`$x = $this->repo`, `$x = A::make()`). */
const CHAINED = new Set(['member_access_expression', 'nullsafe_member_access_expression', 'member_call_expression', 'nullsafe_member_call_expression', 'scoped_call_expression']);
/** PHPDoc `@var Type`, `@param Type $name`, `@return Type` (a single class name, not a union or generic). */
const DOC_VAR = /@var\s+\??(\\?[A-Za-z_][\w\\]*)(?![\w\\|<\[])/;
const DOC_PARAM = /@param\s+\??(\\?[A-Za-z_][\w\\]*)\s+(?:\.\.\.)?\$(\w+)/g;
const DOC_RETURN = /@return\s+\??(\\?[A-Za-z_][\w\\]*)(?![\w\\|<\[])/;
const SCALARS = new Set([
  'int', 'float', 'string', 'bool', 'array', 'mixed', 'void', 'null', 'callable', 'iterable', 'object', 'never', 'false',
  'true', 'resource', 'integer', 'boolean', 'double', 'number', 'list',
]);
/** Binding name that holds a method's declared return type (`(): Repo`, `@return Repo`). */
export const RETURNS = '()';

/**
 * PHP (the grammar with inline HTML).
 *
 * Scopes: namespaces (`namespace A\B;` to the end of the file or the next namespace, and block
 * form), classes, interfaces, traits (`trait`), enums, methods (`__construct` is the `constructor`),
 * properties (promoted constructor parameters too), class constants and enum cases (`variable`),
 * functions. Qualified names include the namespace with `\` written as `.` (C#'s convention):
 * `App.Billing.InvoiceService.create`. `/** *\/` PHPDoc directly above is the doc comment.
 * `exported`: public members (no modifier is public), every type and function.
 *
 * References: `$this->m()` -> `this.m`, `$this->repo->save()` -> `this.repo.save`, `$x->m()` ->
 * `$x.m`, `self::m()`/`static::m()`/`parent::m()` -> `self.m`..., `A\B::m()` -> `A.B.m`, a fully
 * qualified `\A\B::m()` keeps its leading `\` (`\A.B.m`), `new A()` -> `A.__construct`, `f()` -> `f`,
 * `$f()` -> `$f` (dynamic). `extends` EXTENDS, `implements` IMPLEMENTS, `use Trait;` in a class
 * IMPLEMENTS. Types in signatures, `instanceof`, `catch`, `A::class`, `A::CONST` REFERENCES.
 * Imports: `use A\B\C [as D];` (specifier `A.B.C`, names [{ imported: 'class', local: 'D' }];
 * `use function`/`use const` put `function`/`const` in `imported`), group uses, and
 * `require`/`include` of a literal path (`__DIR__ . '/x.php'` -> `./x.php`; names []).
 * Bindings: typed parameters and properties, promoted parameters, `$x = new A()`,
 * `$this->x = new A()`, PHPDoc `@var`/`@param`, and a method's return type (binding `()`).
 */
export class PhpExtractor implements LanguageExtractor {
  readonly languages: readonly Language[] = ['php'];
  readonly usesTreeSitter = true;

  extract(builder: FileBuilder, tree: Tree | null): void {
    if (!tree) return;
    new PhpWalker(builder, FIELDS(tree.language)).run(tree.rootNode);
  }
}

interface Ctx {
  scope: ScopeDraft;
  /** Innermost class-like declaration. */
  type: ScopeDraft | null;
  /** Namespace prefix with a trailing dot ('' in the global namespace). */
  ns: string;
}

class PhpWalker {
  private readonly content: string;

  constructor(private readonly b: FileBuilder, private readonly f: ReturnType<typeof FIELDS>) {
    this.content = b.content;
  }

  private text(n: SyntaxNode): string {
    return nodeText(this.content, n);
  }

  run(root: SyntaxNode): void {
    let ctx: Ctx = { scope: this.b.file, type: null, ns: '' };
    const children = root.namedChildren;
    for (let i = 0; i < children.length; i++) {
      const c = children[i];
      if (c.type === 'namespace_definition' && !fieldChild(c, this.f.body)) {
        // statement form: the namespace runs to the next namespace statement or the end of the file
        const name = this.nsName(c);
        let end = children.length;
        for (let j = i + 1; j < children.length; j++) if (children[j].type === 'namespace_definition') { end = j; break; }
        const last = children[end - 1];
        const s = this.b.addScope({
          name: name.slice(name.lastIndexOf('.') + 1) || name, qualifiedName: name, kind: 'namespace', parent: this.b.file,
          startIndex: c.startIndex, endIndex: last.endIndex, startLine: startLine(c), endLine: endLine(last),
          signature: `namespace ${name.replace(/\./g, '\\')}`, docComment: null,
        });
        ctx = { scope: s, type: null, ns: `${name}.` };
        continue;
      }
      this.walk(c, ctx);
    }
  }

  private nsName(node: SyntaxNode): string {
    const n = fieldChild(node, this.f.name);
    return n ? this.text(n).replace(/\s+/g, '').replace(/\\/g, '.') : '';
  }

  private body(node: SyntaxNode, ctx: Ctx): void {
    for (const c of node.namedChildren) this.walk(c, ctx);
  }

  private walk(node: SyntaxNode, ctx: Ctx): void {
    const t = node.type;
    const kind = TYPE_DECLS[t];
    if (kind) {
      this.typeDecl(node, kind, ctx);
      return;
    }
    if (CALLS.has(t)) {
      this.call(node, ctx);
      return;
    }
    switch (t) {
      case 'comment':
      case 'text':
      case 'php_tag':
      case 'name':
      case 'string_content':
      case 'integer':
      case 'float':
      case 'boolean':
      case 'null':
      case 'primitive_type':
      case 'variable_name':
        return;
      case 'namespace_definition': {
        const name = this.nsName(node);
        const body = fieldChild(node, this.f.body);
        const s = name ? this.b.addScope({
          name: name.slice(name.lastIndexOf('.') + 1), qualifiedName: name, kind: 'namespace', parent: this.b.file,
          ...range(node), signature: `namespace ${name.replace(/\./g, '\\')}`, docComment: null,
        }) : this.b.file;
        if (body) this.body(body, { scope: s, type: null, ns: name ? `${name}.` : '' });
        return;
      }
      case 'namespace_use_declaration':
        this.useDeclaration(node);
        return;
      case 'function_definition':
      case 'method_declaration':
        this.func(node, ctx);
        return;
      case 'property_declaration':
        this.property(node, ctx);
        return;
      case 'const_declaration':
        if (ctx.type) {
          for (const el of node.namedChildren) {
            if (el.type !== 'const_element') continue;
            const n = el.namedChildren.find((c) => c.type === 'name');
            if (!n) continue;
            const s = this.addMember(ctx, this.text(n), 'variable', el, `const ${this.text(el)}`.slice(0, 200), this.doc(node), this.isPublic(node));
            for (const c of el.namedChildren) if (c.id !== n.id) this.walk(c, { ...ctx, scope: s });
          }
          return;
        }
        this.body(node, ctx);
        return;
      case 'enum_case': {
        const n = fieldChild(node, this.f.name);
        if (n && ctx.type) this.addMember(ctx, this.text(n), 'variable', node, this.text(node).replace(/;\s*$/, ''), this.doc(node), true);
        return;
      }
      case 'use_declaration':
        // `use TraitA, TraitB { ... }` inside a class body
        if (ctx.type) {
          for (const c of node.namedChildren) {
            if (c.type === 'name' || c.type === 'qualified_name') this.b.ref(ctx.type, 'IMPLEMENTS', this.className(c), startLine(c));
          }
        }
        return;
      case 'object_creation_expression': {
        const cls = node.namedChildren.find((c) => c.type === 'name' || c.type === 'qualified_name' || c.type === 'relative_scope');
        if (cls) this.b.ref(ctx.scope, 'CALLS', `${this.className(cls)}.__construct`, startLine(node));
        for (const c of node.namedChildren) if (c.id !== cls?.id) this.walk(c, ctx);
        return;
      }
      case 'anonymous_class': {
        // its members run in the enclosing scope's name
        for (const c of node.namedChildren) {
          if (c.type === 'base_clause' || c.type === 'class_interface_clause') this.typeRefs(c, ctx);
          else if (c.type === 'declaration_list') {
            for (const m of c.namedChildren) {
              const body = fieldChild(m, this.f.body);
              if (m.type === 'method_declaration' && body) this.walk(body, ctx);
            }
          } else this.walk(c, ctx);
        }
        return;
      }
      case 'assignment_expression':
        this.assignment(node, ctx);
        return;
      case 'arrow_function':
      case 'anonymous_function': {
        // a closure's typed parameters type its body's receivers (bound in the enclosing scope)
        const params = fieldChild(node, this.f.parameters);
        for (const p of params?.namedChildren ?? []) {
          const pn = fieldChild(p, this.f.name);
          const type = fieldChild(p, this.f.type);
          const tn = type ? this.typeName(type) : null;
          if (type) this.typeRefs(type, ctx);
          if (pn && tn && ctx.scope.kind !== 'file' && ctx.scope.kind !== 'namespace') this.b.binding(ctx.scope, this.text(pn), tn, false);
        }
        for (const c of node.namedChildren) if (c.id !== params?.id) this.walk(c, ctx);
        return;
      }
      case 'class_constant_access_expression':
      case 'scoped_property_access_expression': {
        const scope = node.namedChild(0);
        if (scope && (scope.type === 'name' || scope.type === 'qualified_name')) this.b.ref(ctx.scope, 'REFERENCES', this.className(scope), startLine(node));
        else if (scope) this.walk(scope, ctx);
        return;
      }
      case 'binary_expression': {
        // `$x instanceof Foo`
        const right = fieldChild(node, this.f.right);
        if (right && (right.type === 'name' || right.type === 'qualified_name') && /\binstanceof\b/.test(this.content.slice(node.startIndex, right.startIndex))) {
          this.b.ref(ctx.scope, 'REFERENCES', this.className(right), startLine(right));
          const left = fieldChild(node, this.f.left);
          if (left) this.walk(left, ctx);
          return;
        }
        this.body(node, ctx);
        return;
      }
      case 'catch_clause': {
        const type = fieldChild(node, this.f.type);
        if (type) this.typeRefs(type, ctx);
        for (const c of node.namedChildren) if (c.id !== type?.id) this.walk(c, ctx);
        return;
      }
      case 'require_expression':
      case 'require_once_expression':
      case 'include_expression':
      case 'include_once_expression':
        this.include(node);
        return;
      case 'attribute_list':
        for (const g of node.namedChildren) for (const a of g.namedChildren) {
          const args = fieldChild(a, this.f.parameters);
          if (args) this.walk(args, ctx);
        }
        return;
      default:
        this.body(node, ctx);
    }
  }

  // ---------------------------------------------------------------- declarations

  private typeDecl(node: SyntaxNode, kind: ScopeKind, ctx: Ctx): void {
    const nameNode = fieldChild(node, this.f.name);
    const name = nameNode ? this.text(nameNode) : 'type';
    const body = fieldChild(node, this.f.body);
    const s = this.b.addScope({
      name, kind, parent: ctx.scope, qualifiedName: `${ctx.ns}${name}`,
      ...range(node),
      signature: this.signature(node, body),
      docComment: this.doc(node),
      exported: true,
    });
    const inner: Ctx = { scope: s, type: s, ns: ctx.ns };
    for (const c of node.namedChildren) {
      if (c.type === 'base_clause') {
        for (const base of c.namedChildren) if (base.type === 'name' || base.type === 'qualified_name') this.b.ref(s, 'EXTENDS', this.className(base), startLine(base));
      } else if (c.type === 'class_interface_clause') {
        for (const base of c.namedChildren) if (base.type === 'name' || base.type === 'qualified_name') this.b.ref(s, 'IMPLEMENTS', this.className(base), startLine(base));
      } else if (c.type === 'attribute_list') this.walk(c, inner);
    }
    if (body) this.body(body, inner);
  }

  private func(node: SyntaxNode, ctx: Ctx): void {
    const nameNode = fieldChild(node, this.f.name);
    const name = nameNode ? this.text(nameNode) : 'function';
    const body = fieldChild(node, this.f.body);
    const inType = node.type === 'method_declaration' && ctx.type;
    const kind: ScopeKind = !inType ? 'function' : name.toLowerCase() === '__construct' ? 'constructor' : 'method';
    const doc = this.doc(node);
    const s = this.addMember(ctx, name, kind, node, this.signature(node, body), doc, inType ? this.isPublic(node) : true, inType ? undefined : `${ctx.ns}${name}`);
    const inner: Ctx = { scope: s, type: ctx.type, ns: ctx.ns };
    const params = fieldChild(node, this.f.parameters);
    const docTypes = new Map<string, string>();
    if (doc) for (const m of doc.matchAll(DOC_PARAM)) if (!SCALARS.has(m[1].toLowerCase())) docTypes.set(m[2], m[1]);
    if (params) {
      for (const p of params.namedChildren) {
        const pn = fieldChild(p, this.f.name);
        const type = fieldChild(p, this.f.type);
        const pname = pn ? this.text(pn).replace(/^\$/, '') : '';
        if (type) this.typeRefs(type, inner);
        // PHPDoc names the narrower class (`@param Link $node` on `Node $node`), as static analysers read it
        const tn = docTypes.get(pname) ?? (type && this.typeName(type)) ?? null;
        if (pname && tn) this.b.binding(s, `$${pname}`, this.dotted(tn), false);
        if (p.type === 'property_promotion_parameter' && ctx.type && pname) {
          this.addMember({ ...ctx, scope: ctx.type }, pname, 'property', p, this.text(p), null, this.isPublic(p, 'visibility_modifier'));
          if (tn) this.b.binding(ctx.type, pname, this.dotted(tn), true);
        }
        const def = fieldChild(p, this.f.default_value);
        if (def) this.walk(def, inner);
        for (const c of p.namedChildren) if (c.type === 'attribute_list') this.walk(c, inner);
      }
    }
    const ret = fieldChild(node, this.f.return_type);
    if (ret) this.typeRefs(ret, inner);
    const rt = (ret && this.typeName(ret)) ?? (doc ? DOC_RETURN.exec(doc)?.[1] ?? null : null);
    if (rt && !SCALARS.has(rt.toLowerCase())) this.b.binding(s, RETURNS, this.dotted(rt), false);
    for (const c of node.namedChildren) if (c.type === 'attribute_list') this.walk(c, inner);
    if (body) this.walk(body, inner);
  }

  private property(node: SyntaxNode, ctx: Ctx): void {
    if (!ctx.type) return;
    const type = fieldChild(node, this.f.type);
    const doc = this.doc(node);
    if (type) this.typeRefs(type, ctx);
    const tn = (type && this.typeName(type)) ?? (doc ? DOC_VAR.exec(doc)?.[1] ?? null : null);
    const header = this.content.slice(this.sigStart(node), node.endIndex).replace(/;\s*$/, '');
    for (const el of node.namedChildren) {
      if (el.type !== 'property_element') continue;
      const n = fieldChild(el, this.f.name);
      if (!n) continue;
      const name = this.text(n).replace(/^\$/, '');
      const s = this.addMember(ctx, name, 'property', node, header, doc, this.isPublic(node));
      if (tn && !SCALARS.has(tn.toLowerCase())) this.b.binding(ctx.type, name, this.dotted(tn), true);
      const def = fieldChild(el, this.f.default_value);
      if (def) this.walk(def, { ...ctx, scope: s });
    }
  }

  private addMember(ctx: Ctx, name: string, kind: ScopeKind, node: SyntaxNode, signature: string, doc: string | null, exported: boolean, qualifiedName?: string): ScopeDraft {
    return this.b.addScope({
      name, kind, parent: ctx.scope, qualifiedName: qualifiedName ?? this.b.qualify(ctx.scope, name),
      ...range(node), signature, docComment: doc, exported,
    });
  }

  private assignment(node: SyntaxNode, ctx: Ctx): void {
    const left = fieldChild(node, this.f.left);
    const right = fieldChild(node, this.f.right);
    if (left && right) {
      // `new A()` -> A; `$this->repo`, `$x->make()`, `A::create()` -> the chain, typed by the resolver
      const cls = right.type === 'object_creation_expression' ? right.namedChildren.find((c) => c.type === 'name' || c.type === 'qualified_name') : null;
      const tn = cls ? this.className(cls) : CHAINED.has(right.type) ? this.chain(right) : null;
      if (tn && left.type === 'variable_name') {
        // a script's top-level variables belong to the file
        this.b.binding(ctx.scope.kind === 'namespace' ? this.b.file : ctx.scope, this.text(left), tn, false);
      } else if (tn && left.type === 'member_access_expression' && ctx.type) {
        const obj = fieldChild(left, this.f.object);
        const name = fieldChild(left, this.f.name);
        if (obj && name && this.text(obj) === '$this') this.b.binding(ctx.type, this.text(name), tn, true);
      }
    }
    if (left && left.type !== 'variable_name') this.walk(left, ctx);
    if (right) this.walk(right, ctx);
  }

  private useDeclaration(node: SyntaxNode): void {
    const head = this.content.slice(node.startIndex, node.endIndex);
    const what = /^use\s+function\b/i.test(head) ? 'function' : /^use\s+const\b/i.test(head) ? 'const' : 'class';
    const prefixNode = node.namedChildren.find((c) => c.type === 'namespace_name');
    const prefix = prefixNode ? `${this.text(prefixNode).replace(/\s+/g, '').replace(/^\\/, '').replace(/\\/g, '.')}.` : '';
    const clauses = node.namedChildren.flatMap((c) => (c.type === 'namespace_use_group' ? c.namedChildren : [c])).filter((c) => c.type === 'namespace_use_clause');
    for (const cl of clauses) {
      const alias = fieldChild(cl, this.f.alias);
      const target = cl.namedChildren.find((c) => c.id !== alias?.id && (c.type === 'name' || c.type === 'qualified_name'));
      if (!target) continue;
      const clauseText = this.content.slice(cl.startIndex, target.startIndex);
      const kind = /\bfunction\b/.test(clauseText) ? 'function' : /\bconst\b/.test(clauseText) ? 'const' : what;
      const fq = `${prefix}${this.text(target).replace(/\s+/g, '').replace(/^\\/, '').replace(/\\/g, '.')}`;
      const local = alias ? this.text(alias) : fq.slice(fq.lastIndexOf('.') + 1);
      this.b.imports.push({ fromPath: this.b.path, specifier: fq, names: [{ imported: kind, local }], line: startLine(cl) });
    }
  }

  private include(node: SyntaxNode): void {
    const arg = node.namedChild(0);
    if (!arg) return;
    let spec: string | null = null;
    const lit = (n: SyntaxNode) => (n.type === 'string' && n.namedChildren.every((c) => c.type === 'string_content') ? n.namedChildren.map((c) => this.text(c)).join('') : null);
    if (arg.type === 'string') spec = lit(arg);
    else if (arg.type === 'binary_expression') {
      const l = fieldChild(arg, this.f.left);
      const r = fieldChild(arg, this.f.right);
      const tail = r ? lit(r) : null;
      const lt = l ? this.text(l).replace(/\s+/g, '') : '';
      if (tail !== null) {
        if (lt === '__DIR__' || lt === 'dirname(__FILE__)') spec = `.${tail.startsWith('/') ? '' : '/'}${tail}`;
        else if (lt === 'dirname(__DIR__)') spec = `..${tail.startsWith('/') ? '' : '/'}${tail}`;
      }
    }
    if (spec) this.b.imports.push({ fromPath: this.b.path, specifier: spec, names: [], line: startLine(node) });
  }

  // ---------------------------------------------------------------- references

  private call(node: SyntaxNode, ctx: Ctx): void {
    const name = this.chain(node);
    if (name) this.b.ref(ctx.scope, 'CALLS', name, startLine(node));
    const inner = fieldChild(node, node.type === 'function_call_expression' ? this.f.function : node.type === 'scoped_call_expression' ? this.f.scope : this.f.object);
    // the receiver's own calls (`$a->b()->c()`), or whatever computes it
    if (inner && (!name || CALLS.has(inner.type) || !this.chain(inner))) this.walk(inner, ctx);
    else if (inner && inner.type === 'member_access_expression') this.walkAccess(inner, ctx);
    const args = fieldChild(node, this.f.arguments);
    if (args) this.walk(args, ctx);
  }

  /** `$this->a->b` as a receiver: calls inside it only. */
  private walkAccess(node: SyntaxNode, ctx: Ctx): void {
    const obj = fieldChild(node, this.f.object);
    if (obj && CALLS.has(obj.type)) this.walk(obj, ctx);
    else if (obj?.type === 'member_access_expression') this.walkAccess(obj, ctx);
  }

  /** Dotted callee/receiver: `this.repo.save`, `$x.m`, `self.m`, `A.B.m`, `\A.B.f`; null when computed. */
  private chain(node: SyntaxNode, depth = 0): string | null {
    if (depth > MAX_CHAIN) return null;
    switch (node.type) {
      case 'variable_name': {
        const v = this.text(node);
        return v === '$this' ? 'this' : v;
      }
      case 'name':
      case 'qualified_name':
        return this.className(node);
      case 'relative_scope':
        return this.text(node).toLowerCase();
      case 'member_access_expression':
      case 'nullsafe_member_access_expression':
      case 'member_call_expression':
      case 'nullsafe_member_call_expression': {
        const obj = fieldChild(node, this.f.object);
        const name = fieldChild(node, this.f.name);
        if (!obj || !name || name.type !== 'name') return null;
        const o = this.chain(obj, depth + 1);
        return o ? `${o}.${this.text(name)}` : null;
      }
      case 'scoped_call_expression': {
        const scope = fieldChild(node, this.f.scope);
        const name = fieldChild(node, this.f.name);
        if (!scope || !name || name.type !== 'name') return null;
        const o = this.chain(scope, depth + 1);
        return o ? `${o}.${this.text(name)}` : null;
      }
      case 'function_call_expression': {
        const fn = fieldChild(node, this.f.function);
        return fn ? this.chain(fn, depth + 1) : null;
      }
      case 'parenthesized_expression': {
        const inner = node.namedChild(0);
        return inner ? this.chain(inner, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  /** `A\B` -> `A.B`; fully qualified `\A\B` -> `\A.B`; `self`/`static`/`parent` lower-cased. */
  private className(node: SyntaxNode): string {
    const raw = this.text(node).replace(/\s+/g, '');
    if (/^(self|static|parent)$/i.test(raw)) return raw.toLowerCase();
    const abs = raw.startsWith('\\');
    const dotted = raw.replace(/^\\/, '').replace(/^namespace\\/i, '').replace(/\\/g, '.');
    return abs ? `\\${dotted}` : dotted;
  }

  /** REFERENCES for the class names inside a type node (unions, nullables, intersections). */
  private typeRefs(node: SyntaxNode, ctx: Ctx): void {
    if (node.type === 'name' || node.type === 'qualified_name') {
      const n = this.className(node);
      if (!SCALARS.has(n.toLowerCase()) && n !== 'self' && n !== 'static' && n !== 'parent') this.b.ref(ctx.scope, 'REFERENCES', n, startLine(node));
      return;
    }
    for (const c of node.namedChildren) this.typeRefs(c, ctx);
  }

  /** The one class a type names (`?Repo`, `Repo`), or null for scalars, unions and intersections. */
  private typeName(node: SyntaxNode): string | null {
    switch (node.type) {
      case 'named_type':
      case 'optional_type': {
        const inner = node.namedChild(0);
        return inner ? this.typeName(inner) : null;
      }
      case 'name':
      case 'qualified_name': {
        const n = this.className(node);
        return SCALARS.has(n.toLowerCase()) ? null : n;
      }
      case 'union_type': {
        // `Repo|null`
        const named = node.namedChildren.filter((c) => c.type !== 'primitive_type');
        return named.length === 1 ? this.typeName(named[0]) : null;
      }
      default:
        return null;
    }
  }

  /** A PHPDoc or declared type name in the references' dotted form. */
  private dotted(typeName: string): string {
    return typeName.includes('\\') ? (typeName.startsWith('\\') ? `\\${typeName.slice(1).replace(/\\/g, '.')}` : typeName.replace(/\\/g, '.')) : typeName;
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
    return this.content.slice(this.sigStart(node), body ? body.startIndex : node.endIndex).replace(/[;{]\s*$/, '');
  }

  private isPublic(node: SyntaxNode, field?: string): boolean {
    for (const c of node.namedChildren) {
      if (c.type === 'visibility_modifier' || (field && c.type === field)) return this.text(c).toLowerCase() === 'public';
    }
    return true;
  }

  /** The `/** *\/` block directly above (attributes may sit between), or inside before the name. */
  private doc(node: SyntaxNode): string | null {
    for (const c of node.children) {
      if (c.type === 'comment') return this.text(c).startsWith('/**') ? cleanBlockComment(this.text(c)) : null;
      if (c.type !== 'attribute_list') break;
    }
    let nextRow = node.startPosition.row;
    for (let s = node.previousNamedSibling; s; s = s.previousNamedSibling) {
      if (s.type === 'attribute_list') {
        nextRow = s.startPosition.row;
        continue;
      }
      if (s.type !== 'comment' || s.endPosition.row < nextRow - 1) return null;
      const t = this.text(s);
      return t.startsWith('/**') ? cleanBlockComment(t) : null;
    }
    return null;
  }
}

function range(node: SyntaxNode) {
  return { startIndex: node.startIndex, endIndex: node.endIndex, startLine: startLine(node), endLine: endLine(node) };
}
