import { cleanBlockComment, cleanLineComments } from '../../parse/doc-comments';
import { endLine, fieldChild, fieldTable, LanguageExtractor, nodeText, precedingComments, startLine, SyntaxNode, Tree } from '../../parse/extractor';
import type { FileBuilder, ScopeDraft } from '../../parse/file-builder';
import type { Language, RawImport, ScopeKind } from '../../parse/types';

/** Every field this walker reads, resolved to ids once per grammar (see `fieldTable`). */
const FIELDS = fieldTable([
  'alias', 'arguments', 'body', 'constructor', 'declaration', 'function', 'key', 'left', 'name', 'object',
  'parameters', 'pattern', 'property', 'right', 'source', 'type', 'type_arguments', 'type_parameters',
  'value',
] as const);
const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const CLASS_VALUES = new Set(['class', 'class_expression']);
const DECORATOR = new Set(['decorator']);
const WRAPPERS = new Set(['parenthesized_expression', 'as_expression', 'satisfies_expression', 'non_null_expression']);
const NOT_DOC = /@(?:license|file|fileoverview|module|packageDocumentation)\b/;
const MAX_CHAIN = 6;
const HOLDER_KEYWORDS = new Set(['const', 'let', 'var']);

/**
 * TypeScript, TSX and JavaScript (incl. JSX, CommonJS).
 *
 * Scopes: classes (incl. `const A = class {}`), interfaces (+ their method signatures), enums, type
 * aliases, namespaces / ambient modules, functions (declarations, `const f = () => {}` /
 * `function () {}` at any depth; nested ones are `outer.inner`), methods (class methods, accessors,
 * arrow-function class fields, abstract methods, overload signatures only when there is no
 * implementation), constructors, module-level object literals (`variable`, with their function-valued
 * members as methods), CommonJS `exports.f = function` and `A.prototype.m = function`.
 *
 * References: calls and `new` (CALLS), `extends` (EXTENDS), `implements` (IMPLEMENTS), interface
 * `extends` (EXTENDS), type names in annotations / type arguments / casts (REFERENCES, type
 * parameters excluded), capitalised JSX elements (CALLS).
 */
export class TypeScriptExtractor implements LanguageExtractor {
  readonly languages: readonly Language[] = ['typescript', 'tsx', 'javascript'];
  readonly usesTreeSitter = true;

  extract(builder: FileBuilder, tree: Tree | null): void {
    if (!tree) return;
    new TsWalker(builder, FIELDS(tree.language)).run(tree.rootNode);
  }
}

class TsWalker {
  private readonly content: string;
  private readonly topLevel = new Map<string, ScopeDraft>();
  private readonly implemented = new Map<number, Set<string>>();

  constructor(
    private readonly b: FileBuilder,
    private readonly f: ReturnType<typeof FIELDS>,
  ) {
    this.content = b.content;
  }

  run(root: SyntaxNode): void {
    this.walkChildren(root, this.b.file);
    for (const e of this.b.exports) {
      const s = this.topLevel.get(e.local);
      if (s) s.exported = true;
    }
  }

  // ---------------------------------------------------------------- dispatch

  private walkChildren(node: SyntaxNode, scope: ScopeDraft): void {
    for (const c of node.namedChildren) this.walk(c, scope);
  }

