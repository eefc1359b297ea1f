import { cleanBlockComment, cleanLineComments } from '../../parse/doc-comments';
import { endLine, fieldChild, fieldTable, LanguageExtractor, nodeText, startLine, SyntaxNode, Tree } from '../../parse/extractor';
import type { FileBuilder, ScopeDraft } from '../../parse/file-builder';
import type { Language, ScopeKind } from '../../parse/types';
import { Reparser } from '../reparse';
import { isBuiltinType, isFnTrait } from './builtins';

/** Every field this walker reads, resolved to ids once per grammar (see `fieldTable`). */
const FIELDS = fieldTable([
  'alias', 'argument', 'arguments', 'body', 'bounds', 'element', 'field', 'function', 'left', 'list', 'macro', 'name',
  'parameters', 'path', 'pattern', 'return_type', 'trait', 'type', 'type_parameters', 'value',
] as const);
type Fields = ReturnType<typeof FIELDS>;

const TYPE_ITEMS: Record<string, ScopeKind> = {
  struct_item: 'struct',
  enum_item: 'enum',
  union_item: 'union',
  trait_item: 'trait',
};

/** Wrappers whose first type argument is what a value of them is used as (`Box<T>`, `Rc<T>`, `Option<T>`...). */
const TRANSPARENT = new Set(['Box', 'Rc', 'Arc', 'Option', 'Result', 'RefCell', 'Cell', 'Mutex', 'RwLock', 'Cow', 'Pin', 'NonNull', 'ManuallyDrop', 'MutexGuard', 'Ref', 'RefMut']);
const MAX_CHAIN = 6;
/** Iterator adaptors whose closure takes one element of the iterator. */
const ADAPTORS = new Set(['map', 'for_each', 'filter', 'filter_map', 'flat_map', 'any', 'all', 'find', 'find_map', 'position', 'take_while', 'skip_while', 'inspect', 'max_by_key', 'min_by_key', 'map_while']);
/** Collections whose first type argument is what iterating them yields. */
const COLLECTIONS = new Set(['Vec', 'VecDeque', 'HashSet', 'BTreeSet', 'BinaryHeap', 'LinkedList', 'Option', 'SmallVec']);
/** Bounds that say nothing about a value's methods worth following. */
const MARKER_TRAITS = new Set(['Sized', 'Send', 'Sync', 'Copy', 'Clone', 'Debug', 'Unpin', 'Default', 'Eq', 'PartialEq', 'Ord', 'PartialOrd', 'Hash']);

/**
 * Marker type names of bindings (TypedBinding.typeName) that are not types as written:
 * a local bound to a closure or a parameter of a `Fn` type (calling it is `dynamic`), a local whose
 * type is not written (`x.m()` through it is `unknown-receiver` rather than a guess), and a local
 * initialised from another value: a call, typed by the callee's declared return type
 * (`<value>Point.new()`), a field (`<value>self.parser().stack`) or another local (`<value>x`).
 */
export const FN_VALUE = '<fn>';
export const UNTYPED = '_';
/** A value of a type parameter without bounds here: calls on it are `dynamic`. */
export const GENERIC = '<generic>';
/** Bound with too many different types in one function (see RustWalker.bind); never overwritten. */
const CONFLICT = '_?';
/** Separates the types of a name bound several times in one function (`A|B`). */
export const ALTERNATIVE = '|';
const MAX_ALTERNATIVES = 4;
export const VALUE_PREFIX = '<value>';
/** Appended to a binding name for the element type of the collection it holds (`items[]`: `Item`). */
export const ELEMENT_SUFFIX = '[]';
/** A local bound by `Enum::Variant(x)`: typed by the variant's payload (`<variant>Ast.Repetition`). */
export const VARIANT_PREFIX = '<variant>';
/** Binding name under which a function records its declared return type (member binding of the function). */
export const RETURN_BINDING = '->';
/** Binding name under which a member of `impl Trait for T` records its trait (inherent methods win over it). */
export const TRAIT_BINDING = '<trait>';
/** Binding name under which a type alias records the type it names (member binding of the alias). */
export const ALIAS_BINDING = '=';
/** Binding name prefix under which a module records `impl Trait for Type` (see RustResolver.afterHeritage). */
export const IMPL_PREFIX = 'impl ';

/**
 * Rust.
 *
 * Scopes: inline modules `mod x { }` (`module`), structs, enums, unions, traits (`trait`, with their
 * items: `Trait.method`, associated consts, associated types as `type_alias`), type aliases, free
 * functions (nested ones `outer.inner`), consts and statics (`variable`), `macro_rules!` macros
 * (`function` named `m!`), and `impl` members as `Type.method` (`Type.CONST`): an impl block is not
 * a scope; its members are children of the module that holds the block, with `owner` = the impl's
 * type as written, and the resolver attaches them to that type wherever it is declared.
 * Doc comments: `///` and `/** *\/` before an item, `//!` (and `/*! *\/`) at the top of a file or an
 * inline module. `exported`: `pub` exactly (`pub(crate)` and friends are not visible outside the crate);
 * trait items and members of `impl Trait for T` are as visible as the trait.
 *
 * References: calls as written, `f`, `a::f`, `crate::a::f`, `super::f`, `Type::new` (`Self::new` with
 * the impl's type in place of `Self`), `x.m`, `self.field.m`, calls on a call's result `a.b().c` (the
 * resolver types `a.b()` from its declared return type), macro invocations `m!`, `log::info!`, struct
 * literals `Point { }` (CALLS, like a `new`); type names in signatures, fields, lets and casts
 * (REFERENCES, `.`-separated: `fmt.Formatter`), supertraits (EXTENDS). `impl Trait for Type` is recorded as a binding of the module (see IMPL_PREFIX).
 * Imports: one RawImport per `use` leaf (`use a::{b, c as d}` -> specifier `a::b`, names
 * [{imported:'b', local:'b'}]...; globs `a::*`), `mod foo;` (specifier `mod foo`), `extern crate x`.
 * Inside an inline module the specifier is prefixed with that module's path and `|`
 * (`tests|super::*`), since `super`/`self` are relative to it.
 */
export class RustExtractor implements LanguageExtractor {
  readonly languages: readonly Language[] = ['rust'];
  readonly usesTreeSitter = true;

  private readonly reparser = new Reparser();

  extract(builder: FileBuilder, tree: Tree | null): void {
    if (!tree) return;
    new RustWalker(builder, FIELDS(tree.language), (text) => this.reparser.parse(tree.language, text)).run(tree.rootNode);
  }

}

/** A macro invocation's tokens that read as items (`trait_template! { pub trait T { fn f(); } }`): no metavariables, an item keyword. */
const ITEM_TOKENS = /(?:^|[\s;}\]])(?:pub\s+)?(?:unsafe\s+)?(?:trait|fn|struct|enum|union|impl)\s/;

