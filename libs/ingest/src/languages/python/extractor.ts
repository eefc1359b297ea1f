import { cleanLineComments, cleanPythonDocstring } from '../../parse/doc-comments';
import { PY_PARAM, PY_VALUE } from './py-unresolved';
import { endLine, fieldChild, fieldTable, LanguageExtractor, nodeText, precedingComments, startLine, SyntaxNode, Tree } from '../../parse/extractor';
import type { FileBuilder, ScopeDraft } from '../../parse/file-builder';
import type { Language, RawImport, ScopeKind } from '../../parse/types';

/** Every field this walker reads, resolved to ids once per grammar (see `fieldTable`). */
const FIELDS = fieldTable([
  'alias', 'attribute', 'body', 'definition', 'function', 'left', 'module_name', 'name', 'object',
  'parameters', 'return_type', 'right', 'superclasses', 'type', 'type_parameters', 'value',
] as const);
const MAX_CHAIN = 6;

/** Node types that may contain statements (and so definitions); everything else is scanned flat. */
const CONTAINERS = new Set([
  'module', 'block', 'if_statement', 'elif_clause', 'else_clause', 'for_statement', 'while_statement', 'try_statement',
  'except_clause', 'except_group_clause', 'finally_clause', 'with_statement', 'match_statement', 'case_clause',
  'ERROR', 'decorated_definition', 'function_definition', 'class_definition', 'expression_statement',
]);
const FLAT_TYPES = ['call', 'type'];

/**
 * Python.
 *
 * Scopes: classes, functions, methods (`__init__` -> constructor), nested functions and classes
 * (`outer.inner`), module-level `name = lambda ...` (function) and `NAME = {...}` (variable).
 * Docstrings are the doc comment (module docstring on the file scope); otherwise a `#` block right above.
 *
 * References: calls (CALLS, incl. decorators and `Foo()` instantiation), base classes (EXTENDS),
 * names in annotations (REFERENCES). Imports: `import a.b [as c]`, `from .m import f [as g]`, `*`.
 */
export class PythonExtractor implements LanguageExtractor {
  readonly languages: readonly Language[] = ['python'];
  readonly usesTreeSitter = true;

  extract(builder: FileBuilder, tree: Tree | null): void {
    if (!tree) return;
    new PyWalker(builder, FIELDS(tree.language)).run(tree.rootNode);
  }
}

class PyWalker {
  private readonly content: string;
  /** Every call and type node of the file, in document order, when the tree has no error (see flatDescendants). */
  private flatNodes: SyntaxNode[] | null = null;
  /** Typed parameters per function scope, to type `self.x = param`. */
  private readonly paramTypes = new Map<ScopeDraft, Map<string, string>>();
  /** Every parameter per function scope, to mark `self.x = param` (./py-unresolved.ts). */
  private readonly paramNames = new Map<ScopeDraft, Set<string>>();

  constructor(
    private readonly b: FileBuilder,
    private readonly f: ReturnType<typeof FIELDS>,
  ) {
    this.content = b.content;
  }

  run(root: SyntaxNode): void {
    if (!root.hasError) this.flatNodes = root.descendantsOfType(FLAT_TYPES);
    this.b.file.docComment = this.docstring(root);
    this.walkChildren(root, this.b.file);
  }

  private walkChildren(node: SyntaxNode, scope: ScopeDraft): void {
    for (const c of node.namedChildren) this.walk(c, scope);
  }