  /**
   * `type` is `node.type` when the caller has already read it: every `type` read is a call into the
   * wasm module, so callers that inspected a child's type hand it over instead of reading it again.
   */
  private walk(node: SyntaxNode, scope: ScopeDraft, type: string = node.type): void {
    switch (type) {
      case 'comment':
      case 'string':
      case 'number':
      case 'regex':
      case 'predefined_type':
      case 'property_identifier':
      case 'identifier':
      case 'shorthand_property_identifier':
      case 'shorthand_property_identifier_pattern':
      case 'private_property_identifier':
      case 'statement_identifier':
      case 'this':
      case 'super':
      case 'true':
      case 'false':
      case 'null':
      case 'undefined':
      case 'string_fragment':
      case 'escape_sequence':
      case 'accessibility_modifier':
      case 'override_modifier':
      case 'literal_type':
      case 'this_type':
      case 'jsx_text':
      case 'hash_bang_line':
        return;
      case 'import_statement':
        this.importStatement(node);
        return;
      case 'export_statement':
        this.exportStatement(node, scope);
        return;
      case 'function_declaration':
      case 'generator_function_declaration':
      case 'function_signature':
      case 'class_declaration':
      case 'abstract_class_declaration':
      case 'interface_declaration':
      case 'enum_declaration':
      case 'type_alias_declaration':
      case 'internal_module':
      case 'module':
      case 'lexical_declaration':
      case 'variable_declaration':
      case 'ambient_declaration':
        this.declaration(node, node, scope, this.isModuleLevel(scope) ? false : undefined, [], type);
        return;
      case 'class':
        this.classDecl(node, node, scope, undefined, 'anonymous', []);
        return;
      case 'expression_statement': {
        // The named-children list is fetched once and serves both the CommonJS check and the walk.
        const kids = node.namedChildren;
        const firstType = kids.length ? kids[0].type : '';
        if (firstType === 'assignment_expression' && this.isModuleLevel(scope) && this.cjsAssignment(node, kids[0], scope)) return;
        for (let i = 0; i < kids.length; i++) this.walk(kids[i], scope, i === 0 ? firstType : undefined);
        return;
      }
      case 'call_expression':
        this.call(node, scope);
        return;
      case 'new_expression': {
        const ctor = fieldChild(node, this.f.constructor);
        const name = ctor ? this.chain(ctor) : null;
        if (name) this.b.ref(scope, 'CALLS', name, startLine(node));
        else if (ctor) this.walk(ctor, scope);
        for (const c of node.namedChildren) if (c !== ctor && c.id !== ctor?.id) this.walk(c, scope);
        return;
      }
      case 'type_identifier': {
        const name = this.text(node);
        if (!this.b.isTypeParam(scope, name)) this.b.ref(scope, 'REFERENCES', name, startLine(node));
        return;
      }
      case 'nested_type_identifier':
        this.b.ref(scope, 'REFERENCES', this.text(node).replace(/\s+/g, ''), startLine(node));
        return;
      case 'type_parameter': {
        // `T extends Foo = Bar`: the name is not a reference, the constraint and default are.
        const nameId = fieldChild(node, this.f.name)?.id;
        for (const c of node.namedChildren) {
          const t = c.type;
          if (t !== 'type_identifier' || c.id !== nameId) this.walk(c, scope, t);
        }
        return;
      }
      case 'jsx_opening_element':
      case 'jsx_self_closing_element': {
        const n = fieldChild(node, this.f.name);
        const name = n ? this.chain(n) ?? this.text(n) : null;
        if (name && /^[A-Z]/.test(name)) this.b.ref(scope, 'CALLS', name, startLine(node));
        for (const c of node.namedChildren) if (c.id !== n?.id) this.walk(c, scope);
        return;
      }
      default:
        this.walkChildren(node, scope);
    }
  }

  /** A declaration node (possibly wrapped in `export`), `outer` spans export/decorators/doc. */
  private declaration(
    node: SyntaxNode, outer: SyntaxNode, scope: ScopeDraft, exported: boolean | undefined, decorators: SyntaxNode[],
    type: string = node.type,
  ): ScopeDraft | null {
    switch (type) {
      case 'function_declaration':
      case 'generator_function_declaration':
        return this.functionLike(node, outer, scope, this.textOr(fieldChild(node, this.f.name), 'default'), 'function', exported, decorators);
      case 'function_signature': {
        const name = this.textOr(fieldChild(node, this.f.name), 'default');
        if (this.implementedIn(outer.parent, name)) {
          this.walkTypesOnly(node, scope);
          return null;
        }
        return this.functionLike(node, outer, scope, name, 'function', exported, decorators);
      }
      case 'class_declaration':
      case 'abstract_class_declaration':
      case 'class':
        return this.classDecl(node, outer, scope, exported, undefined, decorators);
      case 'interface_declaration':
        return this.interfaceDecl(node, outer, scope, exported);
      case 'enum_declaration': {
        const name = this.textOr(fieldChild(node, this.f.name), 'enum');
        const body = fieldChild(node, this.f.body);
        const s = this.addScope(name, 'enum', outer, outer, scope, this.sig(node, body), exported);
        if (body) this.walkChildren(body, s);
        return s;
      }
      case 'type_alias_declaration': {
        const nameNode = fieldChild(node, this.f.name);
        const value = fieldChild(node, this.f.value);
        const s = this.addScope(this.textOr(nameNode, 'type'), 'type_alias', outer, outer, scope, this.sig(node, value, true), exported);
        this.typeParams(node, s);
        for (const c of node.namedChildren) if (c.id !== nameNode?.id) this.walk(c, s);
        return s;
      }
      case 'internal_module':
      case 'module': {
        const nameNode = fieldChild(node, this.f.name);
        const body = fieldChild(node, this.f.body);
        let name = this.textOr(nameNode, 'module');
        if (nameNode?.type === 'string') name = unquote(name);
        const s = this.addScope(name, 'namespace', outer, outer, scope, this.sig(node, body), exported);
        if (body) this.walkChildren(body, s);
        return s;
      }
      case 'ambient_declaration': {
        // `declare function f(): void;`, `declare module 'x' {}`, `declare global {}`
        let last: ScopeDraft | null = null;
        for (const c of node.namedChildren) {
          const t = c.type;
          if (t === 'statement_block') this.walkChildren(c, scope); // declare global { ... }
          else last = this.declaration(c, outer, scope, exported, decorators, t) ?? last;
        }
        return last;
      }
      case 'lexical_declaration':
      case 'variable_declaration':
        this.variableDecl(node, outer, scope, exported);
        return null;
      default:
        this.walk(node, scope, type);
        return null;
    }
  }

  // ---------------------------------------------------------------- declarations