/**
 * The text with everything but the given ranges blanked (offsets and lines kept), and inside them
 * `@marker` tokens of macro-internal rules blanked with the one token tree after them on the line
 * (`@section self`, `@escape [type X]`), since they are not Rust syntax.
 */
export function maskOutside(content: string, ranges: { start: number; end: number }[]): string {
  const blank = (t: string) => t.replace(/[^\r\n]/g, ' ');
  let out = '';
  let at = 0;
  for (const r of ranges) {
    out += blank(content.slice(at, r.start));
    out += content.slice(r.start, r.end).replace(/@[A-Za-z_]\w*(\s*\[[^\[\]]*\]|[ \t]+[A-Za-z_]\w*)?/g, blank);
    at = r.end;
  }
  return out + blank(content.slice(at));
}

interface Ctx {
  /** The module scope (file or inline `mod`) items belong to. */
  module: ScopeDraft;
  /** `Self` inside an impl or trait (the type as written, `.`-separated). */
  self?: string;
  /** In `impl Trait for T`: members are as visible as the trait. */
  traitImpl?: boolean;
  /** The trait of `impl Trait for T`, as written. */
  trait?: string;
  /** Generic parameters in scope and the trait each is bound by (`T: Area` -> Area; `F: Fn()` -> FN_VALUE). */
  generics?: Map<string, string>;
}

class RustWalker {
  private readonly content: string;

  /** Module-level macro invocations whose tokens read as items (see ITEM_TOKENS), walked after the file. */
  private readonly itemMacros: { start: number; end: number; ctx: Ctx; scope: ScopeDraft }[] = [];

  constructor(
    private readonly b: FileBuilder,
    private readonly f: Fields,
    private readonly reparse: (text: string) => Tree | null,
  ) {
    this.content = b.content;
  }

  /** Bindings per scope; flushed to the builder at the end (see bind). */
  private readonly bindings = new Map<ScopeDraft, Map<string, { type: string; member: boolean }>>();

  run(root: SyntaxNode): void {
    this.b.file.docComment = this.innerDoc(root);
    this.items(root, { module: this.b.file }, this.b.file);
    this.macroItems();
    for (const [scope, names] of this.bindings) for (const [name, v] of names) this.b.binding(scope, name.slice(2), v.type, v.member);
  }

  /**
   * A name's type in a scope. A name bound with different types in one function (match arms
   * `A(x) => x.span(), B(x) => x.span()`, shadowing `let`s) has all of them (`A|B`): bindings carry no
   * position, and the function does call `A.span` and `B.span`; past a few, it is untyped.
   * An untyped binding (a closure's parameter, a pattern) does not hide a typed one of the same name.
   */
  private bind(scope: ScopeDraft, name: string, type: string, member: boolean): void {
    if (!name || !type) return;
    // `let x = x.clone();` / `let x = x?;` rebinds x to a value of its own type
    if (type === `${VALUE_PREFIX}${name}`) return;
    let names = this.bindings.get(scope);
    if (!names) this.bindings.set(scope, (names = new Map()));
    const key = `${member ? 'm' : 'l'}:${name}`;
    const prev = names.get(key);
    if (!prev || prev.type === UNTYPED) names.set(key, { type, member });
    else if (type !== UNTYPED && prev.type !== CONFLICT) {
      const alternatives = new Set([...prev.type.split(ALTERNATIVE), type]);
      prev.type = alternatives.size > MAX_ALTERNATIVES ? CONFLICT : [...alternatives].join(ALTERNATIVE);
    }
  }

  private text(n: SyntaxNode): string {
    return nodeText(this.content, n);
  }

  /** Items of a module body, trait body or impl body, or statements of a block. */
  private items(node: SyntaxNode, ctx: Ctx, scope: ScopeDraft): void {
    for (const c of node.namedChildren) this.walk(c, ctx, scope);
  }

  private walk(node: SyntaxNode, ctx: Ctx, scope: ScopeDraft): void {
    const t = node.type;
    const typeKind = TYPE_ITEMS[t];
    if (typeKind) {
      this.typeItem(node, typeKind, ctx, scope);
      return;
    }
    switch (t) {
      case 'line_comment':
      case 'block_comment':
      case 'attribute_item':
      case 'inner_attribute_item':
      case 'identifier':
      case 'integer_literal':
      case 'float_literal':
      case 'string_literal':
      case 'raw_string_literal':
      case 'char_literal':
      case 'boolean_literal':
      case 'self':
      case 'crate':
      case 'super':
      case 'field_identifier':
      case 'type_identifier':
      case 'primitive_type':
        return;
      case 'mod_item':
        this.modItem(node, ctx, scope);
        return;
      case 'use_declaration':
        this.useDecl(node, ctx);
        return;
      case 'extern_crate_declaration': {
        const name = fieldChild(node, this.f.name);
        const alias = fieldChild(node, this.f.alias);
        if (name) this.addImport(ctx, name.text, [{ imported: name.text, local: alias?.text ?? name.text }], node, true);
        return;
      }
      case 'function_item':
      case 'function_signature_item':
        this.fn(node, ctx, scope);
        return;
      case 'impl_item':
        this.implItem(node, ctx, scope);
        return;
      case 'type_item':
      case 'associated_type':
        this.typeAlias(node, ctx, scope);
        return;
      case 'const_item':
      case 'static_item':
        this.constItem(node, ctx, scope);
        return;
      case 'macro_definition':
        this.macroDef(node, ctx, scope);
        return;
      case 'macro_invocation': {
        const m = fieldChild(node, this.f.macro);
        const name = m ? this.path(m)?.replace(/\./g, '::') : null;
        if (name) this.b.ref(scope, 'CALLS', `${name}!`, startLine(node));
        const tokens = node.namedChildren.find((c) => c.type === 'token_tree');
        if (tokens && !ctx.self && (scope.kind === 'file' || scope.kind === 'module')) {
          const inner = this.content.slice(tokens.startIndex + 1, tokens.endIndex - 1);
          if (!inner.includes('$') && ITEM_TOKENS.test(inner)) this.itemMacros.push({ start: tokens.startIndex + 1, end: tokens.endIndex - 1, ctx, scope });
        }
        return;
      }
      case 'call_expression':
        this.call(node, ctx, scope);
        return;
      case 'struct_expression': {
        const name = fieldChild(node, this.f.name);
        const p = name ? this.typePath(name, ctx) : null;
        // a path as written (`ast::Span { }`): never a local variable's field
        if (p) this.b.ref(scope, 'CALLS', p.replace(/\./g, '::'), startLine(node));
        if (name) this.typeArgs(name, ctx, scope);
        const body = fieldChild(node, this.f.body);
        if (body) this.items(body, ctx, scope);
        return;
      }
      case 'let_declaration':
        this.letDecl(node, ctx, scope);
        return;
      case 'closure_expression': {
        const params = fieldChild(node, this.f.parameters);
        if (params) this.params(params, ctx, scope, false);
        const body = fieldChild(node, this.f.body);
        if (body) this.walk(body, ctx, scope);
        return;
      }
      case 'for_expression': {
        const pat = fieldChild(node, this.f.pattern);
        const iterable = fieldChild(node, this.f.value);
        const over = iterable ? this.iterated(iterable, ctx) : null;
        const name = pat?.type === 'identifier' ? pat.text : pat?.type === 'mut_pattern' ? pat.namedChild(0)?.text : undefined;
        if (name && over) this.bind(scope, name, `${VALUE_PREFIX}${over}${ELEMENT_SUFFIX}`, false);
        else if (pat) this.patternLocals(pat, scope, 0, ctx);
        for (const c of node.namedChildren) if (c.id !== pat?.id) this.walk(c, ctx, scope);
        return;
      }
      case 'let_condition':
      case 'match_pattern': {
        const pat = fieldChild(node, this.f.pattern) ?? (t === 'match_pattern' ? node.namedChild(0) : null);
        if (pat) this.patternLocals(pat, scope, 0, ctx);
        for (const c of node.namedChildren) if (c.id !== pat?.id) this.walk(c, ctx, scope);
        return;
      }
      case 'type_cast_expression': {
        const type = fieldChild(node, this.f.type);
        if (type) this.typeRefs(type, ctx, scope);
        const value = fieldChild(node, this.f.value);
        if (value) this.walk(value, ctx, scope);
        return;
      }
      case 'generic_function': {
        for (const c of node.namedChildren) if (c.type === 'type_arguments') this.typeRefs(c, ctx, scope);
        const fn = fieldChild(node, this.f.function);
        if (fn) this.walk(fn, ctx, scope);
        return;
      }
      case 'token_tree':
        return; // macro arguments are tokens, not expressions
      default:
        this.items(node, ctx, scope);
    }
  }

