import { cleanLineComments } from '../../parse/doc-comments';
import { endLine, fieldChild, fieldTable, LanguageExtractor, nodeText, startLine, SyntaxNode, Tree } from '../../parse/extractor';
import type { FileBuilder, ScopeDraft } from '../../parse/file-builder';
import type { Language } from '../../parse/types';

const FIELDS = fieldTable([
  'alias', 'arguments', 'block', 'body', 'left', 'method', 'name', 'object', 'parameters', 'pattern', 'receiver', 'right',
  'scope', 'superclass', 'value',
] as const);

/** Calls that load another file: `require 'x'`, `require_relative 'x'`, `load 'x.rb'`, `autoload :X, 'x'`. */
const LOADS = new Set(['require', 'require_relative', 'load', 'autoload', 'require_dependency']);
/** Mixins: the module's methods join the class's lookup chain (IMPLEMENTS, see docs/graph-model.md). */
const MIXINS = new Set(['include', 'extend', 'prepend']);
const ATTRS = new Set(['attr_accessor', 'attr_reader', 'attr_writer', 'attr']);
const VISIBILITY = new Set(['private', 'protected', 'public']);
/** Parameter nodes whose `name` (or only identifier) is a local of the method. */
const PARAMS = new Set([
  'method_parameters', 'lambda_parameters', 'block_parameters', 'optional_parameter', 'keyword_parameter', 'splat_parameter',
  'hash_splat_parameter', 'block_parameter', 'destructured_parameter',
]);
const MAX_CHAIN = 6;
/** Literal expressions and the core class of their value (`args = []` types `args` as an Array). */
const LITERAL_TYPES: Record<string, string> = {
  array: 'Array', string_array: 'Array', symbol_array: 'Array', hash: 'Hash', string: 'String', chained_string: 'String',
  heredoc_beginning: 'String', integer: 'Integer', float: 'Float', simple_symbol: 'Symbol', delimited_symbol: 'Symbol',
  regex: 'Regexp', lambda: 'Proc', range: 'Range', rational: 'Rational',
};
/**
 * What Ruby's conversion methods return, whoever defines them (the interpreter relies on it: `to_s`
 * must return a String), so a value converted so is of that core class.
 */
export const CONVERSIONS: Record<string, string> = {
  to_s: 'String', to_str: 'String', inspect: 'String', to_sym: 'Symbol', to_i: 'Integer', to_int: 'Integer', to_f: 'Float',
  to_a: 'Array', to_ary: 'Array', to_h: 'Hash', to_hash: 'Hash', to_proc: 'Proc',
};
/** Forwardable's (and ActiveSupport's) delegation macros and `alias_method`: where the names of the methods they define are. */
const DELEGATORS: Record<string, 'list' | 'one' | 'keys' | 'first'> = {
  def_delegators: 'list', def_instance_delegators: 'list', def_single_delegators: 'list',
  def_delegator: 'one', def_instance_delegator: 'one', def_single_delegator: 'one', alias_method: 'first',
  delegate: 'keys', instance_delegate: 'keys', single_delegate: 'keys',
};
/** Enumerable methods that, given a block, return a new Array. */
const ARRAY_WITH_BLOCK = new Set(['map', 'flat_map', 'collect', 'collect_concat', 'select', 'filter', 'reject', 'filter_map', 'sort_by', 'min_by', 'max_by']);
/** Methods that return a copy of their receiver (same class). */
const SAME_VALUE = new Set(['dup', 'clone', 'freeze']);
/** Parameters whose value has a known core class whatever the caller passes. */
const PARAM_TYPES: Record<string, string> = { splat_parameter: 'Array', hash_splat_parameter: 'Hash', block_parameter: 'Proc' };
/** Binding name that holds a method's return type (its last expression builds an object): `def repo = Repo.new`. */
export const RETURNS = '()';
/** Magic comments at the top of a file are not documentation. */
const MAGIC = /^#\s*(?:frozen_string_literal|encoding|coding|-\*-|warn_indent|shareable_constant_value)\b|^#!/;
/** YARD `@param name [Type]` / `@param [Type] name`: a parameter's declared type. */
const YARD_PARAM = /@param\s+(?:\[([A-Z][\w:]*)[^\]]*\]\s+(\w+)|(\w+)\s+\[([A-Z][\w:]*)[^\]]*\])/g;