  private functionLike(
    node: SyntaxNode, outer: SyntaxNode, parent: ScopeDraft, name: string, kind: ScopeKind,
    exported: boolean | undefined, decorators: SyntaxNode[], signature?: string,
  ): ScopeDraft {
    const body = fieldChild(node, this.f.body);
    const startNode = decorators[0] && decorators[0].startIndex < outer.startIndex ? decorators[0] : outer;
    const s = this.addScope(name, kind, startNode, outer, parent, signature ?? this.sig(node, body), exported);
    this.typeParams(node, s);
    for (const d of decorators) this.walk(d, s, 'decorator');
    this.parameterBindings(node, s, kind === 'constructor' ? parent : null);
    const nameNode = fieldChild(node, this.f.name);
    for (const c of node.namedChildren) {
      if (c.id === nameNode?.id) continue;
      const t = c.type;
      if (t !== 'decorator') this.walk(c, s, t);
    }
    return s;
  }

  private classDecl(
    node: SyntaxNode, outer: SyntaxNode, parent: ScopeDraft, exported: boolean | undefined,
    nameOverride: string | undefined, decorators: SyntaxNode[],
  ): ScopeDraft {
    const nameNode = fieldChild(node, this.f.name);
    const name = nameNode ? this.text(nameNode) : nameOverride ?? 'default';
    const body = fieldChild(node, this.f.body);
    const start = decorators[0] && decorators[0].startIndex < outer.startIndex ? decorators[0] : outer;
    const s = this.addScope(name, 'class', start, outer, parent, this.sig(node, body), exported);
    if (parent === this.b.file) this.topLevel.set(name, s);
    this.typeParams(node, s);
    for (const d of decorators) this.walk(d, s, 'decorator');
    for (const c of node.namedChildren) {
      const t = c.type;
      if (t === 'decorator') this.walk(c, s, t);
      else if (t === 'class_heritage') this.heritage(c, s);
    }
    if (body) this.classBody(body, s);
    return s;
  }

  private heritage(h: SyntaxNode, s: ScopeDraft): void {
    for (const c of h.namedChildren) {
      const ct = c.type;
      if (ct === 'extends_clause') {
        for (const v of c.namedChildren) {
          const vt = v.type;
          if (vt === 'type_arguments') {
            this.walk(v, s, vt);
            continue;
          }
          const n = this.chain(v, 0, vt);
          if (n) this.b.ref(s, 'EXTENDS', n, startLine(v));
          else this.walk(v, s, vt);
        }
      } else if (ct === 'implements_clause') {
        for (const t of c.namedChildren) this.typeRef(t, s, 'IMPLEMENTS');
      } else if (ct !== 'comment') {
        // JavaScript grammar: `class A extends <expression>`
        const n = this.chain(c, 0, ct);
        if (n) this.b.ref(s, 'EXTENDS', n, startLine(c));
        else this.walk(c, s, ct);
      }
    }
  }

  private classBody(body: SyntaxNode, cls: ScopeDraft): void {
    let decorators: SyntaxNode[] = [];
    for (const m of body.namedChildren) {
      const mt = m.type;
      if (mt === 'decorator') {
        decorators.push(m);
        continue;
      }
      if (mt === 'comment') continue;
      const decs = decorators;
      decorators = [];
      const start = decs[0] ?? m;
      switch (mt) {
        case 'method_definition': {
          const nameNode = fieldChild(m, this.f.name);
          const name = this.propertyName(nameNode);
          const kind: ScopeKind = name === 'constructor' ? 'constructor' : 'method';
          this.functionLike(m, m, cls, name, kind, undefined, decs);
          break;
        }
        case 'method_signature':
        case 'abstract_method_signature': {
          const name = this.propertyName(fieldChild(m, this.f.name));
          if (mt === 'method_signature' && this.implementedIn(body, name)) {
            this.walkTypesOnly(m, cls);
            break;
          }
          this.functionLike(m, m, cls, name, 'method', undefined, decs);
          break;
        }
        case 'public_field_definition':
        case 'field_definition': {
          const nameNode = fieldChild(m, this.f.name) ?? fieldChild(m, this.f.property);
          const value = fieldChild(m, this.f.value);
          const v = value ? unwrap(value) : null;
          const vt = v ? v.type : '';
          const name = this.propertyName(nameNode);
          if (v && FUNCTION_VALUES.has(vt)) {
            const s = this.addScope(name, 'method', start, m, cls, this.sig(m, fieldChild(v, this.f.body)), undefined);
            this.typeParams(v, s);
            this.parameterBindings(v, s, null);
            for (const d of decs) this.walk(d, s, 'decorator');
            for (const c of m.namedChildren) if (c.id !== nameNode?.id) this.walk(c, s);
            break;
          }
          const t = this.annotatedTypeName(fieldChild(m, this.f.type));
          if (t) this.b.binding(cls, name, t, true);
          else if (v && vt === 'new_expression') {
            const ctor = fieldChild(v, this.f.constructor);
            const n = ctor ? this.chain(ctor) : null;
            if (n) this.b.binding(cls, name, n, true);
          }
          for (const d of decs) this.walk(d, cls, 'decorator');
          for (const c of m.namedChildren) if (c.id !== nameNode?.id) this.walk(c, cls);
          break;
        }
        default:
          for (const d of decs) this.walk(d, cls, 'decorator');
          this.walk(m, cls, mt);
      }
    }
  }

