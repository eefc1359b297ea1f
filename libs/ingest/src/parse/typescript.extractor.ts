import { cleanBlockComment, cleanLineComments } from './doc-comments';
import { endLine, fieldChild, fieldTable, LanguageExtractor, precedingComments, startLine, SyntaxNode, Tree } from './extractor';
import type { FileBuilder, ScopeDraft } from './file-builder';
import type { Language, RawImport, ScopeKind } from './types';

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

  private walk(node: SyntaxNode, scope: ScopeDraft): void {
    switch (node.type) {
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
        this.declaration(node, node, scope, this.isModuleLevel(scope) ? false : undefined, []);
        return;
      case 'class':
        this.classDecl(node, node, scope, undefined, 'anonymous', []);
        return;
      case 'expression_statement':
        if (this.isModuleLevel(scope) && this.cjsAssignment(node, scope)) return;
        this.walkChildren(node, scope);
        return;
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
        const name = node.text;
        if (!this.b.isTypeParam(scope, name)) this.b.ref(scope, 'REFERENCES', name, startLine(node));
        return;
      }
      case 'nested_type_identifier':
        this.b.ref(scope, 'REFERENCES', node.text.replace(/\s+/g, ''), startLine(node));
        return;
      case 'type_parameter':
        // `T extends Foo = Bar`: the name is not a reference, the constraint and default are.
        for (const c of node.namedChildren) if (c.type !== 'type_identifier' || c.id !== fieldChild(node, this.f.name)?.id) this.walk(c, scope);
        return;
      case 'jsx_opening_element':
      case 'jsx_self_closing_element': {
        const n = fieldChild(node, this.f.name);
        const name = n ? this.chain(n) ?? n.text : null;
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
  ): ScopeDraft | null {
    switch (node.type) {
      case 'function_declaration':
      case 'generator_function_declaration':
        return this.functionLike(node, outer, scope, fieldChild(node, this.f.name)?.text ?? 'default', 'function', exported, decorators);
      case 'function_signature': {
        const name = fieldChild(node, this.f.name)?.text ?? 'default';
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
        const name = fieldChild(node, this.f.name)?.text ?? 'enum';
        const body = fieldChild(node, this.f.body);
        const s = this.addScope(name, 'enum', outer, outer, scope, this.sig(node, body), exported);
        if (body) this.walkChildren(body, s);
        return s;
      }
      case 'type_alias_declaration': {
        const nameNode = fieldChild(node, this.f.name);
        const value = fieldChild(node, this.f.value);
        const s = this.addScope(nameNode?.text ?? 'type', 'type_alias', outer, outer, scope, this.sig(node, value, true), exported);
        this.typeParams(node, s);
        for (const c of node.namedChildren) if (c.id !== nameNode?.id) this.walk(c, s);
        return s;
      }
      case 'internal_module':
      case 'module': {
        const nameNode = fieldChild(node, this.f.name);
        const body = fieldChild(node, this.f.body);
        let name = nameNode?.text ?? 'module';
        if (nameNode?.type === 'string') name = unquote(name);
        const s = this.addScope(name, 'namespace', outer, outer, scope, this.sig(node, body), exported);
        if (body) this.walkChildren(body, s);
        return s;
      }
      case 'ambient_declaration': {
        // `declare function f(): void;`, `declare module 'x' {}`, `declare global {}`
        let last: ScopeDraft | null = null;
        for (const c of node.namedChildren) {
          if (c.type === 'statement_block') this.walkChildren(c, scope); // declare global { ... }
          else last = this.declaration(c, outer, scope, exported, decorators) ?? last;
        }
        return last;
      }
      case 'lexical_declaration':
      case 'variable_declaration':
        this.variableDecl(node, outer, scope, exported);
        return null;
      default:
        this.walk(node, scope);
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
    for (const d of decorators) this.walk(d, s);
    this.parameterBindings(node, s, kind === 'constructor' ? parent : null);
    const nameNode = fieldChild(node, this.f.name);
    for (const c of node.namedChildren) {
      if (c.id === nameNode?.id || c.type === 'decorator') continue;
      this.walk(c, s);
    }
    return s;
  }

  private classDecl(
    node: SyntaxNode, outer: SyntaxNode, parent: ScopeDraft, exported: boolean | undefined,
    nameOverride: string | undefined, decorators: SyntaxNode[],
  ): ScopeDraft {
    const nameNode = fieldChild(node, this.f.name);
    const name = nameNode?.text ?? nameOverride ?? 'default';
    const body = fieldChild(node, this.f.body);
    const start = decorators[0] && decorators[0].startIndex < outer.startIndex ? decorators[0] : outer;
    const s = this.addScope(name, 'class', start, outer, parent, this.sig(node, body), exported);
    if (parent === this.b.file) this.topLevel.set(name, s);
    this.typeParams(node, s);
    for (const d of decorators) this.walk(d, s);
    for (const c of node.namedChildren) {
      if (c.type === 'decorator') this.walk(c, s);
      else if (c.type === 'class_heritage') this.heritage(c, s);
    }
    if (body) this.classBody(body, s);
    return s;
  }

  private heritage(h: SyntaxNode, s: ScopeDraft): void {
    for (const c of h.namedChildren) {
      if (c.type === 'extends_clause') {
        for (const v of c.namedChildren) {
          if (v.type === 'type_arguments') {
            this.walk(v, s);
            continue;
          }
          const n = this.chain(v);
          if (n) this.b.ref(s, 'EXTENDS', n, startLine(v));
          else this.walk(v, s);
        }
      } else if (c.type === 'implements_clause') {
        for (const t of c.namedChildren) this.typeRef(t, s, 'IMPLEMENTS');
      } else if (c.type !== 'comment') {
        // JavaScript grammar: `class A extends <expression>`
        const n = this.chain(c);
        if (n) this.b.ref(s, 'EXTENDS', n, startLine(c));
        else this.walk(c, s);
      }
    }
  }

  private classBody(body: SyntaxNode, cls: ScopeDraft): void {
    let decorators: SyntaxNode[] = [];
    for (const m of body.namedChildren) {
      if (m.type === 'decorator') {
        decorators.push(m);
        continue;
      }
      if (m.type === 'comment') continue;
      const decs = decorators;
      decorators = [];
      const start = decs[0] ?? m;
      switch (m.type) {
        case 'method_definition': {
          const nameNode = fieldChild(m, this.f.name);
          const name = propertyName(nameNode);
          const kind: ScopeKind = name === 'constructor' ? 'constructor' : 'method';
          this.functionLike(m, m, cls, name, kind, undefined, decs);
          break;
        }
        case 'method_signature':
        case 'abstract_method_signature': {
          const name = propertyName(fieldChild(m, this.f.name));
          if (m.type === 'method_signature' && this.implementedIn(body, name)) {
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
          const name = propertyName(nameNode);
          if (v && FUNCTION_VALUES.has(v.type)) {
            const s = this.addScope(name, 'method', start, m, cls, this.sig(m, fieldChild(v, this.f.body)), undefined);
            this.typeParams(v, s);
            this.parameterBindings(v, s, null);
            for (const d of decs) this.walk(d, s);
            for (const c of m.namedChildren) if (c.id !== nameNode?.id) this.walk(c, s);
            break;
          }
          const t = this.annotatedTypeName(fieldChild(m, this.f.type));
          if (t) this.b.binding(cls, name, t, true);
          else if (v?.type === 'new_expression') {
            const ctor = fieldChild(v, this.f.constructor);
            const n = ctor ? this.chain(ctor) : null;
            if (n) this.b.binding(cls, name, n, true);
          }
          for (const d of decs) this.walk(d, cls);
          for (const c of m.namedChildren) if (c.id !== nameNode?.id) this.walk(c, cls);
          break;
        }
        default:
          for (const d of decs) this.walk(d, cls);
          this.walk(m, cls);
      }
    }
  }

  private interfaceDecl(node: SyntaxNode, outer: SyntaxNode, parent: ScopeDraft, exported: boolean | undefined): ScopeDraft {
    const nameNode = fieldChild(node, this.f.name);
    const body = fieldChild(node, this.f.body);
    const s = this.addScope(nameNode?.text ?? 'interface', 'interface', outer, outer, parent, this.sig(node, body), exported);
    this.typeParams(node, s);
    for (const c of node.namedChildren) {
      if (c.type === 'extends_type_clause') {
        for (const t of c.namedChildren) this.typeRef(t, s, 'EXTENDS');
      } else if (c.type === 'type_parameters') {
        this.walk(c, s);
      }
    }
    if (body) {
      for (const m of body.namedChildren) {
        if (m.type === 'method_signature') {
          this.functionLike(m, m, s, propertyName(fieldChild(m, this.f.name)), 'method', undefined, []);
        } else {
          this.walk(m, s);
        }
      }
    }
    return s;
  }

  private variableDecl(node: SyntaxNode, outer: SyntaxNode, scope: ScopeDraft, exported: boolean | undefined): void {
    const decls = node.namedChildren.filter((c) => c.type === 'variable_declarator');
    const keyword = node.child(0)?.type === 'declare' ? node.child(1)?.text ?? '' : node.child(0)?.text ?? '';
    const moduleLevel = this.isModuleLevel(scope);
    for (const d of decls) {
      const nameNode = fieldChild(d, this.f.name);
      const value = fieldChild(d, this.f.value);
      const typeNode = fieldChild(d, this.f.type);
      const rangeNode = decls.length === 1 ? outer : d;
      const v = value ? unwrap(value) : null;
      if (nameNode?.type === 'identifier' && v) {
        const name = nameNode.text;
        if (FUNCTION_VALUES.has(v.type)) {
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
        if (CLASS_VALUES.has(v.type)) {
          this.classDecl(v, rangeNode, scope, exported, name, []);
          continue;
        }
        if (v.type === 'object' && moduleLevel) {
          const sig = `${keyword} ${this.content.slice(d.startIndex, v.startIndex)}`.replace(/=\s*$/, '');
          const s = this.addScope(name, 'variable', rangeNode, rangeNode, scope, sig, exported);
          if (scope === this.b.file) this.topLevel.set(name, s);
          if (typeNode) this.walk(typeNode, s);
          this.objectMembers(v, s);
          continue;
        }
        if (this.requireCall(v, nameNode, d)) continue;
        // `export const isX = createPredicate(...)`: a module-level const made by a call often holds a
        // function; as a scope of its own, calls to it have a target (and its initialiser a caller).
        if (v.type === 'call_expression' && moduleLevel && HOLDER_KEYWORDS.has(keyword)) {
          const sig = `${keyword} ${this.content.slice(d.startIndex, v.startIndex)}`.replace(/=\s*$/, '').trim();
          const s = this.addScope(name, 'variable', rangeNode, rangeNode, scope, sig, exported);
          if (scope === this.b.file) this.topLevel.set(name, s);
          if (typeNode) this.walk(typeNode, s);
          this.walk(v, s);
          continue;
        }
        if (v.type === 'new_expression') {
          const ctor = fieldChild(v, this.f.constructor);
          const n = ctor ? this.chain(ctor) : null;
          if (n) this.b.binding(scope, name, n, false);
        }
      } else if (nameNode && v && this.requireCall(v, nameNode, d)) {
        continue;
      }
      if (nameNode?.type === 'identifier') {
        const t = this.annotatedTypeName(typeNode);
        if (t) this.b.binding(scope, nameNode.text, t, false);
      }
      if (typeNode) this.walk(typeNode, scope);
      if (value) this.walk(value, scope);
      if (nameNode && nameNode.type !== 'identifier') this.walk(nameNode, scope); // destructuring defaults
    }
  }

  private objectMembers(obj: SyntaxNode, owner: ScopeDraft): void {
    for (const m of obj.namedChildren) {
      if (m.type === 'method_definition') {
        this.functionLike(m, m, owner, propertyName(fieldChild(m, this.f.name)), 'method', undefined, []);
      } else if (m.type === 'pair') {
        const key = fieldChild(m, this.f.key);
        const value = fieldChild(m, this.f.value);
        const v = value ? unwrap(value) : null;
        if (v && FUNCTION_VALUES.has(v.type)) {
          const body = fieldChild(v, this.f.body);
          const s = this.addScope(propertyName(key), 'method', m, m, owner, this.sig(m, body), undefined);
          this.typeParams(v, s);
          this.parameterBindings(v, s, null);
          for (const c of v.namedChildren) this.walk(c, s);
        } else if (value) {
          this.walk(value, owner);
        }
      } else {
        this.walk(m, owner);
      }
    }
  }

  /** CommonJS `exports.f = function`, `module.exports.f = ...`, `A.prototype.m = function`, `module.exports = x`. */
  private cjsAssignment(stmt: SyntaxNode, scope: ScopeDraft): boolean {
    const a = stmt.namedChild(0);
    if (!a || a.type !== 'assignment_expression') return false;
    const left = fieldChild(a, this.f.left);
    const right = fieldChild(a, this.f.right);
    if (!left || !right || left.type !== 'member_expression') return false;
    const target = this.chain(left);
    if (!target) return false;
    const r = unwrap(right);
    const parts = target.split('.');
    let name: string | null = null;
    let parent: ScopeDraft = scope;
    let kind: ScopeKind = 'function';
    let exported: boolean | undefined;
    if (target === 'module.exports') {
      if (r.type === 'identifier') this.b.exports.push({ local: r.text, exported: 'default', line: startLine(stmt) });
      return false;
    }
    if ((parts.length === 2 && parts[0] === 'exports') || (parts.length === 3 && parts[0] === 'module' && parts[1] === 'exports')) {
      name = parts[parts.length - 1];
      exported = true;
      if (r.type === 'identifier') {
        this.b.exports.push({ local: r.text, exported: name, line: startLine(stmt) });
        return false;
      }
    } else if (parts.length === 3 && parts[1] === 'prototype') {
      name = parts[2];
      kind = 'method';
      parent = this.topLevel.get(parts[0]) ?? scope;
    }
    if (!name || !FUNCTION_VALUES.has(r.type)) return false;
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
    const imp: RawImport = { fromPath: this.b.path, specifier: source ? unquote(source.text) : '', names: [], line: startLine(node) };
    for (const c of node.namedChildren) {
      if (c.type === 'import_clause') {
        for (const k of c.namedChildren) {
          if (k.type === 'identifier') imp.names.push({ imported: 'default', local: k.text });
          else if (k.type === 'namespace_import') {
            const id = k.namedChildren.find((x) => x.type === 'identifier');
            if (id) imp.names.push({ imported: '*', local: id.text });
            imp.isNamespace = true;
          } else if (k.type === 'named_imports') {
            for (const sp of k.namedChildren) {
              if (sp.type !== 'import_specifier') continue;
              const n = fieldChild(sp, this.f.name);
              const alias = fieldChild(sp, this.f.alias);
              if (n) imp.names.push({ imported: unquote(n.text), local: (alias ?? n).text });
            }
          }
        }
      } else if (c.type === 'import_require_clause') {
        // import x = require('y')
        const id = c.namedChildren.find((x) => x.type === 'identifier');
        const src = fieldChild(c, this.f.source);
        if (src) imp.specifier = unquote(src.text);
        if (id) imp.names.push({ imported: '*', local: id.text });
        imp.isNamespace = true;
      }
    }
    if (imp.specifier) this.b.imports.push(imp);
  }

  private exportStatement(node: SyntaxNode, scope: ScopeDraft): void {
    const decl = fieldChild(node, this.f.declaration);
    const source = fieldChild(node, this.f.source);
    const value = fieldChild(node, this.f.value);
    const line = startLine(node);
    const isDefault = node.children.some((c) => c.type === 'default');
    const decorators = node.namedChildren.filter((c) => c.type === 'decorator');
    if (decl) {
      const s = this.declaration(decl, node, scope, true, decorators);
      if (isDefault && s) this.b.exports.push({ local: s.name, exported: 'default', line });
      return;
    }
    if (source) {
      const imp: RawImport = { fromPath: this.b.path, specifier: unquote(source.text), names: [], line, reexport: true };
      const clause = node.namedChildren.find((c) => c.type === 'export_clause');
      const nsExport = node.namedChildren.find((c) => c.type === 'namespace_export');
      if (clause) {
        for (const sp of clause.namedChildren) {
          if (sp.type !== 'export_specifier') continue;
          const n = fieldChild(sp, this.f.name);
          const alias = fieldChild(sp, this.f.alias);
          if (n) imp.names.push({ imported: unquote(n.text), local: unquote((alias ?? n).text) });
        }
      } else if (nsExport) {
        const id = nsExport.namedChildren[0];
        imp.names.push({ imported: '*', local: id ? unquote(id.text) : '*' });
        imp.isNamespace = true;
      } else {
        imp.names.push({ imported: '*', local: '*' });
      }
      this.b.imports.push(imp);
      return;
    }
    const clause = node.namedChildren.find((c) => c.type === 'export_clause');
    if (clause) {
      for (const sp of clause.namedChildren) {
        if (sp.type !== 'export_specifier') continue;
        const n = fieldChild(sp, this.f.name);
        const alias = fieldChild(sp, this.f.alias);
        if (n) this.b.exports.push({ local: n.text, exported: unquote((alias ?? n).text), line });
      }
      return;
    }
    if (value) {
      const v = unwrap(value);
      if (v.type === 'identifier') {
        this.b.exports.push({ local: v.text, exported: 'default', line });
      } else if (FUNCTION_VALUES.has(v.type)) {
        const name = fieldChild(v, this.f.name)?.text ?? 'default';
        this.functionLike(v, node, scope, name, 'function', true, decorators);
        if (name !== 'default') this.b.exports.push({ local: name, exported: 'default', line });
      } else if (CLASS_VALUES.has(v.type)) {
        const s = this.classDecl(v, node, scope, true, 'default', decorators);
        if (s.name !== 'default') this.b.exports.push({ local: s.name, exported: 'default', line });
      } else {
        this.walk(value, scope);
      }
      return;
    }
    this.walkChildren(node, scope);
  }

  /** `const x = require('y')` / `const { a, b: c } = require('y')`: record an import; true when handled. */
  private requireCall(v: SyntaxNode, nameNode: SyntaxNode, decl: SyntaxNode): boolean {
    let call = v;
    if (call.type === 'await_expression') call = call.namedChild(0) ?? call;
    if (call.type !== 'call_expression') return false;
    const fn = fieldChild(call, this.f.function);
    if (!fn || !(fn.type === 'import' || (fn.type === 'identifier' && fn.text === 'require'))) return false;
    const arg = fieldChild(call, this.f.arguments)?.namedChild(0);
    if (!arg || arg.type !== 'string') return false;
    const imp: RawImport = { fromPath: this.b.path, specifier: unquote(arg.text), names: [], line: startLine(decl) };
    if (nameNode.type === 'identifier') {
      imp.names.push({ imported: '*', local: nameNode.text });
      imp.isNamespace = true;
    } else if (nameNode.type === 'object_pattern') {
      for (const p of nameNode.namedChildren) {
        if (p.type === 'shorthand_property_identifier_pattern') imp.names.push({ imported: p.text, local: p.text });
        else if (p.type === 'pair_pattern') {
          const k = fieldChild(p, this.f.key);
          const val = fieldChild(p, this.f.value);
          if (k && val?.type === 'identifier') imp.names.push({ imported: unquote(k.text), local: val.text });
        }
      }
    }
    this.b.imports.push(imp);
    return true;
  }

  // ---------------------------------------------------------------- references

  private call(node: SyntaxNode, scope: ScopeDraft): void {
    const fn = fieldChild(node, this.f.function);
    const args = fieldChild(node, this.f.arguments);
    if (fn && (fn.type === 'import' || (fn.type === 'identifier' && fn.text === 'require'))) {
      const arg = args?.namedChild(0);
      if (arg && arg.type === 'string') {
        this.b.imports.push({ fromPath: this.b.path, specifier: unquote(arg.text), names: [], line: startLine(node) });
        return;
      }
    }
    const name = fn ? this.chain(fn) : null;
    if (name) this.b.ref(scope, 'CALLS', name, startLine(fn!));
    else if (fn) this.walk(fn, scope);
    for (const c of node.namedChildren) if (c.id !== fn?.id) this.walk(c, scope);
  }

  /** REFERENCES/EXTENDS/IMPLEMENTS for a type node in a heritage clause. */
  private typeRef(t: SyntaxNode, s: ScopeDraft, kind: 'EXTENDS' | 'IMPLEMENTS'): void {
    if (t.type === 'generic_type') {
      const n = fieldChild(t, this.f.name);
      if (n) this.b.ref(s, kind, n.text.replace(/\s+/g, ''), startLine(t));
      const args = fieldChild(t, this.f.type_arguments);
      if (args) this.walk(args, s);
    } else if (t.type === 'type_identifier' || t.type === 'nested_type_identifier' || t.type === 'identifier') {
      this.b.ref(s, kind, t.text.replace(/\s+/g, ''), startLine(t));
    } else if (t.type !== 'comment') {
      this.walk(t, s);
    }
  }

  /** `this.a.b`, `utils.parse`, `foo`: a dotted name, or null for computed expressions. */
  private chain(node: SyntaxNode, depth = 0): string | null {
    if (depth > MAX_CHAIN) return null;
    switch (node.type) {
      case 'identifier':
      case 'property_identifier':
      case 'private_property_identifier':
      case 'type_identifier':
      case 'shorthand_property_identifier':
        return node.text;
      case 'this':
        return 'this';
      case 'super':
        return 'super';
      case 'member_expression': {
        const obj = fieldChild(node, this.f.object);
        const prop = fieldChild(node, this.f.property);
        if (!obj || !prop) return null;
        const o = this.chain(obj, depth + 1);
        return o ? `${o}.${prop.text}` : null;
      }
      case 'nested_identifier':
      case 'nested_type_identifier':
        return node.text.replace(/\s+/g, '');
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
    for (const c of node.children) {
      if (c.type === 'decorator' || c.type === 'comment') continue;
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
    const text = last.text;
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
        if (!c.text.startsWith('//') || c.endPosition.row !== row - 1) break;
        run.unshift(c.text);
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
      if (n) (s.typeParams ??= new Set()).add(n.text);
    }
  }

  /** Typed parameters become local bindings; constructor parameter properties also class members. */
  private parameterBindings(fn: SyntaxNode, s: ScopeDraft, cls: ScopeDraft | null): void {
    const params = fieldChild(fn, this.f.parameters);
    if (!params) return;
    for (const p of params.namedChildren) {
      if (p.type !== 'required_parameter' && p.type !== 'optional_parameter') continue;
      const pattern = fieldChild(p, this.f.pattern);
      if (pattern?.type !== 'identifier') continue;
      const t = this.annotatedTypeName(fieldChild(p, this.f.type));
      if (!t || this.b.isTypeParam(s, t)) continue;
      this.b.binding(s, pattern.text, t, false);
      if (cls && p.namedChildren.some((c) => c.type === 'accessibility_modifier' || c.type === 'override_modifier')) {
        this.b.binding(cls, pattern.text, t, true);
      } else if (cls && p.children.some((c) => c.type === 'readonly')) {
        this.b.binding(cls, pattern.text, t, true);
      }
    }
  }

  /** `: Repo` / `: Repo<T>` / `: ns.Repo` -> the type's name; null for other types. */
  private annotatedTypeName(typeAnnotation: SyntaxNode | null): string | null {
    if (!typeAnnotation) return null;
    const t = typeAnnotation.type === 'type_annotation' ? typeAnnotation.namedChild(0) : typeAnnotation;
    if (!t) return null;
    if (t.type === 'type_identifier' || t.type === 'nested_type_identifier') return t.text.replace(/\s+/g, '');
    if (t.type === 'generic_type') return fieldChild(t, this.f.name)?.text.replace(/\s+/g, '') ?? null;
    if (t.type === 'predefined_type') return t.text;
    if (t.type === 'array_type') return 'Array';
    return null;
  }

  /** Names of functions implemented (with a body) directly in a container: overload signatures are skipped. */
  private implementedIn(container: SyntaxNode | null, name: string): boolean {
    if (!container) return false;
    let set = this.implemented.get(container.id);
    if (!set) {
      set = new Set();
      for (const c of container.namedChildren) {
        const d = c.type === 'export_statement' ? fieldChild(c, this.f.declaration) : c;
        if (!d) continue;
        if (d.type === 'function_declaration' || d.type === 'generator_function_declaration' || d.type === 'method_definition') {
          const n = fieldChild(d, this.f.name);
          if (n) set.add(d.type === 'method_definition' ? propertyName(n) : n.text);
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
    if (tmp) for (const p of tmp.namedChildren) { const n = fieldChild(p, this.f.name); if (n) names.add(n.text); }
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

function propertyName(node: SyntaxNode | null): string {
  if (!node) return 'anonymous';
  if (node.type === 'string') return unquote(node.text);
  return node.text.replace(/\s+/g, '');
}