/**
 * Ruby.
 *
 * Scopes: modules (`module`), classes (`class`), methods (`def x` and `def self.x` alike, both named
 * `x`; `initialize` is the `constructor`), top-level `def` (`function`), `attr_accessor`/`attr_reader`/
 * `attr_writer` names (`property`). Qualified names follow the lexical nesting, `::` written as `.`:
 * `module A::B; class C; def d` -> `A.B.C.d`. A class reopened in several files is one scope per file
 * (same qualified name); the resolver treats them as one type. `#` comment blocks directly above a
 * declaration (YARD/RDoc) are its doc comment. `exported`: public methods (`private`/`protected`
 * sections and `private def` make them false), every class and module.
 *
 * References: calls (`foo`, `self.foo`, `x.m`, `@x.m`, `A::B.new` -> `A.B.new`, `super`; a bare
 * identifier that is not a local is a call), `class A < B` EXTENDS, `include`/`extend`/`prepend`
 * IMPLEMENTS, constants used as values REFERENCES. Imports: `require`, `require_relative`, `load` of a
 * literal. Bindings: `x = A.new` (local), `@x = A.new` in any method (member `@x` of the class),
 * YARD `@param [Type] name`.
 */
export class RubyExtractor implements LanguageExtractor {
  readonly languages: readonly Language[] = ['ruby'];
  readonly usesTreeSitter = true;

  extract(builder: FileBuilder, tree: Tree | null): void {
    if (!tree) return;
    new RbWalker(builder, FIELDS(tree.language)).run(tree.rootNode);
  }
}

interface Ctx {
  scope: ScopeDraft;
  /** The innermost class/module (for member bindings, mixins, attrs), or null at top level. */
  type: ScopeDraft | null;
  /** Locals of the innermost method (parameters, assigned names). */
  /** Locals of the innermost method, or of the class/module/file body (blocks included). */
  locals: Set<string>;
  /** Inside a `def` (not a class, module or file body). */
  inMethod: boolean;
  /** Inside `class << self`. */
  singleton: boolean;
}

class RbWalker {
  private readonly content: string;
  private readonly lines: string[];
  /** Visibility of the next `def` per class/module body (`private` with no arguments switches it). */
  private readonly visibility = new Map<ScopeDraft, boolean>();

  constructor(private readonly b: FileBuilder, private readonly f: ReturnType<typeof FIELDS>) {
    this.content = b.content;
    this.lines = b.content.split('\n');
  }

  run(root: SyntaxNode): void {
    const locals = new Set<string>();
    this.collectLocals(root, locals);
    this.body(root, { scope: this.b.file, type: null, locals, singleton: false, inMethod: false });
  }

  private body(node: SyntaxNode, ctx: Ctx): void {
    for (const c of node.namedChildren) this.walk(c, ctx);
  }

  private walk(node: SyntaxNode, ctx: Ctx): void {
    switch (node.type) {
      case 'comment':
      case 'string_content':
      case 'integer':
      case 'float':
      case 'simple_symbol':
      case 'hash_key_symbol':
      case 'true':
      case 'false':
      case 'nil':
      case 'self':
      case 'instance_variable':
      case 'class_variable':
      case 'global_variable':
        return;
      case 'module':
      case 'class':
        this.typeDecl(node, ctx);
        return;
      case 'singleton_class': {
        const body = fieldChild(node, this.f.body);
        if (body) this.body(body, { ...ctx, singleton: true });
        return;
      }
      case 'method':
      case 'singleton_method':
        this.method(node, ctx);
        return;
      case 'call':
        this.call(node, ctx);
        return;
      case 'super':
        this.b.ref(ctx.scope, 'CALLS', 'super', startLine(node));
        return;
      case 'identifier': {
        const name = nodeText(this.content, node);
        if (ctx.type && !ctx.inMethod && VISIBILITY.has(name)) this.visibility.set(ctx.type, name === 'public');
        else if (!ctx.locals.has(name)) this.b.ref(ctx.scope, 'CALLS', name, startLine(node));
        return;
      }
      case 'constant':
      case 'scope_resolution': {
        const name = this.chain(node);
        if (name) this.b.ref(ctx.scope, 'REFERENCES', name, startLine(node));
        return;
      }
      case 'assignment':
      case 'operator_assignment':
        this.assignment(node, ctx);
        return;
      case 'alias': {
        // `alias new old` defines a method `new` (lookups then see both names)
        const n = fieldChild(node, this.f.name);
        if (n && ctx.type && !ctx.inMethod) this.definedMethod(n, ctx, nodeText(this.content, node), false);
        return;
      }
      case 'pair': {
        // `key: value` / `key => value`: a `hash_key_symbol` key is a name, not a call.
        for (const c of node.namedChildren) if (c.type !== 'hash_key_symbol') this.walk(c, ctx);
        return;
      }
      default:
        if (PARAMS.has(node.type)) {
          // parameter names are locals (collected up front); default values are expressions
          for (const c of node.namedChildren) if (c.type !== 'identifier') this.walk(c, ctx);
          return;
        }
        this.body(node, ctx);
    }
  }