  private interfaceDecl(node: SyntaxNode, outer: SyntaxNode, parent: ScopeDraft, exported: boolean | undefined): ScopeDraft {
    const nameNode = fieldChild(node, this.f.name);
    const body = fieldChild(node, this.f.body);
    const s = this.addScope(this.textOr(nameNode, 'interface'), 'interface', outer, outer, parent, this.sig(node, body), exported);
    this.typeParams(node, s);
    for (const c of node.namedChildren) {
      const t = c.type;
      if (t === 'extends_type_clause') {
        for (const e of c.namedChildren) this.typeRef(e, s, 'EXTENDS');
      } else if (t === 'type_parameters') {
        this.walk(c, s, t);
      }
    }
    if (body) {
      for (const m of body.namedChildren) {
        const t = m.type;
        if (t === 'method_signature') {
          this.functionLike(m, m, s, this.propertyName(fieldChild(m, this.f.name)), 'method', undefined, []);
        } else {
          this.walk(m, s, t);
        }
      }
    }
    return s;
  }

  private variableDecl(node: SyntaxNode, outer: SyntaxNode, scope: ScopeDraft, exported: boolean | undefined): void {
    const decls = node.namedChildren.filter((c) => c.type === 'variable_declarator');
    const first = node.child(0);
    const keywordNode = first?.type === 'declare' ? node.child(1) : first;
    const keyword = keywordNode ? this.text(keywordNode) : '';
    const moduleLevel = this.isModuleLevel(scope);
    for (const d of decls) {
      const nameNode = fieldChild(d, this.f.name);
      const value = fieldChild(d, this.f.value);
      const typeNode = fieldChild(d, this.f.type);
      const rangeNode = decls.length === 1 ? outer : d;
      const v = value ? unwrap(value) : null;
      const vt = v ? v.type : '';
      const nameType = nameNode ? nameNode.type : '';
      if (nameNode && nameType === 'identifier' && v) {
        const name = this.text(nameNode);
        if (FUNCTION_VALUES.has(vt)) {
          const body = fieldChild(v, this.f.body);
          const sig = `${keyword} ${this.content.slice(d.startIndex, body ? body.startIndex : d.endIndex)}`;
          const kind: ScopeKind = 'function';
          const s = this.addScope(name, kind, rangeNode, rangeNode, scope, sig, exported);
          if (scope === this.b.file) this.topLevel.set(name, s);
          this.typeParams(v, s);
          this.parameterBindings(v, s, null);
          if (typeNode) this.walk(typeNode, s);
          for (const c of v.namedChildren) this.walk(c, s);
          continue;
        }
        if (CLASS_VALUES.has(vt)) {
          this.classDecl(v, rangeNode, scope, exported, name, []);
          continue;
        }
        if (vt === 'object' && moduleLevel) {
          const sig = `${keyword} ${this.content.slice(d.startIndex, v.startIndex)}`.replace(/=\s*$/, '');
          const s = this.addScope(name, 'variable', rangeNode, rangeNode, scope, sig, exported);
          if (scope === this.b.file) this.topLevel.set(name, s);
          if (typeNode) this.walk(typeNode, s);
          this.objectMembers(v, s);
          continue;
        }
        if (this.requireCall(v, vt, nameNode, nameType, d)) continue;
        // `export const isX = createPredicate(...)`: a module-level const made by a call often holds a
        // function; as a scope of its own, calls to it have a target (and its initialiser a caller).
        if (vt === 'call_expression' && moduleLevel && HOLDER_KEYWORDS.has(keyword)) {
          const sig = `${keyword} ${this.content.slice(d.startIndex, v.startIndex)}`.replace(/=\s*$/, '').trim();
          const s = this.addScope(name, 'variable', rangeNode, rangeNode, scope, sig, exported);
          if (scope === this.b.file) this.topLevel.set(name, s);
          if (typeNode) this.walk(typeNode, s);
          this.walk(v, s, vt);
          continue;
        }
        if (vt === 'new_expression') {
          const ctor = fieldChild(v, this.f.constructor);
          const n = ctor ? this.chain(ctor) : null;
          if (n) this.b.binding(scope, name, n, false);
        }
      } else if (nameNode && v && this.requireCall(v, vt, nameNode, nameType, d)) {
        continue;
      }
      if (nameNode && nameType === 'identifier') {
        const t = this.annotatedTypeName(typeNode);
        if (t) this.b.binding(scope, this.text(nameNode), t, false);
      }
      if (typeNode) this.walk(typeNode, scope);
      if (value) this.walk(value, scope, value === v ? vt : undefined);
      if (nameNode && nameType !== 'identifier') this.walk(nameNode, scope, nameType); // destructuring defaults
    }
  }