  /**
   * Items written inside module-level macro invocations (petgraph declares its graph traits inside
   * `trait_template! { pub trait ... }`): the invocations' tokens are parsed again as Rust, in place
   * (everything else blanked, so offsets and lines are the file's), and the items of every
   * invocation that parses without an error are walked as if written in its module.
   */
  private macroItems(): void {
    if (!this.itemMacros.length) return;
    const tree = this.reparse(maskOutside(this.content, this.itemMacros));
    if (!tree) return;
    try {
      const children = tree.rootNode.namedChildren;
      for (const m of this.itemMacros) {
        const inside = children.filter((c) => c.startIndex >= m.start && c.endIndex <= m.end);
        if (!inside.length || inside.some((c) => c.hasError || c.type === 'ERROR')) continue;
        if (children.some((c) => c.type === 'ERROR' && c.startIndex < m.end && c.endIndex > m.start)) continue;
        for (const c of inside) this.walk(c, m.ctx, m.scope);
      }
    } finally {
      tree.delete();
    }
  }

  // ---- items -------------------------------------------------------------------------------

  private modItem(node: SyntaxNode, ctx: Ctx, scope: ScopeDraft): void {
    const name = fieldChild(node, this.f.name)?.text;
    if (!name) return;
    const body = fieldChild(node, this.f.body);
    if (!body) {
      this.addImport(ctx, `mod ${name}`, [], node, false);
      return;
    }
    const s = this.b.addScope({
      name, kind: 'module', parent: scope, ...this.range(node),
      signature: this.header(node, body),
      docComment: this.doc(node) ?? this.innerDoc(body),
      exported: this.isPub(node),
    });
    this.items(body, { module: s }, s);
  }

  private typeItem(node: SyntaxNode, kind: ScopeKind, ctx: Ctx, scope: ScopeDraft): void {
    const nameNode = fieldChild(node, this.f.name);
    if (!nameNode) return;
    const name = nameNode.text;
    const body = fieldChild(node, this.f.body);
    const s = this.b.addScope({
      name, kind, parent: scope, ...this.range(node),
      signature: this.header(node, body),
      docComment: this.doc(node),
      exported: this.isPub(node),
    });
    const generics = this.generics(node, ctx, s);
    const inner: Ctx = { module: ctx.module, generics, ...(kind === 'trait' ? { self: name } : {}) };
    if (kind === 'trait') {
      const bounds = fieldChild(node, this.f.bounds);
      if (bounds) for (const c of bounds.namedChildren) {
        const p = this.typePath(c, inner);
        if (p) this.b.ref(s, 'EXTENDS', p, startLine(c));
      }
      this.whereClause(node, inner, s);
      if (body) for (const c of body.namedChildren) this.walk(c, inner, s);
      return;
    }
    this.whereClause(node, inner, s);
    if (!body) return;
    if (body.type === 'field_declaration_list') this.fields(body, inner, s);
    else if (body.type === 'ordered_field_declaration_list') this.typeRefs(body, inner, s);
    else if (body.type === 'enum_variant_list') {
      for (const v of body.namedChildren) {
        if (v.type !== 'enum_variant') continue;
        const vn = fieldChild(v, this.f.name);
        // a variant is a member of its enum (kind `variable`, as every language's enum members)
        if (vn) this.b.addScope({ name: vn.text, kind: 'variable', parent: s, ...this.range(v), signature: this.text(v).split('\n')[0].replace(/,\s*$/, ''), docComment: this.doc(v), exported: s.exported });
        const vb = fieldChild(v, this.f.body);
        if (vb?.type === 'field_declaration_list') this.fields(vb, inner, s, false);
        else if (vb) {
          this.typeRefs(vb, inner, s);
          // `Variant(Payload)`: what `Enum::Variant(x)` binds x to (see patternLocals)
          const types = vb.namedChildren.filter((c) => c.type !== 'attribute_item' && c.type !== 'visibility_modifier');
          const name = fieldChild(v, this.f.name)?.text;
          const tn = types.length === 1 ? this.valueType(types[0], inner) : null;
          if (name && tn) this.bind(s, `${name}()`, tn, true);
        }
        const value = fieldChild(v, this.f.value);
        if (value) this.walk(value, inner, s);
      }
    }
  }