  // ---------------------------------------------------------------- declarations

  private typeDecl(node: SyntaxNode, ctx: Ctx): void {
    const nameNode = fieldChild(node, this.f.name);
    const written = nameNode ? this.chain(nameNode) : null;
    if (!nameNode || !written) {
      const body = fieldChild(node, this.f.body);
      if (body) this.body(body, ctx);
      return;
    }
    const kind = node.type === 'module' ? 'module' : 'class';
    const leadingColons = nodeText(this.content, nameNode).startsWith('::');
    const qualifiedName = ctx.type && !leadingColons ? `${ctx.type.qualifiedName}.${written}` : written;
    const name = written.slice(written.lastIndexOf('.') + 1);
    const body = fieldChild(node, this.f.body);
    const superclass = fieldChild(node, this.f.superclass);
    const sigEnd = superclass ? superclass.endIndex : nameNode.endIndex;
    const s = this.b.addScope({
      name, qualifiedName, kind, parent: ctx.scope,
      startIndex: node.startIndex, endIndex: node.endIndex, startLine: startLine(node), endLine: endLine(node),
      signature: `${kind} ${nodeText(this.content, node).slice(nameNode.startIndex - node.startIndex, sigEnd - node.startIndex)}`,
      docComment: this.doc(node),
      exported: true,
    });
    const locals = new Set<string>();
    if (body) this.collectLocals(body, locals);
    const inner: Ctx = { scope: s, type: s, locals, singleton: false, inMethod: false };
    if (superclass) {
      const base = superclass.namedChild(0);
      const baseName = base ? this.chain(base) : null;
      if (baseName) this.b.ref(s, 'EXTENDS', baseName, startLine(superclass));
      else if (base) this.walk(base, inner); // `class A < Struct.new(:a)`
    }
    if (body) this.body(body, inner);
  }

  private method(node: SyntaxNode, ctx: Ctx, forceExported?: boolean): void {
    const nameNode = fieldChild(node, this.f.name);
    const name = nameNode ? nodeText(this.content, nameNode) : 'method';
    const params = fieldChild(node, this.f.parameters);
    const body = fieldChild(node, this.f.body);
    const singleton = node.type === 'singleton_method' || ctx.singleton;
    const kind = !ctx.type ? 'function' : name === 'initialize' && !singleton ? 'constructor' : 'method';
    const sigEnd = params ? params.endIndex : nameNode ? nameNode.endIndex : node.startIndex;
    const header = this.content.slice(node.startIndex, sigEnd);
    const doc = this.doc(node);
    const exported = forceExported ?? (ctx.type ? (this.visibility.get(ctx.type) ?? true) && name !== 'initialize' : true);
    const s = this.b.addScope({
      name, kind, parent: ctx.scope,
      qualifiedName: ctx.type ? `${ctx.type.qualifiedName}.${name}` : name,
      startIndex: node.startIndex, endIndex: node.endIndex, startLine: startLine(node), endLine: endLine(node),
      signature: ctx.singleton && node.type === 'method' ? header.replace(/^def\s+/, 'def self.') : header,
      docComment: doc,
      exported,
      // a class method (`def self.x`, `class << self`) belongs to the class object itself, written `self`
      ...(singleton && ctx.type ? { owner: 'self' } : {}),
    });
    const locals = new Set<string>();
    if (params) this.collectLocals(params, locals);
    if (body) this.collectLocals(body, locals);
    if (doc) {
      for (const m of doc.matchAll(YARD_PARAM)) {
        const type = m[1] ?? m[4];
        const pname = m[2] ?? m[3];
        if (locals.has(pname)) this.b.binding(s, pname, type.replace(/::/g, '.'), false);
      }
    }
    if (params) {
      for (const p of params.namedChildren) {
        const pname = fieldChild(p, this.f.name);
        if (!pname) continue;
        const value = fieldChild(p, this.f.value);
        const type = PARAM_TYPES[p.type] ?? (value ? this.valueType(value) : null);
        if (type) this.b.binding(s, nodeText(this.content, pname), type, false);
      }
    }
    const last = body?.type === 'body_statement' ? body.namedChild(body.namedChildCount - 1) : body;
    const returned = last ? this.valueType(last.type === 'assignment' || last.type === 'operator_assignment' ? fieldChild(last, this.f.right) ?? last : last) : null;
    if (returned) this.b.binding(s, RETURNS, returned, false);
    const inner: Ctx = { scope: s, type: ctx.type, locals, singleton: false, inMethod: true };
    if (params) this.walk(params, inner);
    if (body) this.walk(body, inner);
  }