  private objectMembers(obj: SyntaxNode, owner: ScopeDraft): void {
    for (const m of obj.namedChildren) {
      const mt = m.type;
      if (mt === 'method_definition') {
        this.functionLike(m, m, owner, this.propertyName(fieldChild(m, this.f.name)), 'method', undefined, []);
      } else if (mt === 'pair') {
        const key = fieldChild(m, this.f.key);
        const value = fieldChild(m, this.f.value);
        const v = value ? unwrap(value) : null;
        const vt = v ? v.type : '';
        if (v && FUNCTION_VALUES.has(vt)) {
          const body = fieldChild(v, this.f.body);
          const s = this.addScope(this.propertyName(key), 'method', m, m, owner, this.sig(m, body), undefined);
          this.typeParams(v, s);
          this.parameterBindings(v, s, null);
          for (const c of v.namedChildren) this.walk(c, s);
        } else if (value) {
          this.walk(value, owner, value === v ? vt : undefined);
        }
      } else {
        this.walk(m, owner, mt);
      }
    }
  }

  /** CommonJS `exports.f = function`, `module.exports.f = ...`, `A.prototype.m = function`, `module.exports = x`. */
  private cjsAssignment(stmt: SyntaxNode, a: SyntaxNode, scope: ScopeDraft): boolean {
    const left = fieldChild(a, this.f.left);
    const right = fieldChild(a, this.f.right);
    if (!left || !right || left.type !== 'member_expression') return false;
    const target = this.chain(left);
    if (!target) return false;
    const r = unwrap(right);
    const rType = r.type;
    const parts = target.split('.');
    let name: string | null = null;
    let parent: ScopeDraft = scope;
    let kind: ScopeKind = 'function';
    let exported: boolean | undefined;
    if (target === 'module.exports') {
      if (rType === 'identifier') this.b.exports.push({ local: this.text(r), exported: 'default', line: startLine(stmt) });
      return false;
    }
    if ((parts.length === 2 && parts[0] === 'exports') || (parts.length === 3 && parts[0] === 'module' && parts[1] === 'exports')) {
      name = parts[parts.length - 1];
      exported = true;
      if (rType === 'identifier') {
        this.b.exports.push({ local: this.text(r), exported: name, line: startLine(stmt) });
        return false;
      }
    } else if (parts.length === 3 && parts[1] === 'prototype') {
      name = parts[2];
      kind = 'method';
      parent = this.topLevel.get(parts[0]) ?? scope;
    }
    if (!name || !FUNCTION_VALUES.has(rType)) return false;
    const body = fieldChild(r, this.f.body);
    const qualifiedName = kind === 'method' ? `${parts[0]}.${name}` : this.b.qualify(scope, name);
    const s = this.b.addScope({
      name, qualifiedName, kind, parent,
      ...this.range(stmt, stmt),
      signature: this.content.slice(stmt.startIndex, body ? body.startIndex : stmt.endIndex),
      docComment: this.doc(stmt),
      exported,
    });
    if (kind === 'function' && scope === this.b.file) this.topLevel.set(name, s);
    this.parameterBindings(r, s, null);
    for (const c of r.namedChildren) this.walk(c, s);
    return true;
  }

  // ---------------------------------------------------------------- imports / exports

  private importStatement(node: SyntaxNode): void {
    const source = fieldChild(node, this.f.source);
    const imp: RawImport = { fromPath: this.b.path, specifier: source ? unquote(this.text(source)) : '', names: [], line: startLine(node) };
    for (const c of node.namedChildren) {
      const ct = c.type;
      if (ct === 'import_clause') {
        for (const k of c.namedChildren) {
          const kt = k.type;
          if (kt === 'identifier') imp.names.push({ imported: 'default', local: this.text(k) });
          else if (kt === 'namespace_import') {
            const id = k.namedChildren.find((x) => x.type === 'identifier');
            if (id) imp.names.push({ imported: '*', local: this.text(id) });
            imp.isNamespace = true;
          } else if (kt === 'named_imports') {
            for (const sp of k.namedChildren) {
              if (sp.type !== 'import_specifier') continue;
              const n = fieldChild(sp, this.f.name);
              const alias = fieldChild(sp, this.f.alias);
              if (n) imp.names.push({ imported: unquote(this.text(n)), local: this.text(alias ?? n) });
            }
          }
        }
      } else if (ct === 'import_require_clause') {
        // import x = require('y')
        const id = c.namedChildren.find((x) => x.type === 'identifier');
        const src = fieldChild(c, this.f.source);
        if (src) imp.specifier = unquote(this.text(src));
        if (id) imp.names.push({ imported: '*', local: this.text(id) });
        imp.isNamespace = true;
      }
    }
    if (imp.specifier) this.b.imports.push(imp);
  }