  private fields(list: SyntaxNode, ctx: Ctx, s: ScopeDraft, bind = true): void {
    for (const fd of list.namedChildren) {
      if (fd.type !== 'field_declaration') continue;
      const type = fieldChild(fd, this.f.type);
      const name = fieldChild(fd, this.f.name);
      if (!type) continue;
      this.typeRefs(type, ctx, s);
      const tn = this.valueType(type, ctx);
      if (bind && name && tn) this.bind(s, name.text, tn, true);
      const el = bind && name ? this.elementType(type, ctx) : null;
      if (el && name) this.bind(s, `${name.text}${ELEMENT_SUFFIX}`, el, true);
    }
  }

  private implItem(node: SyntaxNode, ctx: Ctx, scope: ScopeDraft): void {
    const typeNode = fieldChild(node, this.f.type);
    const traitNode = fieldChild(node, this.f.trait);
    const body = fieldChild(node, this.f.body);
    if (!typeNode) return;
    const generics = this.generics(node, ctx, scope);
    const inner: Ctx = { module: ctx.module, generics };
    const self = this.typePath(typeNode, inner);
    const trait = traitNode ? this.typePath(traitNode, inner) : null;
    if (self) inner.self = self;
    if (trait) {
      inner.traitImpl = true;
      inner.trait = trait;
    }
    // The impl's own type and trait names are uses of them, from the module that holds the block.
    this.typeArgs(typeNode, inner, scope);
    if (traitNode) this.typeArgs(traitNode, inner, scope);
    this.whereClause(node, inner, scope);
    if (self && trait) this.bind(ctx.module, `${IMPL_PREFIX}${trait} for ${self}`, self, true);
    if (!body || !self) return;
    for (const c of body.namedChildren) {
      if (c.type === 'function_item' || c.type === 'function_signature_item' || c.type === 'const_item') this.walk(c, inner, scope);
      else if (c.type === 'macro_invocation') this.walk(c, inner, scope);
    }
  }

  private fn(node: SyntaxNode, ctx: Ctx, scope: ScopeDraft): void {
    const nameNode = fieldChild(node, this.f.name);
    if (!nameNode) return;
    const name = nameNode.text;
    const body = fieldChild(node, this.f.body);
    const member = isMemberSite(ctx, scope);
    const inImpl = member && scope.kind !== 'trait';
    const kind: ScopeKind = member ? 'method' : 'function';
    const s = this.b.addScope({
      name,
      ...(inImpl ? { qualifiedName: this.b.qualify(scope, `${lastSegment(ctx.self!)}.${name}`), owner: ctx.self } : {}),
      kind, parent: scope, ...this.range(node),
      signature: this.header(node, body),
      docComment: this.doc(node),
      exported: scope.kind === 'trait' ? scope.exported : ctx.traitImpl ? true : this.isPub(node),
    });
    const generics = this.generics(node, ctx, s);
    const inner: Ctx = { module: ctx.module, generics, ...(ctx.self ? { self: ctx.self } : {}) };
    this.whereClause(node, inner, s);
    if (member) this.bind(s, 'self', ctx.self!, false);
    if (inImpl && ctx.trait) this.bind(s, TRAIT_BINDING, ctx.trait, true);
    const params = fieldChild(node, this.f.parameters);
    if (params) this.params(params, inner, s, true);
    const ret = fieldChild(node, this.f.return_type);
    if (ret) {
      this.typeRefs(ret, inner, s);
      const tn = this.valueType(ret, inner);
      if (tn && tn !== FN_VALUE) this.bind(s, RETURN_BINDING, tn === 'Self' && ctx.self ? ctx.self : tn, true);
    }
    // Items nested in a function body belong to the function (`outer.inner`), not to the module.
    if (body) this.items(body, inner, s);
  }

  private params(list: SyntaxNode, ctx: Ctx, s: ScopeDraft, typedOnly: boolean): void {
    for (const p of list.namedChildren) {
      if (p.type === 'parameter') {
        const pat = fieldChild(p, this.f.pattern);
        const type = fieldChild(p, this.f.type);
        if (type) this.typeRefs(type, ctx, s);
        const name = pat?.type === 'identifier' ? pat.text : pat?.type === 'mut_pattern' ? pat.namedChild(0)?.text : undefined;
        if (name) this.bind(s, name, (type ? this.valueType(type, ctx) : null) ?? UNTYPED, false);
        const el = name && type ? this.elementType(type, ctx) : null;
        if (el && name) this.bind(s, `${name}${ELEMENT_SUFFIX}`, el, false);
        else if (pat) this.patternLocals(pat, s, 0, ctx);
      } else if (!typedOnly) {
        // closure parameters without a type
        if (p.type === 'identifier') this.bind(s, p.text, UNTYPED, false);
        else this.patternLocals(p, s, 0, ctx);
      }
    }
  }

  private letDecl(node: SyntaxNode, ctx: Ctx, scope: ScopeDraft): void {
    const pat = fieldChild(node, this.f.pattern);
    const type = fieldChild(node, this.f.type);
    const value = fieldChild(node, this.f.value);
    if (type) this.typeRefs(type, ctx, scope);
    const name = pat?.type === 'identifier' ? pat.text : pat?.type === 'mut_pattern' ? pat.namedChild(0)?.text : undefined;
    if (name) {
      const tn = (type ? this.valueType(type, ctx) : null) ?? (value ? this.valueOf(value, ctx) : null) ?? UNTYPED;
      const el = type ? this.elementType(type, ctx) : null;
      if (el) this.bind(scope, `${name}${ELEMENT_SUFFIX}`, el, false);
      this.bind(scope, name, tn, false);
    } else if (pat) this.patternLocals(pat, scope, 0, ctx);
    for (const c of node.namedChildren) if (c.id !== pat?.id && c.id !== type?.id) this.walk(c, ctx, scope);
  }

  /** What a `let` initialiser tells of the local's type. */
  private valueOf(value: SyntaxNode, ctx: Ctx, depth = 0): string | null {
    if (depth > MAX_CHAIN) return null;
    switch (value.type) {
      case 'closure_expression':
        return FN_VALUE;
      case 'macro_invocation': {
        const m = fieldChild(value, this.f.macro)?.text;
        return m === 'vec' ? 'Vec' : m === 'format' ? 'String' : null;
      }
      case 'string_literal':
      case 'raw_string_literal':
        return 'str';
      case 'array_expression':
        return 'std.slice';
      case 'struct_expression': {
        const name = fieldChild(value, this.f.name);
        return name ? this.typePath(name, ctx) : null;
      }
      case 'reference_expression':
      case 'try_expression':
      case 'parenthesized_expression': {
        const inner = fieldChild(value, this.f.value) ?? value.namedChildren.find((c) => c.type !== 'mutable_specifier') ?? null;
        return inner ? this.valueOf(inner, ctx, depth + 1) : null;
      }
      case 'call_expression': {
        const fn = fieldChild(value, this.f.function);
        if (!fn) return null;
        // `x.unwrap()`/`.expect(..)`/`.clone()` keep the type the receiver's call gave
        if (fn.type === 'field_expression') {
          const field = fieldChild(fn, this.f.field)?.text;
          const recv = fieldChild(fn, this.f.value);
          if (recv && field && /^(unwrap|expect|unwrap_or_default|clone|to_owned|borrow|borrow_mut|as_ref|as_mut|lock)$/.test(field)) {
            return this.valueOf(recv, ctx, depth + 1);
          }
        }
        const callee = this.callee(fn, ctx);
        return callee ? `${VALUE_PREFIX}${callee}()` : null;
      }
      case 'field_expression':
      case 'identifier': {
        const path = this.receiver(value, ctx, depth + 1);
        return path && path !== 'self' ? `${VALUE_PREFIX}${path}` : null;
      }
      case 'type_cast_expression': {
        const type = fieldChild(value, this.f.type);
        return type ? this.valueType(type, ctx) : null;
      }
      default:
        return null;
    }
  }