  /** Parameter names and assigned names of a method body (not of nested `def`s). */
  private collectLocals(node: SyntaxNode, out: Set<string>): void {
    const t = node.type;
    if (t === 'method' || t === 'singleton_method' || t === 'class' || t === 'module') return;
    if (t === 'identifier') {
      const p = node.parent?.type;
      if (p && (PARAMS.has(p) || p === 'left_assignment_list' || p === 'exception_variable' || p === 'destructured_left_assignment' || p === 'rest_assignment')) {
        out.add(nodeText(this.content, node));
      }
      return;
    }
    if (t === 'assignment' || t === 'operator_assignment' || t === 'for') {
      const left = t === 'for' ? fieldChild(node, this.f.pattern) : fieldChild(node, this.f.left);
      if (left?.type === 'identifier') out.add(nodeText(this.content, left));
    }
    for (const c of node.namedChildren) this.collectLocals(c, out);
  }

  private assignment(node: SyntaxNode, ctx: Ctx): void {
    const left = fieldChild(node, this.f.left);
    const right = fieldChild(node, this.f.right);
    if (left?.type === 'constant' && !ctx.inMethod && node.type === 'assignment') {
      // `VERSION = '1.0'` in a class, module or file body: a constant of that namespace
      const name = nodeText(this.content, left);
      const firstLine = nodeText(this.content, node).split('\n')[0];
      const s = this.b.addScope({
        name, kind: 'variable', parent: ctx.scope, qualifiedName: ctx.type ? `${ctx.type.qualifiedName}.${name}` : name,
        startIndex: node.startIndex, endIndex: node.endIndex, startLine: startLine(node), endLine: endLine(node),
        signature: firstLine, docComment: this.doc(node), exported: true,
      });
      if (right) this.walk(right, { ...ctx, scope: s });
      return;
    }
    if (left && right) {
      const type = this.valueType(right);
      if (type) {
        if (left.type === 'identifier' && ctx.scope.kind !== 'file') this.b.binding(ctx.scope, nodeText(this.content, left), type, false);
        else if (left.type === 'instance_variable' && ctx.type) this.b.binding(ctx.type, nodeText(this.content, left), type, true);
      }
    }
    if (left && left.type !== 'identifier' && left.type !== 'instance_variable' && left.type !== 'constant') this.walk(left, ctx);
    if (right) this.walk(right, ctx);
  }

  /** `A::B.new(...)` -> `A.B`; a literal -> its core class. */
  private valueType(node: SyntaxNode, depth = 0): string | null {
    const lit = LITERAL_TYPES[node.type];
    if (lit) return lit;
    if (node.type !== 'call' || depth > 4) return null;
    const method = fieldChild(node, this.f.method);
    const receiver = fieldChild(node, this.f.receiver);
    if (!method || !receiver) return null;
    const name = nodeText(this.content, method);
    // Ruby's conversion protocol (`string.to_s.dup`), and Enumerable's block methods (`xs.map { }`)
    const converted = CONVERSIONS[name] ?? (ARRAY_WITH_BLOCK.has(name) && fieldChild(node, this.f.block) ? 'Array' : undefined);
    if (converted) return converted;
    if (SAME_VALUE.has(name)) return this.valueType(receiver, depth + 1);
    if (name !== 'new') return null;
    if (receiver.type !== 'constant' && receiver.type !== 'scope_resolution') return null;
    return this.chain(receiver);
  }

  // ---------------------------------------------------------------- calls