  private exportStatement(node: SyntaxNode, scope: ScopeDraft): void {
    const line = startLine(node);
    // One pass over the named children for their types: decorators, and the declaration's type.
    const named = node.namedChildren;
    const types = named.map((c) => c.type);
    const decorators = named.filter((c, i) => types[i] === 'decorator');
    const decl = fieldChild(node, this.f.declaration);
    if (decl) {
      const i = named.findIndex((c) => c.id === decl.id);
      const s = this.declaration(decl, node, scope, true, decorators, i === -1 ? undefined : types[i]);
      if (s && this.hasDefaultKeyword(node, decl)) this.b.exports.push({ local: s.name, exported: 'default', line });
      return;
    }
    const source = fieldChild(node, this.f.source);
    if (source) {
      const imp: RawImport = { fromPath: this.b.path, specifier: unquote(this.text(source)), names: [], line, reexport: true };
      const clause = named.find((c, i) => types[i] === 'export_clause');
      const nsExport = named.find((c, i) => types[i] === 'namespace_export');
      if (clause) {
        for (const sp of clause.namedChildren) {
          if (sp.type !== 'export_specifier') continue;
          const n = fieldChild(sp, this.f.name);
          const alias = fieldChild(sp, this.f.alias);
          if (n) imp.names.push({ imported: unquote(this.text(n)), local: unquote(this.text(alias ?? n)) });
        }
      } else if (nsExport) {
        const id = nsExport.namedChildren[0];
        imp.names.push({ imported: '*', local: id ? unquote(this.text(id)) : '*' });
        imp.isNamespace = true;
      } else {
        imp.names.push({ imported: '*', local: '*' });
      }
      this.b.imports.push(imp);
      return;
    }
    const clause = named.find((c, i) => types[i] === 'export_clause');
    if (clause) {
      for (const sp of clause.namedChildren) {
        if (sp.type !== 'export_specifier') continue;
        const n = fieldChild(sp, this.f.name);
        const alias = fieldChild(sp, this.f.alias);
        if (n) this.b.exports.push({ local: this.text(n), exported: unquote(this.text(alias ?? n)), line });
      }
      return;
    }
    const value = fieldChild(node, this.f.value);
    if (value) {
      const v = unwrap(value);
      const vt = v.type;
      if (vt === 'identifier') {
        this.b.exports.push({ local: this.text(v), exported: 'default', line });
      } else if (FUNCTION_VALUES.has(vt)) {
        const name = this.textOr(fieldChild(v, this.f.name), 'default');
        this.functionLike(v, node, scope, name, 'function', true, decorators);
        if (name !== 'default') this.b.exports.push({ local: name, exported: 'default', line });
      } else if (CLASS_VALUES.has(vt)) {
        const s = this.classDecl(v, node, scope, true, 'default', decorators);
        if (s.name !== 'default') this.b.exports.push({ local: s.name, exported: 'default', line });
      } else {
        this.walk(value, scope, value === v ? vt : undefined);
      }
      return;
    }
    for (let i = 0; i < named.length; i++) this.walk(named[i], scope, types[i]);
  }

  /**
   * `export default <declaration>`: is there a `default` keyword among the statement's children?
   * Listing the children builds a wrapper object per token, so an error-free statement is first
   * checked by its text: there the grammar puts `default` before the declaration, and a keyword
   * token's text is the keyword itself. (Missing tokens have no text, but they mark the tree as
   * having an error, which takes the exact path.)
   */
  private hasDefaultKeyword(node: SyntaxNode, decl: SyntaxNode): boolean {
    if (!node.hasError && !this.content.slice(node.startIndex, decl.startIndex).includes('default')) return false;
    return node.children.some((c) => c.type === 'default');
  }

  /** `const x = require('y')` / `const { a, b: c } = require('y')`: record an import; true when handled. */
  private requireCall(v: SyntaxNode, vType: string, nameNode: SyntaxNode, nameType: string, decl: SyntaxNode): boolean {
    let call = v;
    let callType = vType;
    if (callType === 'await_expression') {
      const inner = call.namedChild(0);
      if (inner) {
        call = inner;
        callType = inner.type;
      }
    }
    if (callType !== 'call_expression') return false;
    const fn = fieldChild(call, this.f.function);
    const fnType = fn ? fn.type : '';
    if (!fn || !(fnType === 'import' || (fnType === 'identifier' && this.text(fn) === 'require'))) return false;
    const arg = fieldChild(call, this.f.arguments)?.namedChild(0);
    if (!arg || arg.type !== 'string') return false;
    const imp: RawImport = { fromPath: this.b.path, specifier: unquote(this.text(arg)), names: [], line: startLine(decl) };
    if (nameType === 'identifier') {
      imp.names.push({ imported: '*', local: this.text(nameNode) });
      imp.isNamespace = true;
    } else if (nameType === 'object_pattern') {
      for (const p of nameNode.namedChildren) {
        const pt = p.type;
        if (pt === 'shorthand_property_identifier_pattern') imp.names.push({ imported: this.text(p), local: this.text(p) });
        else if (pt === 'pair_pattern') {
          const k = fieldChild(p, this.f.key);
          const val = fieldChild(p, this.f.value);
          if (k && val?.type === 'identifier') imp.names.push({ imported: unquote(this.text(k)), local: this.text(val) });
        }
      }
    }
    this.b.imports.push(imp);
    return true;
  }

  // ---------------------------------------------------------------- references