  /** What a `for` loop iterates, as a value path: `&self.items`, `v.iter()`, `xs.iter_mut()` -> `self.items`, `v`, `xs`. */
  private iterated(n: SyntaxNode, ctx: Ctx, depth = 0): string | null {
    if (depth > 4) return null;
    if (n.type === 'reference_expression') {
      const inner = fieldChild(n, this.f.value);
      return inner ? this.iterated(inner, ctx, depth + 1) : null;
    }
    if (n.type === 'call_expression') {
      const fn = fieldChild(n, this.f.function);
      const field = fn?.type === 'field_expression' ? fieldChild(fn, this.f.field)?.text : undefined;
      const recv = fn?.type === 'field_expression' ? fieldChild(fn, this.f.value) : null;
      return recv && field && /^(iter|iter_mut|into_iter|drain)$/.test(field) ? this.iterated(recv, ctx, depth + 1) : null;
    }
    if (n.type === 'identifier' || n.type === 'field_expression') {
      const p = this.receiver(n, ctx, depth + 1);
      return p && p !== 'self' && !p.endsWith('()') ? p : null;
    }
    return null;
  }

  /** The element type of a collection type (`Vec<T>`, `&[T]`, `[T; N]`, `HashSet<T>`, `Option<T>`), or null. */
  private elementType(n: SyntaxNode, ctx: Ctx, depth = 0): string | null {
    if (depth > 4) return null;
    if (n.type === 'reference_type' || n.type === 'pointer_type') {
      const inner = fieldChild(n, this.f.type);
      return inner ? this.elementType(inner, ctx, depth + 1) : null;
    }
    if (n.type === 'array_type') {
      const el = fieldChild(n, this.f.element);
      return el ? this.valueType(el, ctx) : null;
    }
    if (n.type === 'generic_type') {
      const base = this.typePath(n, ctx);
      const args = n.namedChildren.find((c) => c.type === 'type_arguments');
      const first = args?.namedChildren.find((c) => c.type !== 'lifetime');
      if (!base || !first) return null;
      if (COLLECTIONS.has(base)) return this.valueType(first, ctx);
      if (base === 'Box' || base === 'Rc' || base === 'Arc') return this.elementType(first, ctx, depth + 1);
    }
    return null;
  }

  /** Identifiers bound by a pattern (`Some(x)`, `(a, b)`, `Point { x, .. }`): locals of unknown type. */
  private patternLocals(pat: SyntaxNode, scope: ScopeDraft, depth = 0, ctx?: Ctx): void {
    if (depth > 8) return;
    if (pat.type === 'identifier') {
      this.bind(scope, pat.text, UNTYPED, false);
      return;
    }
    if (pat.type === 'tuple_struct_pattern') {
      // `Enum::Variant(x)` / `Enum::Variant(ref mut x)`: x is the variant's payload
      const type = fieldChild(pat, this.f.type);
      const subs = pat.namedChildren.filter((c) => c.id !== type?.id);
      const path = type && ctx ? this.typePath(type, ctx) : null;
      let id: SyntaxNode | null = subs.length === 1 ? subs[0] : null;
      while (id && (id.type === 'ref_pattern' || id.type === 'mut_pattern')) id = id.namedChildren.find((c) => c.type !== 'mutable_specifier') ?? null;
      if (path && path.includes('.') && id?.type === 'identifier') {
        this.bind(scope, id.text, `${VARIANT_PREFIX}${path}`, false);
        return;
      }
    }
    for (const c of pat.namedChildren) {
      // `Enum::Variant(x)`: the path is not a binding
      if (c.type === 'scoped_identifier' || c.type === 'type_identifier' || c.type === 'scoped_type_identifier') continue;
      if (c.type === 'field_pattern') {
        const p = fieldChild(c, this.f.pattern);
        if (p) this.patternLocals(p, scope, depth + 1, ctx);
        else {
          const n = c.namedChildren.find((x) => x.type === 'shorthand_field_identifier' || x.type === 'identifier');
          if (n) this.bind(scope, n.text, UNTYPED, false);
        }
        continue;
      }
      this.patternLocals(c, scope, depth + 1, ctx);
    }
  }

  private typeAlias(node: SyntaxNode, ctx: Ctx, scope: ScopeDraft): void {
    const name = fieldChild(node, this.f.name)?.text;
    if (!name) return;
    if (isMemberSite(ctx, scope) && scope.kind !== 'trait') {
      // `type Output = X;` inside an impl: a use of X, not a declaration worth a scope
      const type = fieldChild(node, this.f.type);
      if (type) this.typeRefs(type, ctx, scope);
      return;
    }
    const s = this.b.addScope({
      name, kind: 'type_alias', parent: scope, ...this.range(node),
      signature: this.text(node),
      docComment: this.doc(node),
      exported: scope.kind === 'trait' ? scope.exported : this.isPub(node),
    });
    const generics = this.generics(node, ctx, s);
    const type = fieldChild(node, this.f.type);
    if (type) {
      this.typeRefs(type, { ...ctx, generics }, s);
      const tn = this.valueType(type, { ...ctx, generics });
      if (tn) this.bind(s, ALIAS_BINDING, tn, true);
    }
    const bounds = fieldChild(node, this.f.bounds);
    if (bounds) this.typeRefs(bounds, { ...ctx, generics }, s);
  }