  private call(node: SyntaxNode, ctx: Ctx): void {
    const receiver = fieldChild(node, this.f.receiver);
    const methodNode = fieldChild(node, this.f.method);
    const args = fieldChild(node, this.f.arguments);
    const block = fieldChild(node, this.f.block);
    const method = methodNode ? nodeText(this.content, methodNode) : '';
    const line = startLine(node);
    if (!receiver && args) {
      if (LOADS.has(method) && this.load(method, args, line)) return;
      if (ctx.type && !ctx.inMethod && this.classMacro(method, args, ctx)) return;
      if (VISIBILITY.has(method) && ctx.type) {
        // `private def x ... end` / `private :x`
        for (const a of args.namedChildren) {
          if (a.type === 'method' || a.type === 'singleton_method') this.method(a, ctx, method === 'public');
          else this.walk(a, ctx);
        }
        return;
      }
    }
    if (methodNode?.type === 'super') this.b.ref(ctx.scope, 'CALLS', 'super', line);
    else {
      const name = this.chain(node);
      if (name) this.b.ref(ctx.scope, 'CALLS', name, line);
    }
    // The receiver's own calls (`a.b` in `a.b.c`, a non-local `items` in `items.each`).
    if (receiver && receiver.type !== 'constant' && receiver.type !== 'scope_resolution') this.walk(receiver, ctx);
    else if (receiver && !this.chain(receiver)) this.walk(receiver, ctx);
    if (args) this.walk(args, ctx);
    if (block) this.walk(block, ctx);
  }

  /** `include M`, `attr_reader :a` in a class or module body; true when handled. */
  private classMacro(method: string, args: SyntaxNode, ctx: Ctx): boolean {
    const type = ctx.type!;
    if (MIXINS.has(method)) {
      for (const a of args.namedChildren) {
        const n = a.type === 'constant' || a.type === 'scope_resolution' ? this.chain(a) : null;
        if (n) this.b.ref(type, 'IMPLEMENTS', n, startLine(a));
        else this.walk(a, ctx);
      }
      return true;
    }
    const delegation = DELEGATORS[method];
    const delegated = delegation ? this.delegated(delegation, args) : [];
    // (`delegate SomeLexer` in a DSL block is no delegation: walked as the call it is)
    if (delegated.length) {
      const signature = nodeText(this.content, args.parent ?? args).split('\n')[0];
      for (const n of delegated) this.definedMethod(n, ctx, signature, method.includes('single'), args.parent ?? n);
      return true;
    }
    if (ATTRS.has(method)) {
      for (const a of args.namedChildren) {
        if (a.type !== 'simple_symbol') {
          this.walk(a, ctx);
          continue;
        }
        const name = nodeText(this.content, a).slice(1);
        this.b.addScope({
          name, kind: 'property', parent: type, qualifiedName: `${type.qualifiedName}.${name}`,
          startIndex: a.startIndex, endIndex: a.endIndex, startLine: startLine(a), endLine: endLine(a),
          signature: `${method} :${name}`,
          docComment: this.doc(args.parent ?? a),
          exported: this.visibility.get(type) ?? true,
          ...(ctx.singleton ? { owner: 'self' } : {}),
        });
      }
      return true;
    }
    return false;
  }

  /** A method a macro or `alias` defines, named by `n` (a symbol or identifier), in the class being read. */
  private definedMethod(n: SyntaxNode, ctx: Ctx, signature: string, classSide: boolean, docOf: SyntaxNode = n): void {
    const type = ctx.type!;
    const name = nodeText(this.content, n).replace(/^:/, '');
    this.b.addScope({
      name, kind: 'method', parent: type, qualifiedName: `${type.qualifiedName}.${name}`,
      startIndex: n.startIndex, endIndex: n.endIndex, startLine: startLine(n), endLine: endLine(n),
      signature, docComment: this.doc(docOf), exported: this.visibility.get(type) ?? true,
      ...(ctx.singleton || classSide ? { owner: 'self' } : {}),
    });
  }