  private call(node: SyntaxNode, scope: ScopeDraft): void {
    const fn = fieldChild(node, this.f.function);
    const fnType = fn ? fn.type : '';
    if (fn && (fnType === 'import' || (fnType === 'identifier' && this.text(fn) === 'require'))) {
      const arg = fieldChild(node, this.f.arguments)?.namedChild(0);
      if (arg && arg.type === 'string') {
        this.b.imports.push({ fromPath: this.b.path, specifier: unquote(this.text(arg)), names: [], line: startLine(node) });
        return;
      }
    }
    const name = fn ? this.chain(fn, 0, fnType) : null;
    if (name) this.b.ref(scope, 'CALLS', name, startLine(fn!));
    else if (fn) this.walk(fn, scope, fnType);
    for (const c of node.namedChildren) if (c.id !== fn?.id) this.walk(c, scope);
  }

  /** REFERENCES/EXTENDS/IMPLEMENTS for a type node in a heritage clause. */
  private typeRef(t: SyntaxNode, s: ScopeDraft, kind: 'EXTENDS' | 'IMPLEMENTS'): void {
    const type = t.type;
    if (type === 'generic_type') {
      const n = fieldChild(t, this.f.name);
      if (n) this.b.ref(s, kind, this.text(n).replace(/\s+/g, ''), startLine(t));
      const args = fieldChild(t, this.f.type_arguments);
      if (args) this.walk(args, s);
    } else if (type === 'type_identifier' || type === 'nested_type_identifier' || type === 'identifier') {
      this.b.ref(s, kind, this.text(t).replace(/\s+/g, ''), startLine(t));
    } else if (type !== 'comment') {
      this.walk(t, s, type);
    }
  }