  /** `type` is `node.type` when the caller has read it already (each read is a call into the wasm module). */
  private walk(node: SyntaxNode, scope: ScopeDraft, type: string = node.type): void {
    switch (type) {
      case 'comment':
      case 'integer':
      case 'float':
      case 'true':
      case 'false':
      case 'none':
      case 'identifier':
        return;
      case 'string':
        // Only f-strings can contain code.
        for (const c of node.namedChildren) if (c.type === 'interpolation') this.walk(c, scope, 'interpolation');
        return;
      case 'import_statement':
        this.importStatement(node);
        return;
      case 'import_from_statement':
        this.importFrom(node);
        return;
      case 'future_import_statement':
        return;
      case 'decorated_definition': {
        const def = fieldChild(node, this.f.definition);
        const decorators = node.namedChildren.filter((c) => c.type === 'decorator');
        const defType = def ? def.type : '';
        if (def && defType === 'function_definition') this.functionDef(def, node, scope, decorators);
        else if (def && defType === 'class_definition') this.classDef(def, node, scope, decorators);
        else this.walkChildren(node, scope);
        return;
      }
      case 'function_definition':
        this.functionDef(node, node, scope, []);
        return;
      case 'class_definition':
        this.classDef(node, node, scope, []);
        return;
      case 'expression_statement': {
        // One child list serves both the assignment check and the walk.
        const kids = node.namedChildren;
        const firstType = kids.length ? kids[0].type : '';
        if (firstType === 'assignment' && this.assignment(kids[0], node, scope)) return;
        for (let i = 0; i < kids.length; i++) this.walk(kids[i], scope, i === 0 ? firstType : undefined);
        return;
      }
      case 'call': {
        const fn = fieldChild(node, this.f.function);
        const name = fn ? this.chain(fn) : null;
        if (name) this.b.ref(scope, 'CALLS', name, startLine(node));
        else if (fn) this.walk(fn, scope);
        for (const c of node.namedChildren) if (c.id !== fn?.id) this.walk(c, scope);
        return;
      }
      case 'type':
        this.typeRefs(node, scope);
        return;
      case 'keyword_argument': {
        const v = fieldChild(node, this.f.value);
        if (v) this.walk(v, scope);
        return;
      }
      default:
        if (CONTAINERS.has(type)) this.walkChildren(node, scope);
        else this.flat(node, scope);
    }
  }

  /**
   * Expressions cannot contain definitions in Python: collect their calls and annotations with one
   * native descendant scan instead of walking every node (data-heavy modules have huge literals).
   */
  private flat(node: SyntaxNode, scope: ScopeDraft): void {
    let typeEnd = -1;
    for (const d of this.flatDescendants(node)) {
      if (d.type === 'call') {
        const fn = fieldChild(d, this.f.function);
        const name = fn ? this.chain(fn) : null;
        // `super().m()` is recorded as `super.m` by the outer call
        if (name && !(name === 'super' && d.parent?.type === 'attribute')) this.b.ref(scope, 'CALLS', name, startLine(d));
      } else if (d.startIndex >= typeEnd) {
        this.typeRefs(d, scope);
        typeEnd = d.endIndex;
      }
    }
  }