  /**
   * The name nodes of the methods a Forwardable (or ActiveSupport) delegation defines: `def_delegators
   * :@x, :a, :b` (after the accessor), `def_delegator :@x, :a, :alias` (the alias, else the method),
   * `instance_delegate %i[a b] => :x, c: :y` (the keys), `delegate :a, :b, to: :x` (not with `prefix:`,
   * which renames them). Symbols are taken past their colon.
   */
  private delegated(how: 'list' | 'one' | 'keys' | 'first', args: SyntaxNode): SyntaxNode[] {
    const names = (n: SyntaxNode): SyntaxNode[] => {
      if (n.type === 'hash_key_symbol' || n.type === 'bare_symbol') return [n];
      if (n.type === 'simple_symbol') return [n];
      if (n.type === 'array' || n.type === 'symbol_array') return n.namedChildren.flatMap(names);
      return [];
    };
    const all = args.namedChildren;
    let out: SyntaxNode[];
    if (how === 'first') out = all[0] ? names(all[0]) : [];
    else if (how === 'list') out = all.slice(1).flatMap(names);
    else if (how === 'one') out = (all[2] ?? all[1]) ? names(all[2] ?? all[1]) : [];
    else {
      const pairs = all.filter((a) => a.type === 'pair');
      const keyOf = (p: SyntaxNode) => p.namedChild(0);
      const options = pairs.filter((p) => keyOf(p)?.type === 'hash_key_symbol' && ['to', 'prefix', 'allow_nil', 'private'].includes(nodeText(this.content, keyOf(p)!)));
      if (options.some((p) => nodeText(this.content, keyOf(p)!) === 'prefix')) return [];
      out = options.length ? all.filter((a) => a.type !== 'pair').flatMap(names) : pairs.flatMap((p) => (keyOf(p) ? names(keyOf(p)!) : []));
    }
    return out.filter((n) => /^:?[A-Za-z_]\w*[?!]?$/.test(nodeText(this.content, n)) && !nodeText(this.content, n).startsWith(':@'));
  }

  private load(method: string, args: SyntaxNode, line: number): boolean {
    const lit = args.namedChildren.find((a) => a.type === 'string');
    if (!lit || lit.namedChildren.some((c) => c.type !== 'string_content')) return false;
    const spec = lit.namedChildren.map((c) => nodeText(this.content, c)).join('');
    if (!spec) return false;
    this.b.imports.push({
      fromPath: this.b.path,
      // require_relative is relative to the file; the others search the load path (lib/ roots).
      specifier: method === 'require_relative' ? (spec.startsWith('.') ? spec : `./${spec}`) : spec,
      names: [],
      line,
    });
    return true;
  }

  /** `a.b.c`, `self.x`, `@x.y`, `A::B.new`, `::A` -> dotted name; null when computed. */
  private chain(node: SyntaxNode, depth = 0): string | null {
    if (depth > MAX_CHAIN) return null;
    switch (node.type) {
      case 'identifier':
      case 'constant':
      case 'instance_variable':
        return nodeText(this.content, node);
      case 'self':
        return 'self';
      case 'scope_resolution': {
        const name = fieldChild(node, this.f.name);
        const scope = fieldChild(node, this.f.scope);
        if (!name) return null;
        if (!scope) return nodeText(this.content, name);
        const o = this.chain(scope, depth + 1);
        return o ? `${o}.${nodeText(this.content, name)}` : null;
      }
      case 'call': {
        const method = fieldChild(node, this.f.method);
        if (!method || method.type === 'super') return null;
        const m = nodeText(this.content, method);
        if (!/^[A-Za-z_]\w*[?!=]?$/.test(m)) return null;
        const receiver = fieldChild(node, this.f.receiver);
        if (!receiver) return m;
        const o = this.chain(receiver, depth + 1);
        return o ? `${o}.${m}` : null;
      }
      case 'parenthesized_statements': {
        const inner = node.namedChildCount === 1 ? node.namedChild(0) : null;
        return inner ? this.chain(inner, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  // ---------------------------------------------------------------- helpers

  /** The `#` lines directly above a declaration (no blank line between), markers stripped. */
  private doc(node: SyntaxNode): string | null {
    const out: string[] = [];
    for (let row = node.startPosition.row - 1; row >= 0; row--) {
      const l = this.lines[row]?.trim() ?? '';
      if (!l.startsWith('#') || MAGIC.test(l)) break;
      out.unshift(l);
    }
    if (!out.length) {
      // `=begin ... =end` block directly above
      const prev = node.previousSibling;
      if (prev?.type === 'comment' && prev.endPosition.row >= node.startPosition.row - 1) {
        const t = nodeText(this.content, prev);
        if (t.startsWith('=begin')) return t.replace(/^=begin[^\n]*\n?/, '').replace(/\n?=end[\s\S]*$/, '').trim() || null;
      }
      return null;
    }
    return cleanLineComments(out, '#');
  }
}