  /** `this.a.b`, `utils.parse`, `foo`: a dotted name, or null for computed expressions. */
  private chain(node: SyntaxNode, depth = 0, type?: string): string | null {
    if (depth > MAX_CHAIN) return null;
    switch (type ?? node.type) {
      case 'identifier':
      case 'property_identifier':
      case 'private_property_identifier':
      case 'type_identifier':
      case 'shorthand_property_identifier':
        return this.text(node);
      case 'this':
        return 'this';
      case 'super':
        return 'super';
      case 'member_expression': {
        const obj = fieldChild(node, this.f.object);
        const prop = fieldChild(node, this.f.property);
        if (!obj || !prop) return null;
        const o = this.chain(obj, depth + 1);
        return o ? `${o}.${this.text(prop)}` : null;
      }
      case 'nested_identifier':
      case 'nested_type_identifier':
        return this.text(node).replace(/\s+/g, '');
      case 'non_null_expression':
      case 'parenthesized_expression': {
        const inner = node.namedChild(0);
        return inner ? this.chain(inner, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  // ---------------------------------------------------------------- helpers

  private text(node: SyntaxNode): string {
    return nodeText(this.content, node);
  }

  private textOr(node: SyntaxNode | null, fallback: string): string {
    return node ? nodeText(this.content, node) : fallback;
  }

  private propertyName(node: SyntaxNode | null): string {
    if (!node) return 'anonymous';
    if (node.type === 'string') return unquote(this.text(node));
    return this.text(node).replace(/\s+/g, '');
  }

  private isModuleLevel(scope: ScopeDraft): boolean {
    return scope.kind === 'file' || scope.kind === 'namespace';
  }

  private addScope(
    name: string, kind: ScopeKind, startNode: SyntaxNode, endNode: SyntaxNode, parent: ScopeDraft, signature: string,
    exported: boolean | undefined,
  ): ScopeDraft {
    const s = this.b.addScope({
      name, kind, parent, signature, exported,
      ...this.range(startNode, endNode),
      docComment: this.doc(startNode),
    });
    if (parent === this.b.file && !this.topLevel.has(name)) this.topLevel.set(name, s);
    return s;
  }

  private range(startNode: SyntaxNode, endNode: SyntaxNode) {
    return {
      startIndex: startNode.startIndex,
      endIndex: endNode.endIndex,
      startLine: startLine(startNode),
      endLine: endLine(endNode),
    };
  }

  /** Header text: from the first non-decorator child to the body (or the whole node). */
  private sig(node: SyntaxNode, body: SyntaxNode | null | undefined, includeBody = false): string {
    let start = node.startIndex;
    // Usually the first child already qualifies: fetch children one by one rather than the whole list.
    for (let i = 0, c = node.child(0); c; c = node.child(++i)) {
      const t = c.type;
      if (t === 'decorator' || t === 'comment') continue;
      start = c.startIndex;
      break;
    }
    const end = body && !includeBody ? body.startIndex : node.endIndex;
    let text = this.content.slice(start, end);
    if (includeBody && text.length > 200) text = `${text.slice(0, 200)}…`;
    return text.replace(/[;{]\s*$/, '');
  }

  /** JSDoc right above the declaration (blank line allowed), else adjacent `//` lines. */
  private doc(node: SyntaxNode): string | null {
    const comments = precedingComments(node, false, DECORATOR);
    if (!comments.length) return null;
    const last = comments[comments.length - 1];
    const text = this.text(last);
    const gap = node.startPosition.row - last.endPosition.row;
    if (text.startsWith('/**')) {
      if (gap > 2 || NOT_DOC.test(text)) return null;
      return cleanBlockComment(text);
    }
    if (text.startsWith('//')) {
      const run: string[] = [];
      let row = node.startPosition.row;
      for (let i = comments.length - 1; i >= 0; i--) {
        const c = comments[i];
        const t = this.text(c);
        if (!t.startsWith('//') || c.endPosition.row !== row - 1) break;
        run.unshift(t);
        row = c.startPosition.row;
      }
      return run.length ? cleanLineComments(run, '//') : null;
    }
    return null;
  }

  private typeParams(node: SyntaxNode, s: ScopeDraft): void {
    const tp = fieldChild(node, this.f.type_parameters);
    if (!tp) return;
    for (const p of tp.namedChildren) {
      const n = p.type === 'type_parameter' ? fieldChild(p, this.f.name) : null;
      if (n) (s.typeParams ??= new Set()).add(this.text(n));
    }
  }

  /** Typed parameters become local bindings; constructor parameter properties also class members. */
  private parameterBindings(fn: SyntaxNode, s: ScopeDraft, cls: ScopeDraft | null): void {
    const params = fieldChild(fn, this.f.parameters);
    if (!params) return;
    for (const p of params.namedChildren) {
      const pt = p.type;
      if (pt !== 'required_parameter' && pt !== 'optional_parameter') continue;
      const pattern = fieldChild(p, this.f.pattern);
      if (!pattern || pattern.type !== 'identifier') continue;
      const t = this.annotatedTypeName(fieldChild(p, this.f.type));
      if (!t || this.b.isTypeParam(s, t)) continue;
      this.b.binding(s, this.text(pattern), t, false);
      if (cls && p.namedChildren.some((c) => c.type === 'accessibility_modifier' || c.type === 'override_modifier')) {
        this.b.binding(cls, this.text(pattern), t, true);
      } else if (cls && p.children.some((c) => c.type === 'readonly')) {
        this.b.binding(cls, this.text(pattern), t, true);
      }
    }
  }

  /** `: Repo` / `: Repo<T>` / `: ns.Repo` -> the type's name; null for other types. */
  private annotatedTypeName(typeAnnotation: SyntaxNode | null): string | null {
    if (!typeAnnotation) return null;
    const outerType = typeAnnotation.type;
    const t = outerType === 'type_annotation' ? typeAnnotation.namedChild(0) : typeAnnotation;
    if (!t) return null;
    const type = t === typeAnnotation ? outerType : t.type;
    if (type === 'type_identifier' || type === 'nested_type_identifier') return this.text(t).replace(/\s+/g, '');
    if (type === 'generic_type') {
      const n = fieldChild(t, this.f.name);
      return n ? this.text(n).replace(/\s+/g, '') : null;
    }
    if (type === 'predefined_type') return this.text(t);
    if (type === 'array_type') return 'Array';
    return null;
  }

  /** Names of functions implemented (with a body) directly in a container: overload signatures are skipped. */
  private implementedIn(container: SyntaxNode | null, name: string): boolean {
    if (!container) return false;
    let set = this.implemented.get(container.id);
    if (!set) {
      set = new Set();
      for (const c of container.namedChildren) {
        const ct = c.type;
        const d = ct === 'export_statement' ? fieldChild(c, this.f.declaration) : c;
        if (!d) continue;
        const dt = d === c ? ct : d.type;
        if (dt === 'function_declaration' || dt === 'generator_function_declaration' || dt === 'method_definition') {
          const n = fieldChild(d, this.f.name);
          if (n) set.add(dt === 'method_definition' ? this.propertyName(n) : this.text(n));
        }
      }
      this.implemented.set(container.id, set);
    }
    return set.has(name);
  }

  /** Overload signatures: keep their type references on the enclosing scope, no scope of their own. */
  private walkTypesOnly(node: SyntaxNode, scope: ScopeDraft): void {
    const nameNode = fieldChild(node, this.f.name);
    const tmp = fieldChild(node, this.f.type_parameters);
    const names = new Set<string>();
    if (tmp) for (const p of tmp.namedChildren) { const n = fieldChild(p, this.f.name); if (n) names.add(this.text(n)); }
    if (names.size) {
      // Type parameters of the overload must not leak as references.
      const prev = scope.typeParams;
      scope.typeParams = new Set([...(prev ?? []), ...names]);
      for (const c of node.namedChildren) if (c.id !== nameNode?.id) this.walk(c, scope);
      scope.typeParams = prev;
      return;
    }
    for (const c of node.namedChildren) if (c.id !== nameNode?.id) this.walk(c, scope);
  }
}

function unwrap(node: SyntaxNode): SyntaxNode {
  let n = node;
  while (WRAPPERS.has(n.type)) {
    const inner = n.namedChild(0);
    if (!inner) break;
    n = inner;
  }
  return n;
}

function unquote(s: string): string {
  if (s.length >= 2 && (s[0] === '"' || s[0] === "'" || s[0] === '`') && s[s.length - 1] === s[0]) return s.slice(1, -1);
  return s;
}