  private constItem(node: SyntaxNode, ctx: Ctx, scope: ScopeDraft): void {
    const name = fieldChild(node, this.f.name)?.text;
    if (!name) return;
    const inImpl = isMemberSite(ctx, scope) && scope.kind !== 'trait';
    const value = fieldChild(node, this.f.value);
    const s = this.b.addScope({
      name,
      ...(inImpl ? { qualifiedName: this.b.qualify(scope, `${lastSegment(ctx.self!)}.${name}`), owner: ctx.self } : {}),
      kind: 'variable', parent: scope, ...this.range(node),
      signature: this.header(node, value, true),
      docComment: this.doc(node),
      exported: scope.kind === 'trait' ? scope.exported : ctx.traitImpl ? true : this.isPub(node),
    });
    const type = fieldChild(node, this.f.type);
    if (type) {
      this.typeRefs(type, ctx, s);
      const tn = this.valueType(type, ctx);
      if (tn && !inImpl && scope.kind !== 'trait') this.bind(ctx.module, name, tn, false);
    }
    if (value) this.walk(value, ctx, s);
  }

  private macroDef(node: SyntaxNode, ctx: Ctx, scope: ScopeDraft): void {
    const name = fieldChild(node, this.f.name)?.text;
    if (!name) return;
    const exported = this.attributes(node).some((a) => /^#\[\s*macro_export\b/.test(a));
    this.b.addScope({
      name: `${name}!`, kind: 'function', parent: scope, ...this.range(node),
      signature: `macro_rules! ${name}`,
      docComment: this.doc(node),
      exported,
    });
    void ctx;
  }

  // ---- uses --------------------------------------------------------------------------------

  private useDecl(node: SyntaxNode, ctx: Ctx): void {
    const arg = fieldChild(node, this.f.argument);
    if (!arg) return;
    const leaves: { path: string; local: string; imported: string }[] = [];
    this.useTree(arg, '', leaves, 0);
    for (const l of leaves) {
      this.addImport(ctx, l.path, [{ imported: l.imported, local: l.local }], node, this.isPub(node));
    }
  }

  /** Flattens a use tree into leaves: full path (`::`-separated), local name, last segment. */
  private useTree(n: SyntaxNode, prefix: string, out: { path: string; local: string; imported: string }[], depth: number): void {
    if (depth > 12) return;
    const join = (p: string) => (prefix ? `${prefix}::${p}` : p);
    switch (n.type) {
      case 'identifier':
      case 'self':
      case 'crate':
      case 'super':
      case 'scoped_identifier': {
        const path = join(this.text(n).replace(/\s+/g, ''));
        const segs = path.split('::');
        let last = segs[segs.length - 1];
        // `use a::b::{self}` imports `b`
        if (last === 'self' && segs.length > 1) {
          segs.pop();
          last = segs[segs.length - 1];
        }
        out.push({ path: segs.join('::'), local: last, imported: last });
        return;
      }
      case 'use_as_clause': {
        const p = fieldChild(n, this.f.path);
        const alias = fieldChild(n, this.f.alias);
        if (!p) return;
        const path = join(this.text(p).replace(/\s+/g, ''));
        const segs = path.split('::');
        if (segs[segs.length - 1] === 'self') segs.pop();
        out.push({ path: segs.join('::'), local: alias?.text ?? segs[segs.length - 1], imported: segs[segs.length - 1] });
        return;
      }
      case 'use_wildcard': {
        const p = n.namedChild(0);
        const path = p ? join(this.text(p).replace(/\s+/g, '')) : prefix;
        out.push({ path: path ? `${path}::*` : '*', local: '*', imported: '*' });
        return;
      }
      case 'scoped_use_list': {
        const p = fieldChild(n, this.f.path);
        const list = fieldChild(n, this.f.list);
        const next = p ? join(this.text(p).replace(/\s+/g, '')) : prefix;
        if (list) for (const c of list.namedChildren) this.useTree(c, next, out, depth + 1);
        return;
      }
      case 'use_list':
        for (const c of n.namedChildren) this.useTree(c, prefix, out, depth + 1);
        return;
      default:
    }
  }

  private addImport(ctx: Ctx, specifier: string, names: { imported: string; local: string }[], node: SyntaxNode, isPub: boolean): void {
    const mod = ctx.module.kind === 'module' ? `${ctx.module.qualifiedName.replace(/\./g, '::')}|` : '';
    this.b.imports.push({
      fromPath: this.b.path, specifier: `${mod}${specifier}`, names, line: startLine(node),
      // `pub use` makes the names part of the module's interface, like a TS re-export
      ...(isPub ? { reexport: true } : {}),
      ...(specifier.startsWith('mod ') ? { isNamespace: true } : {}),
    });
  }

  // ---- calls and paths ---------------------------------------------------------------------

  private call(node: SyntaxNode, ctx: Ctx, scope: ScopeDraft): void {
    const fn = fieldChild(node, this.f.function);
    const args = fieldChild(node, this.f.arguments);
    if (fn) {
      const name = this.callee(fn, ctx);
      if (name) this.b.ref(scope, 'CALLS', name, startLine(node));
      this.walk(fn, ctx, scope);
      if (args) this.adaptorClosure(fn, args, ctx, scope);
    }
    if (args) this.walk(args, ctx, scope);
  }

  /**
   * `xs.iter().map(|x| x.f())`: an iterator adaptor's closure over a collection of known element type
   * gets its parameter typed by that element (`<value>xs[]`).
   */
  private adaptorClosure(fn: SyntaxNode, args: SyntaxNode, ctx: Ctx, scope: ScopeDraft): void {
    if (fn.type !== 'field_expression') return;
    const method = fieldChild(fn, this.f.field)?.text;
    if (!method || !ADAPTORS.has(method)) return;
    const recv = fieldChild(fn, this.f.value);
    const over = recv?.type === 'call_expression' ? this.iterated(recv, ctx) : null;
    const closure = args.namedChildren.find((c) => c.type === 'closure_expression');
    const params = closure ? fieldChild(closure, this.f.parameters) : null;
    let p = params?.namedChildren[0] ?? null;
    while (p && (p.type === 'reference_pattern' || p.type === 'ref_pattern' || p.type === 'mut_pattern')) p = p.namedChildren.find((c) => c.type !== 'mutable_specifier') ?? null;
    if (over && p?.type === 'identifier' && params!.namedChildren.length === 1) this.bind(scope, p.text, `${VALUE_PREFIX}${over}${ELEMENT_SUFFIX}`, false);
  }

  /** The callee as written: `f`, `a::f`, `Type::new`, `self.x.m`, `a.b().c` (`()`: called), or null. */
  private callee(fn: SyntaxNode, ctx: Ctx, depth = 0): string | null {
    if (depth > MAX_CHAIN) return null;
    switch (fn.type) {
      case 'identifier':
      case 'self':
        return fn.text;
      case 'scoped_identifier': {
        // written with `::` (a path: never a local variable's field), unlike `x.m`
        const p = this.path(fn, ctx)?.replace(/\./g, '::');
        if (!p) return null;
        const sep = p.indexOf('::');
        const head = sep < 0 ? p : p.slice(0, sep);
        if (head === 'Self' && ctx.self) return `${ctx.self.replace(/\./g, '::')}${p.slice(4)}`;
        // `T::new()` with `T: Trait` calls the trait's item
        const bound = ctx.generics?.get(head);
        if (bound !== undefined && sep > 0) return bound === UNTYPED || bound === FN_VALUE ? null : `${bound.replace(/\./g, '::')}${p.slice(sep)}`;
        return p;
      }
      case 'generic_function': {
        const inner = fieldChild(fn, this.f.function);
        return inner ? this.callee(inner, ctx, depth + 1) : null;
      }
      case 'field_expression': {
        const value = fieldChild(fn, this.f.value);
        const field = fieldChild(fn, this.f.field);
        if (!value || !field || field.type !== 'field_identifier') return null;
        const base = this.receiver(value, ctx, depth + 1);
        return base ? `${base}.${field.text}` : null;
      }
      default:
        return null;
    }
  }

  /** A method call's receiver as a path: `self`, `x`, `self.a.b`, `a.b()` (a call's result), or null. */
  private receiver(n: SyntaxNode, ctx: Ctx, depth: number): string | null {
    if (depth > MAX_CHAIN) return null;
    switch (n.type) {
      case 'identifier':
      case 'self':
        return n.text;
      case 'field_expression': {
        const value = fieldChild(n, this.f.value);
        const field = fieldChild(n, this.f.field);
        if (!value || !field || field.type !== 'field_identifier') return null;
        const base = this.receiver(value, ctx, depth + 1);
        return base ? `${base}.${field.text}` : null;
      }
      case 'call_expression': {
        const fn = fieldChild(n, this.f.function);
        const name = fn ? this.callee(fn, ctx, depth + 1) : null;
        return name ? `${name}()` : null;
      }
      case 'try_expression':
      case 'parenthesized_expression':
      case 'reference_expression': {
        const inner = n.namedChildren.find((c) => c.type !== 'mutable_specifier');
        return inner ? this.receiver(inner, ctx, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  /**
   * A path in code as `.`-separated segments, generics dropped: `crate::a::f` -> `crate.a.f`,
   * `Vec::<u8>::new` -> `Vec.new`, `<T as Trait>::f` -> `Trait.f`, `self::f` -> `f` (the current module).
   */
  private path(n: SyntaxNode, ctx?: Ctx, depth = 0): string | null {
    if (depth > 12) return null;
    switch (n.type) {
      case 'identifier':
      case 'type_identifier':
      case 'crate':
      case 'super':
      case 'self':
      case 'primitive_type':
        return n.text;
      case 'metavariable':
        return null;
      case 'generic_type':
      case 'generic_type_with_turbofish': {
        const t = fieldChild(n, this.f.type);
        return t ? this.path(t, ctx, depth + 1) : null;
      }
      case 'bracketed_type': {
        const inner = n.namedChild(0);
        if (inner?.type === 'qualified_type') {
          const alias = fieldChild(inner, this.f.alias);
          return alias ? this.path(alias, ctx, depth + 1) : null;
        }
        return inner ? this.path(inner, ctx, depth + 1) : null;
      }
      case 'scoped_identifier':
      case 'scoped_type_identifier': {
        const p = fieldChild(n, this.f.path);
        const name = fieldChild(n, this.f.name);
        if (!name) return null;
        if (!p) return name.text; // `::name`
        const head = this.path(p, ctx, depth + 1);
        if (!head) return null;
        return head === 'self' ? name.text : `${head}.${name.text}`;
      }
      default:
        return null;
    }
  }

  /** A type path as written (`Point`, `shapes.Circle`), `Self` replaced by the impl's type; null for primitives. */
  private typePath(n: SyntaxNode, ctx: Ctx): string | null {
    const p = this.path(n, ctx);
    if (!p || n.type === 'primitive_type') return null;
    if (p === 'Self') return ctx.self ?? 'Self';
    if (p.startsWith('Self.') && ctx.self) return `${ctx.self}${p.slice(4)}`;
    return p;
  }

  // ---- types -------------------------------------------------------------------------------

  /** Generic parameters (and their first bound) of an item, excluded from type references. */
  private generics(node: SyntaxNode, ctx: Ctx, s: ScopeDraft): Map<string, string> | undefined {
    const tp = fieldChild(node, this.f.type_parameters);
    if (!tp) return ctx.generics;
    const out = new Map(ctx.generics ?? []);
    s.typeParams ??= new Set();
    for (const p of tp.namedChildren) {
      const name = p.type === 'type_parameter' || p.type === 'constrained_type_parameter' ? (fieldChild(p, this.f.name) ?? fieldChild(p, this.f.left)) : p.type === 'type_identifier' ? p : null;
      if (!name) continue;
      s.typeParams.add(name.text);
      const bounds = fieldChild(p, this.f.bounds);
      out.set(name.text, bounds ? this.boundOf(bounds, ctx) : UNTYPED);
      if (bounds) this.typeRefs(bounds, { ...ctx, generics: out }, s);
    }
    return out;
  }

  private whereClause(node: SyntaxNode, ctx: Ctx, s: ScopeDraft): void {
    const w = node.namedChildren.find((c) => c.type === 'where_clause');
    if (!w) return;
    for (const pred of w.namedChildren) {
      const left = fieldChild(pred, this.f.left);
      const bounds = fieldChild(pred, this.f.bounds);
      if (bounds) this.typeRefs(bounds, ctx, s);
      const prev = left ? ctx.generics?.get(left.text) : undefined;
      if (left && bounds && prev !== undefined && prev !== FN_VALUE) {
        const more = this.boundOf(bounds, ctx);
        ctx.generics!.set(left.text, more === FN_VALUE || prev === UNTYPED ? more : more === UNTYPED ? prev : `${prev}+${more}`);
      }
    }
  }

  /** The trait a bound list stands for: `Fn*` -> FN_VALUE, else the first trait that is not a marker. */
  private boundOf(bounds: SyntaxNode, ctx: Ctx): string {
    const traits: string[] = [];
    for (const c of bounds.namedChildren) {
      if (c.type === 'lifetime') continue;
      const p = this.typePath(c.type === 'function_type' ? (fieldChild(c, this.f.trait) ?? c) : c, ctx);
      if (c.type === 'function_type' || (p && isFnTrait(p))) return FN_VALUE;
      if (p && !MARKER_TRAITS.has(p) && !traits.includes(p)) traits.push(p);
    }
    return traits.length ? traits.join('+') : UNTYPED;
  }

  /**
   * The type a value of this declared type is used as (`&mut Vec<T>` -> `Vec`, `Box<dyn Area>` -> `Area`,
   * `Option<Point>` -> `Point`, `T` with `T: Area` -> `Area`, `impl Fn()` -> FN_VALUE), or null.
   */
  private valueType(n: SyntaxNode, ctx: Ctx, depth = 0): string | null {
    if (depth > 8) return null;
    switch (n.type) {
      case 'reference_type':
      case 'pointer_type': {
        const inner = fieldChild(n, this.f.type);
        return inner ? this.valueType(inner, ctx, depth + 1) : null;
      }
      case 'dynamic_type':
      case 'abstract_type': {
        const tr = fieldChild(n, this.f.trait);
        if (!tr) return null;
        if (tr.type === 'function_type') return FN_VALUE;
        const p = this.typePath(tr, ctx);
        return p && isFnTrait(p) ? FN_VALUE : p;
      }
      case 'function_type':
        return FN_VALUE;
      case 'array_type':
        return 'std.slice';
      case 'tuple_type':
      case 'unit_type':
        return 'std.tuple';
      case 'generic_type': {
        const base = this.typePath(n, ctx);
        const args = n.namedChildren.find((c) => c.type === 'type_arguments');
        const firstArg = args?.namedChildren.find((c) => c.type !== 'lifetime');
        if (base && TRANSPARENT.has(base) && firstArg) return this.valueType(firstArg, ctx, depth + 1);
        return base;
      }
      case 'type_identifier': {
        const g = ctx.generics?.get(n.text);
        // a value of an unbounded type parameter: what its methods are depends on the instantiation
        if (g !== undefined) return g === UNTYPED ? GENERIC : g;
        return n.text === 'Self' ? ctx.self ?? 'Self' : n.text;
      }
      case 'scoped_type_identifier':
        return this.typePath(n, ctx);
      case 'primitive_type':
        return n.text;
      default:
        return null;
    }
  }

  /** REFERENCES for every type named inside a type expression (primitives, std types and generics skipped). */
  private typeRefs(n: SyntaxNode, ctx: Ctx, s: ScopeDraft, depth = 0): void {
    if (depth > 16) return;
    switch (n.type) {
      case 'type_identifier':
      case 'scoped_type_identifier': {
        const p = this.typePath(n, ctx);
        if (!p || p === 'Self' || ctx.generics?.has(p) || this.b.isTypeParam(s, p) || isBuiltinType(p)) return;
        this.b.ref(s, 'REFERENCES', p, startLine(n));
        return;
      }
      case 'primitive_type':
      case 'lifetime':
        return;
      case 'generic_type': {
        const t = fieldChild(n, this.f.type);
        if (t) this.typeRefs(t, ctx, s, depth + 1);
        this.typeArgs(n, ctx, s);
        return;
      }
      default:
        for (const c of n.namedChildren) this.typeRefs(c, ctx, s, depth + 1);
    }
  }

  private typeArgs(n: SyntaxNode, ctx: Ctx, s: ScopeDraft): void {
    for (const c of n.namedChildren) if (c.type === 'type_arguments') this.typeRefs(c, ctx, s);
  }

  // ---- text --------------------------------------------------------------------------------

  /** `#[...]` attributes directly before an item. */
  private attributes(node: SyntaxNode): string[] {
    const out: string[] = [];
    for (let s = node.previousNamedSibling; s; s = s.previousNamedSibling) {
      if (s.type === 'attribute_item') out.unshift(this.text(s));
      else if (s.type !== 'line_comment' && s.type !== 'block_comment') break;
    }
    return out;
  }

  /** Lines from the first attribute of the item to its end. */
  private range(node: SyntaxNode): { startIndex: number; endIndex: number; startLine: number; endLine: number } {
    let first = node;
    for (let s = node.previousNamedSibling; s; s = s.previousNamedSibling) {
      if (s.type === 'attribute_item') first = s;
      else if (!(s.type === 'line_comment' && this.isOuterDoc(s)) && s.type !== 'block_comment') break;
    }
    return { startIndex: first.startIndex, endIndex: node.endIndex, startLine: startLine(first), endLine: endLine(node) };
  }

  /** The declaration text before the body (or before ` = value` for consts). */
  private header(node: SyntaxNode, body: SyntaxNode | null, dropValue = false): string {
    let text = body ? this.content.slice(node.startIndex, body.startIndex) : this.text(node);
    if (dropValue && body) text = text.replace(/=\s*$/, '');
    return text.replace(/[;{]\s*$/, '').trim();
  }

  private isPub(node: SyntaxNode): boolean {
    const v = node.namedChildren.find((c) => c.type === 'visibility_modifier');
    return !!v && this.text(v).trim() === 'pub';
  }

  private isOuterDoc(c: SyntaxNode): boolean {
    const t = this.text(c);
    return (t.startsWith('///') && !t.startsWith('////')) || (t.startsWith('/**') && !t.startsWith('/***') && t !== '/**/');
  }

  /** `///` lines or a `/** *\/` block before the item (attributes may sit between). */
  private doc(node: SyntaxNode): string | null {
    const lines: string[] = [];
    let block: string | null = null;
    for (let s = node.previousNamedSibling; s; s = s.previousNamedSibling) {
      if (s.type === 'attribute_item') continue;
      if (s.type !== 'line_comment' && s.type !== 'block_comment') break;
      if (!this.isOuterDoc(s)) break;
      const t = this.text(s);
      if (s.type === 'block_comment') {
        if (!lines.length) block = t;
        break;
      }
      lines.unshift(t.replace(/\r?\n$/, ''));
    }
    if (lines.length) return cleanLineComments(lines, '///');
    return block ? cleanBlockComment(block) : null;
  }

  /** `//!` lines (or `/*! *\/`) at the top of a file or module body. */
  private innerDoc(body: SyntaxNode): string | null {
    const lines: string[] = [];
    for (const c of body.namedChildren) {
      if (c.type === 'inner_attribute_item') continue;
      if (c.type !== 'line_comment' && c.type !== 'block_comment') break;
      const t = this.text(c);
      if (t.startsWith('//!')) lines.push(t.replace(/\r?\n$/, '').replace(/^\/\/!/, '//'));
      else if (t.startsWith('/*!')) return cleanBlockComment(`/*${t.slice(3)}`);
      else if (lines.length) break;
    }
    return lines.length ? cleanLineComments(lines, '//') : null;
  }
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

/** Items of a trait body, or of an impl body (whose members are walked with the module as their scope). */
function isMemberSite(ctx: Ctx, scope: ScopeDraft): boolean {
  return !!ctx.self && (scope.kind === 'trait' || scope.kind === 'file' || scope.kind === 'module');
}