  /**
   * `node.descendantsOfType(FLAT_TYPES)`. Each such call costs a few microseconds of fixed overhead in
   * the wrapper (it maps type names to symbols over the whole grammar), and a module makes one per
   * simple statement. For an error-free tree the file's calls and types are listed once in {@link run}
   * and each node takes its share: the list is in document order (pre-order, non-decreasing starts),
   * and in an error-free tree calls and types are never empty, so the node's descendants are the
   * entries starting inside it, minus ancestors that start where it starts (a call whose callee is
   * being scanned). Trees with errors (where empty nodes can occur) keep the per-node scan.
   */
  private flatDescendants(node: SyntaxNode): SyntaxNode[] {
    const all = this.flatNodes;
    if (!all) return node.descendantsOfType(FLAT_TYPES);
    const start = node.startIndex;
    const end = node.endIndex;
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (all[mid].startIndex < start) lo = mid + 1;
      else hi = mid;
    }
    const out: SyntaxNode[] = [];
    for (let i = lo; i < all.length; i++) {
      const d = all[i];
      if (d.startIndex >= end) break;
      if (d.startIndex === start && d.endIndex > end) continue;
      out.push(d);
    }
    return out;
  }

  // ---------------------------------------------------------------- declarations

  private functionDef(node: SyntaxNode, outer: SyntaxNode, parent: ScopeDraft, decorators: SyntaxNode[]): ScopeDraft {
    const name = this.textOf(fieldChild(node, this.f.name)) ?? 'lambda';
    const body = fieldChild(node, this.f.body);
    const inClass = parent.kind === 'class';
    const kind: ScopeKind = inClass ? (name === '__init__' ? 'constructor' : 'method') : 'function';
    const s = this.b.addScope({
      name, kind, parent,
      ...range(outer),
      signature: this.content.slice(node.startIndex, body ? body.startIndex : node.endIndex).replace(/:\s*$/, ''),
      docComment: (body && this.docstring(body)) ?? this.hashDoc(outer),
      exported: parent === this.b.file ? !name.startsWith('_') : undefined,
    });
    for (const d of decorators) this.decorator(d, s);
    const params = fieldChild(node, this.f.parameters);
    if (params) this.parameters(params, s);
    const ret = fieldChild(node, this.f.return_type);
    if (ret) this.typeRefs(ret, s);
    const tp = fieldChild(node, this.f.type_parameters);
    if (tp) this.walk(tp, s);
    if (body) this.walkBody(body, s);
    return s;
  }

  private classDef(node: SyntaxNode, outer: SyntaxNode, parent: ScopeDraft, decorators: SyntaxNode[]): ScopeDraft {
    const name = this.textOf(fieldChild(node, this.f.name)) ?? 'class';
    const body = fieldChild(node, this.f.body);
    const s = this.b.addScope({
      name, kind: 'class', parent,
      ...range(outer),
      signature: this.content.slice(node.startIndex, body ? body.startIndex : node.endIndex).replace(/:\s*$/, ''),
      docComment: (body && this.docstring(body)) ?? this.hashDoc(outer),
      exported: parent === this.b.file ? !name.startsWith('_') : undefined,
    });
    for (const d of decorators) this.decorator(d, s);
    const supers = fieldChild(node, this.f.superclasses);
    if (supers) {
      for (const c of supers.namedChildren) {
        const base = c.type === 'subscript' ? fieldChild(c, this.f.value) : c;
        const n = base ? this.chain(base) : null;
        if (n && c.type !== 'keyword_argument') {
          this.b.ref(s, 'EXTENDS', n, startLine(c));
          if (c.type === 'subscript') for (const k of c.namedChildren.slice(1)) this.walk(k, s);
        } else {
          this.walk(c, s);
        }
      }
    }
    if (body) this.walkBody(body, s);
    return s;
  }

  /** A block, skipping its docstring. */
  private walkBody(body: SyntaxNode, s: ScopeDraft): void {
    const children = body.namedChildren;
    let i = 0;
    const firstType = children.length ? children[0].type : '';
    if (firstType === 'expression_statement' && children[0].namedChild(0)?.type === 'string') i = 1;
    for (; i < children.length; i++) this.walk(children[i], s, i === 0 ? firstType : undefined);
  }

  private decorator(d: SyntaxNode, s: ScopeDraft): void {
    const e = d.namedChild(0);
    if (!e) return;
    if (e.type === 'call') {
      this.walk(e, s);
      return;
    }
    const n = this.chain(e);
    if (n) this.b.ref(s, 'CALLS', n, startLine(d));
  }

  private parameters(params: SyntaxNode, s: ScopeDraft): void {
    for (const p of params.namedChildren) {
      const pt = p.type;
      // every parameter but the receiver is marked: calls through it are dynamic (./py-unresolved.ts)
      const pname = pt === 'identifier' ? p : fieldChild(p, this.f.name) ?? p.namedChildren.find((c) => c.type === 'identifier');
      const pn = pname ? this.text(pname) : '';
      if (pn && pn !== 'self' && pn !== 'cls') {
        this.b.binding(s, `${PY_PARAM}${pn}`, 'param', false);
        let m = this.paramNames.get(s);
        if (!m) this.paramNames.set(s, (m = new Set()));
        m.add(pn);
      }
      if (pt === 'typed_parameter' || pt === 'typed_default_parameter') {
        const nameNode = pt === 'typed_parameter' ? p.namedChildren.find((c) => c.type === 'identifier') : fieldChild(p, this.f.name);
        const type = fieldChild(p, this.f.type);
        if (type) {
          this.typeRefs(type, s);
          const t = this.typeName(type);
          if (nameNode && t) {
            this.b.binding(s, this.text(nameNode), t, false);
            let m = this.paramTypes.get(s);
            if (!m) this.paramTypes.set(s, (m = new Map()));
            m.set(this.text(nameNode), t);
          }
        }
        const v = fieldChild(p, this.f.value);
        if (v) this.walk(v, s);
      } else if (pt === 'default_parameter') {
        const v = fieldChild(p, this.f.value);
        if (v) this.walk(v, s);
      }
    }
  }

  /** Module-level lambdas/dicts become scopes; `x = Foo()` / `self.x = Foo()` / `x: Foo` become bindings. */
  private assignment(a: SyntaxNode, stmt: SyntaxNode, scope: ScopeDraft): boolean {
    const left = fieldChild(a, this.f.left);
    const right = fieldChild(a, this.f.right);
    const type = fieldChild(a, this.f.type);
    if (!left) return false;
    const moduleLevel = scope === this.b.file;
    const leftType = left.type;
    const rightType = right ? right.type : '';
    if (leftType === 'identifier' && right && moduleLevel && (rightType === 'lambda' || rightType === 'dictionary')) {
      const name = this.text(left);
      const kind: ScopeKind = rightType === 'lambda' ? 'function' : 'variable';
      const s = this.b.addScope({
        name, kind, parent: scope,
        ...range(stmt),
        signature: kind === 'function'
          ? `${name} = ${this.content.slice(right.startIndex, (fieldChild(right, this.f.body) ?? right).startIndex)}`.replace(/:\s*$/, '')
          : (type ? `${name}: ${this.text(type)}` : name),
        docComment: this.hashDoc(stmt),
        exported: !name.startsWith('_'),
      });
      if (type) this.typeRefs(type, s);
      this.walk(right, s, rightType);
      return true;
    }
    // A variable of a function or module (not a class attribute): calls through it are dynamic.
    if (leftType === 'identifier' && right && scope.kind !== 'class') this.b.binding(scope, `${PY_VALUE}${this.text(left)}`, 'value', false);
    // Bindings.
    let typeName = type ? this.typeName(type) : null;
    if (!typeName && right && rightType === 'call') {
      const fn = fieldChild(right, this.f.function);
      const n = fn ? this.chain(fn) : null;
      if (n && /^[A-Z]/.test(n.slice(n.lastIndexOf('.') + 1))) typeName = n;
    }
    if (!typeName && right && rightType === 'identifier') typeName = this.paramTypes.get(scope)?.get(this.text(right)) ?? null;
    if (!typeName && right && rightType === 'identifier' && leftType === 'attribute' && this.paramNames.get(scope)?.has(this.text(right))) {
      // `self.on_error = on_error`: the attribute holds whatever the caller passed
      const obj = fieldChild(left, this.f.object);
      const attr = fieldChild(left, this.f.attribute);
      const cls = scope.parent;
      if (this.textOf(obj) === 'self' && attr && cls?.kind === 'class') this.b.binding(cls, `${PY_PARAM}${this.text(attr)}`, 'param', true);
    }
    if (typeName) {
      if (leftType === 'identifier') {
        this.b.binding(scope, this.text(left), typeName, scope.kind === 'class');
      } else if (leftType === 'attribute') {
        const obj = fieldChild(left, this.f.object);
        const attr = fieldChild(left, this.f.attribute);
        const cls = scope.parent;
        if (this.textOf(obj) === 'self' && attr && cls?.kind === 'class' && (scope.kind === 'method' || scope.kind === 'constructor')) {
          this.b.binding(cls, this.text(attr), typeName, true);
        }
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- imports

  private importStatement(node: SyntaxNode): void {
    for (const c of node.namedChildren) {
      let spec: string | null = null;
      let local: string | null = null;
      if (c.type === 'dotted_name') {
        spec = this.text(c);
        local = this.text(c);
      } else if (c.type === 'aliased_import') {
        spec = this.textOf(fieldChild(c, this.f.name)) ?? null;
        local = this.textOf(fieldChild(c, this.f.alias)) ?? spec;
      }
      if (spec && local) {
        this.b.imports.push({
          fromPath: this.b.path, specifier: spec, names: [{ imported: '*', local }], isNamespace: true, line: startLine(node),
        });
      }
    }
  }

  private importFrom(node: SyntaxNode): void {
    const mod = fieldChild(node, this.f.module_name);
    if (!mod) return;
    const imp: RawImport = { fromPath: this.b.path, specifier: this.text(mod).replace(/\s+/g, ''), names: [], line: startLine(node) };
    for (const c of node.namedChildren) {
      if (c.id === mod.id) continue;
      if (c.type === 'wildcard_import') imp.names.push({ imported: '*', local: '*' });
      else if (c.type === 'dotted_name') imp.names.push({ imported: this.text(c), local: this.text(c) });
      else if (c.type === 'aliased_import') {
        const n = this.textOf(fieldChild(c, this.f.name));
        const alias = this.textOf(fieldChild(c, this.f.alias));
        if (n) imp.names.push({ imported: n, local: alias ?? n });
      }
    }
    this.b.imports.push(imp);
  }

  // ---------------------------------------------------------------- references / helpers

  private typeRefs(node: SyntaxNode, scope: ScopeDraft): void {
    switch (node.type) {
      case 'identifier':
        this.b.ref(scope, 'REFERENCES', this.text(node), startLine(node));
        return;
      case 'attribute': {
        const n = this.chain(node);
        if (n) this.b.ref(scope, 'REFERENCES', n, startLine(node));
        return;
      }
      case 'string': {
        // Forward reference: "Foo" / 'pkg.Foo'
        const inner = this.text(node).replace(/^[rRuU]?(['"]{1,3})([\s\S]*)\1$/, '$2').trim();
        if (/^[A-Za-z_][\w.]*$/.test(inner)) this.b.ref(scope, 'REFERENCES', inner, startLine(node));
        return;
      }
      case 'none':
      case 'comment':
        return;
      default:
        for (const c of node.namedChildren) this.typeRefs(c, scope);
    }
  }

  /** Declared type's name for bindings: `Repo`, `pkg.Repo`, `Optional[Repo]` -> `Repo`. */
  private typeName(type: SyntaxNode): string | null {
    let t: SyntaxNode | null = type.type === 'type' ? type.namedChild(0) : type;
    if (!t) return null;
    if (t.type === 'generic_type' || t.type === 'subscript') {
      const head = t.namedChild(0);
      if (this.textOf(head) === 'Optional') {
        const arg = t.namedChildren[1];
        const inner = arg?.type === 'type_parameter' ? arg.namedChild(0) : arg;
        return inner ? this.typeName(inner) : null;
      }
      t = head;
    }
    if (!t) return null;
    if (t.type === 'identifier' || t.type === 'attribute') return this.chain(t);
    if (t.type === 'string') {
      const inner = this.text(t).replace(/^[rRuU]?(['"]{1,3})([\s\S]*)\1$/, '$2').trim();
      return /^[A-Za-z_][\w.]*$/.test(inner) ? inner : null;
    }
    return null;
  }

  private chain(node: SyntaxNode, depth = 0, knownType?: string): string | null {
    if (depth > MAX_CHAIN) return null;
    const type = knownType ?? node.type;
    if (type === 'identifier') return this.text(node);
    if (type === 'attribute') {
      const obj = fieldChild(node, this.f.object);
      const attr = fieldChild(node, this.f.attribute);
      if (!obj || !attr) return null;
      let o: string | null;
      const objType = obj.type;
      if (objType === 'call' && this.textOf(fieldChild(obj, this.f.function)) === 'super') o = 'super';
      else o = this.chain(obj, depth + 1, objType);
      return o ? `${o}.${this.text(attr)}` : null;
    }
    return null;
  }

  private text(node: SyntaxNode): string {
    return nodeText(this.content, node);
  }

  /** `node?.text`. */
  private textOf(node: SyntaxNode | null | undefined): string | undefined {
    return node ? nodeText(this.content, node) : undefined;
  }

  private docstring(block: SyntaxNode): string | null {
    const first = block.namedChildren.find((c) => c.type !== 'comment');
    if (first?.type !== 'expression_statement') return null;
    const s = first.namedChild(0);
    if (s?.type !== 'string' || first.namedChildCount !== 1) return null;
    return cleanPythonDocstring(this.text(s));
  }

  private hashDoc(node: SyntaxNode): string | null {
    const comments = precedingComments(node, true);
    if (!comments.length || comments[comments.length - 1].endPosition.row !== node.startPosition.row - 1) return null;
    return cleanLineComments(comments.map((c) => this.text(c)), '#');
  }
}

function range(node: SyntaxNode) {
  return { startIndex: node.startIndex, endIndex: node.endIndex, startLine: startLine(node), endLine: endLine(node) };
}
