import { cleanBlockComment, cleanLineComments } from '../../parse/doc-comments';
import {
  endLine, fieldChild, fieldTable, LanguageExtractor, nodeText, precedingComments, startLine, SyntaxNode, syntaxErrors, Tree,
} from '../../parse/extractor';
import type { FileBuilder, ScopeDraft } from '../../parse/file-builder';
import type { Language, ScopeKind } from '../../parse/types';
import { Reparser } from '../reparse';
import { isHeaderPath } from './paths';

/** Every field this walker reads, resolved to ids once per grammar (see `fieldTable`). */
const FIELDS = fieldTable([
  'argument', 'arguments', 'body', 'declarator', 'field', 'function', 'name', 'parameters', 'path', 'scope',
  'type', 'value',
] as const);

type Fields = ReturnType<typeof FIELDS>;

const TYPE_SPECIFIERS: Record<string, ScopeKind> = {
  class_specifier: 'class',
  struct_specifier: 'struct',
  union_specifier: 'union',
  enum_specifier: 'enum',
};

/** Nodes that only group top-level declarations (preprocessor conditionals, `extern "C" { }`). */
const TRANSPARENT = new Set([
  'translation_unit', 'declaration_list', 'preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif',
  'preproc_elifdef', 'linkage_specification',
]);

/** Declarators that wrap the one holding the name (`*p`, `&r`, `(f)`, `a[3]`, `x = 1`). */
const WRAPPING_DECLARATORS = new Set([
  'pointer_declarator', 'reference_declarator', 'parenthesized_declarator', 'array_declarator', 'init_declarator',
  'attributed_declarator',
]);

/** Templates whose first argument is the type a variable really points at (`std::unique_ptr<A> p` -> `A`). */
const POINTER_TEMPLATES = new Set(['unique_ptr', 'shared_ptr', 'weak_ptr', 'make_unique', 'make_shared', 'optional', 'reference_wrapper']);

const MAX_CHAIN = 6;

/**
 * C and C++ (tree-sitter-c for `.c`, tree-sitter-cpp for C++ sources and every header).
 *
 * Scopes: namespaces (one per file, its header's text only), classes, structs, unions, enums, typedefs
 * and `using X = T` (type_alias),
 * functions, methods (in-class bodies and declarations; out-of-line `void ns::A::f()` definitions are
 * scopes named `f`, qualified `ns.A.f`, `owner` `ns::A`), constructors and destructors (`~A`, a
 * method), function-like macros (`#define MAX(a, b)`, a function: calls to them are call sites).
 * Prototypes (`int f(int);`) are scopes only in headers: there they carry the API's doc comment and
 * the resolver links each to its definition (docs/graph-model.md). Qualified names join namespaces,
 * classes and members with dots (`ns.A.f`); overloads get FileBuilder's `~N` suffixes.
 * Doc comments: Doxygen `/** *\/`, `/*! *\/`, `///` and `//!` directly above.
 * Exported: C and C++ free functions unless `static` (or in an anonymous namespace), members unless
 * private/protected, types and macros declared in headers.
 *
 * References: calls (`f`, `ns.f`, `x.f` for `x.f()` and `x->f()`, `this.f`, `A` for `new A()` and
 * `A(...)`; a callee that is no name, like `table[i](x)` or `get()(x)`, is `?` and `obj()->f()` is
 * `?.f`), base classes (EXTENDS), type names in signatures, fields and locals (REFERENCES). Imports:
 * `#include "x.h"` (specifier `x.h`), `#include <x.h>` (specifier `<x.h>`), `using namespace a::b`
 * (specifier `a.b`, `isNamespace`). Bindings: parameters, locals, globals (on the file scope) and
 * fields with their type's name (smart pointers unwrapped, `auto x = new A` typed `A`).
 */
export class CFamilyExtractor implements LanguageExtractor {
  readonly languages: readonly Language[] = ['c', 'cpp'];
  readonly usesTreeSitter = true;

  private readonly reparser = new Reparser();

  extract(builder: FileBuilder, tree: Tree | null): void {
    if (!tree) return;
    if (!tree.rootNode.hasError) {
      new CWalker(builder, FIELDS(tree.language)).walk(tree.rootNode, builder.file);
      return;
    }
    // tree-sitter parses the text as written, every preprocessor branch at once, so valid code whose
    // conditionals split a construct (`extern "C" {` opened under `#ifdef __cplusplus` and closed in
    // another, a function written twice under `#if`/`#else`) has errors. Parse again with those
    // lines blanked (offsets and lines unchanged): first the `extern "C"` guards, then every
    // `#else`/`#elif` branch (one configuration: the first branch of each conditional).
    let best: Tree = tree;
    let bestErrors = countErrors(tree.rootNode);
    const extra: Tree[] = [];
    try {
      const externC = maskExternC(builder.content) ?? builder.content;
      const macros = maskSpecifierMacros(externC);
      const candidates = [externC, macros, maskElseBranches(macros ?? externC)].filter((t) => t !== builder.content);
      for (const text of candidates) {
        if (text === null || bestErrors === 0) continue;
        const again = this.reparser.parse(tree.language, text);
        if (!again) continue;
        extra.push(again);
        const n = countErrors(again.rootNode);
        if (n < bestErrors) {
          best = again;
          bestErrors = n;
        }
      }
      if (best !== tree) builder.errors.splice(0, builder.errors.length, ...syntaxErrors(best.rootNode));
      new CWalker(builder, FIELDS(tree.language)).walk(best.rootNode, builder.file);
    } finally {
      for (const t of extra) t.delete();
    }
  }

}

function countErrors(root: SyntaxNode): number {
  return syntaxErrors(root, 1000).length;
}

const IF_DIRECTIVE = /^\s*#\s*if/;
const ELSE_DIRECTIVE = /^\s*#\s*(?:else|elif)/;
const ENDIF_DIRECTIVE = /^\s*#\s*endif/;

/**
 * One configuration of the content, flat: every `#else` / `#elif` branch and the conditional
 * directives themselves blanked (newlines kept), so a construct split across branches reads once
 * (`#if A` `int f(int a) {` `#else` `int f(long a) {` `#endif` body). Null when there is no `#else`.
 */
export function maskElseBranches(content: string): string | null {
  const lines = content.split('\n');
  const inElse: boolean[] = [];
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let blank = inElse.includes(true);
    if (IF_DIRECTIVE.test(line)) {
      inElse.push(false);
      blank = true;
    } else if (ELSE_DIRECTIVE.test(line)) {
      if (inElse.length) inElse[inElse.length - 1] = true;
      blank = true;
      changed = true;
    } else if (ENDIF_DIRECTIVE.test(line)) {
      inElse.pop();
      blank = true;
    }
    if (blank && line.trim()) lines[i] = line.replace(/[^\r]/g, ' ');
  }
  return changed ? lines.join('\n') : null;
}

/** An all-capitals word before a declaration's type and name (`BROTLI_INLINE uint32_t f(`): a macro. */
const SPECIFIER_MACRO = /^([ \t]*(?:(?:static|extern|inline|const)[ \t]+)*)([A-Z][A-Z0-9_]{2,})([ \t]+)(?=(?:(?:const|unsigned|signed|struct|enum|union|static|inline|extern)[ \t]+)*(?!(?:const|volatile|extern|static|inline)\b)[A-Za-z_]\w*[\s*]+\**(?!(?:const|volatile)\b)[A-Za-z_]\w*[ \t]*[(=;\[])/gm;
/** A function-like macro at a line's start before a declaration (`LZ4_DEPRECATED("...") int f(`): an attribute. */
const ATTRIBUTE_MACRO = /^([ \t]*)([A-Z][A-Z0-9_]{2,}\((?:[^()\n]|\([^()\n]*\))*\))(?=[ \t]+[A-Za-z_]\w*[ \t]+[A-Za-z_*])/gm;
/** An all-capitals word after a number (`64 KB`): a unit macro. */
const UNIT_MACRO = /(\b\d[\w.]*[ \t]+)([A-Z][A-Z0-9_]*)\b(?=[ \t]*[-+*/%,;)}\]:?|&^<>=])/g;
/** An all-capitals word after a `*` and before a name (`uint8_t* BROTLI_RESTRICT p`): a qualifier macro. */
const QUALIFIER_MACRO = /\*([ \t]*)([A-Z][A-Z0-9_]{2,})(?=[ \t]+(?:const[ \t]+)?[A-Za-z_])/g;

/**
 * The content with macros written before a declaration's type blanked (`BROTLI_INLINE`,
 * `ZEXTERN`, `LZ4LIB_API`...): tree-sitter cannot expand them and reads the type as the name.
 * Null when there is none.
 */
export function maskSpecifierMacros(content: string): string | null {
  let out = content;
  for (let i = 0; i < 3; i++) {
    const next = out
      .replace(ATTRIBUTE_MACRO, (_m, lead: string, call: string) => lead + ' '.repeat(call.length))
      .replace(SPECIFIER_MACRO, (_m, lead: string, word: string, gap: string) => lead + ' '.repeat(word.length) + gap)
      .replace(QUALIFIER_MACRO, (_m, gap: string, word: string) => `*${gap}${' '.repeat(word.length)}`)
      .replace(ATTRIBUTE_MACRO, (_m, lead: string, call: string) => lead + ' '.repeat(call.length))
      .replace(UNIT_MACRO, (_m, num: string, word: string) => num + ' '.repeat(word.length));
    if (next === out) break;
    out = next;
  }
  return out === content ? null : out;
}

const CPLUSPLUS_BLOCK = /^[ \t]*#[ \t]*if(?:def[ \t]+__cplusplus|[ \t]+defined[ \t]*\(?[ \t]*__cplusplus[ \t]*\)?)[^\n]*\n([\s\S]*?)^[ \t]*#[ \t]*endif/gm;
const LINKAGE_ONLY = /^\s*(?:extern\s+"C"\s*\{|\})\s*(?:\/\/[^\n]*|\/\*[\s\S]*?\*\/)?\s*$/;

/**
 * The content with the insides of `#ifdef __cplusplus` blocks that only open or close `extern "C" {`
 * blanked (newlines kept, so every offset and line stays), or null when there is none.
 */
export function maskExternC(content: string): string | null {
  if (!content.includes('__cplusplus')) return null;
  let changed = false;
  const out = content.replace(CPLUSPLUS_BLOCK, (block: string, inner: string) => {
    if (!LINKAGE_ONLY.test(inner)) return block;
    changed = true;
    const head = block.indexOf('\n') + 1;
    return block.slice(0, head) + inner.replace(/[^\n]/g, ' ') + block.slice(head + inner.length);
  });
  return changed ? out : null;
}

class CWalker {
  private readonly content: string;
  private readonly header: boolean;
  private readonly cpp: boolean;
  /** Type parameters of the templates being walked (not type references). */
  private templateNames: ReadonlySet<string> = new Set();
  /** This file's namespace scopes by qualified name (a namespace reopened in the file reuses its scope). */
  private readonly namespaces = new Map<string, ScopeDraft>();
  /** Qualified name of the named namespace being walked (where a `using a::B;` puts B). */
  private namespace_: string | null = null;

  constructor(
    private readonly b: FileBuilder,
    private readonly f: Fields,
  ) {
    this.content = b.content;
    this.header = isHeaderPath(b.path);
    this.cpp = b.language === 'cpp';
  }

  private text(n: SyntaxNode): string {
    return nodeText(this.content, n);
  }

  // ---------------------------------------------------------------- declarations (file, namespace, class level)

  walk(node: SyntaxNode, scope: ScopeDraft, outer: SyntaxNode = node, hidden = false): void {
    const t = node.type;
    if (TRANSPARENT.has(t)) {
      for (const c of node.namedChildren) this.walk(c, scope, c, hidden);
      return;
    }
    switch (t) {
      case 'preproc_include':
        this.include(node);
        return;
      case 'preproc_function_def':
        this.macro(node);
        return;
      case 'namespace_definition':
        this.namespace(node, scope, hidden);
        return;
      case 'using_declaration':
        this.usingNamespace(node);
        return;
      case 'template_declaration': {
        const params = this.templateParams(node);
        const before = this.templateNames;
        this.templateNames = new Set([...before, ...params]);
        try {
          for (const c of node.namedChildren) {
            if (c.type === 'template_parameter_list') continue;
            const made = this.walkDecl(c, scope, node, hidden);
            if (made && params.size) made.typeParams = params;
          }
        } finally {
          this.templateNames = before;
        }
        return;
      }
      default:
        this.walkDecl(node, scope, outer, hidden);
    }
  }

  /** A declaration at file, namespace or class level; returns the scope it made, if any. */
  private walkDecl(node: SyntaxNode, scope: ScopeDraft, outer: SyntaxNode, hidden: boolean): ScopeDraft | null {
    const t = node.type;
    const typeKind = TYPE_SPECIFIERS[t];
    if (typeKind) return this.typeSpecifier(node, scope, outer, typeKind, null, hidden);
    switch (t) {
      case 'function_definition':
        return this.functionDefinition(node, scope, outer, hidden);
      case 'declaration':
      case 'field_declaration':
        return this.declaration(node, scope, outer, hidden);
      case 'type_definition':
        return this.typedef(node, scope, outer);
      case 'alias_declaration': {
        const name = fieldChild(node, this.f.name);
        if (!name) return null;
        const s = this.addScope(this.text(name), 'type_alias', scope, outer, node, null, this.header || scope.kind !== 'file');
        const type = fieldChild(node, this.f.type);
        if (type) this.typeRefs(type, s);
        return s;
      }
      case 'template_declaration':
      case 'namespace_definition':
      case 'preproc_include':
      case 'preproc_function_def':
      case 'using_declaration':
        this.walk(node, scope, outer, hidden);
        return null;
      case 'comment':
      case 'preproc_def':
      case 'preproc_call':
      case 'access_specifier':
      case 'friend_declaration':
        return null;
      default:
        if (TRANSPARENT.has(t)) this.walk(node, scope, outer, hidden);
        else this.body(node, scope);
        return null;
    }
  }

  private include(node: SyntaxNode): void {
    const path = fieldChild(node, this.f.path);
    if (!path) return;
    let spec = this.text(path).trim();
    if (path.type === 'string_literal') spec = spec.replace(/^"|"$/g, '');
    else if (path.type !== 'system_lib_string') return; // `#include MACRO`
    this.b.imports.push({ fromPath: this.b.path, specifier: spec, names: [], line: startLine(node) });
  }

  private usingNamespace(node: SyntaxNode): void {
    const target = node.namedChildren.find((c) => c.type !== 'comment');
    if (!target) return;
    if (!node.children.some((c) => c.type === 'namespace')) {
      // `using a::B;`: B is a name of the enclosing namespace (the resolver finds which by the line).
      const q = qualifiedText(this.text(target));
      const local = q.slice(q.lastIndexOf('.') + 1);
      if (q.includes('.')) {
        this.b.imports.push({
          fromPath: this.b.path, specifier: q, names: [{ imported: local, local }], line: startLine(node),
          ...(this.namespace_ ? { namespace: this.namespace_ } : {}),
        });
      }
      return;
    }
    this.b.imports.push({
      fromPath: this.b.path, specifier: qualifiedText(this.text(target)), names: [{ imported: '*', local: '*' }],
      isNamespace: true, line: startLine(node),
    });
  }

  private macro(node: SyntaxNode): void {
    const name = fieldChild(node, this.f.name);
    if (!name) return;
    const params = fieldChild(node, this.f.parameters);
    // Macros know no namespaces: a file-level name wherever it is written.
    this.b.addScope({
      name: this.text(name), kind: 'function', parent: this.b.file,
      ...range(node),
      signature: `#define ${this.text(name)}${params ? this.text(params) : '()'}`,
      docComment: this.doc(node),
      exported: this.header,
    });
  }

  private namespace(node: SyntaxNode, scope: ScopeDraft, hidden: boolean): void {
    const nameNode = fieldChild(node, this.f.name);
    const body = fieldChild(node, this.f.body);
    if (!nameNode) {
      // Anonymous namespace: its names are internal to the file.
      if (body) for (const c of body.namedChildren) this.walk(c, scope, c, true);
      return;
    }
    // Namespaces are open and span files: one scope per namespace per file whose text is its header
    // (`namespace a {`), not the block, so it never repeats the file's text in search.
    const head = { ...range(node), endIndex: body ? body.startIndex : node.endIndex };
    head.endLine = startLine(body ?? node);
    let s = scope;
    for (const seg of qualifiedText(this.text(nameNode)).split('.')) {
      const qualifiedName = this.b.qualify(s, seg);
      let ns = this.namespaces.get(qualifiedName);
      if (!ns) {
        ns = this.b.addScope({
          name: seg, kind: 'namespace', parent: s, qualifiedName,
          ...head,
          signature: `namespace ${seg}`,
          docComment: s === scope ? this.doc(node) : null,
          exported: !hidden,
        });
        this.namespaces.set(qualifiedName, ns);
      } else if (!hidden) ns.exported = true;
      s = ns;
    }
    if (body) {
      const before = this.namespace_;
      this.namespace_ = s.qualifiedName;
      try {
        for (const c of body.namedChildren) this.walk(c, s, c, hidden);
      } finally {
        this.namespace_ = before;
      }
    }
  }

  /** `struct A { ... }`, `class B : public A { ... }`, `union U {...}`, `enum E {...}`; without a body: a type use. */
  private typeSpecifier(
    node: SyntaxNode, scope: ScopeDraft, outer: SyntaxNode, kind: ScopeKind, typedefName: string | null, hidden: boolean,
  ): ScopeDraft | null {
    const body = fieldChild(node, this.f.body);
    const nameNode = fieldChild(node, this.f.name);
    if (!body) {
      if (nameNode) this.typeRefs(nameNode, scope);
      return null;
    }
    const written = nameNode ? this.text(nameNode) : typedefName;
    if (!written) {
      // Anonymous struct/union member: its fields belong to the enclosing type.
      if (isTypeKind(scope.kind)) this.members(body, scope, kind);
      return null;
    }
    const qualified = qualifiedText(stripTemplateArgs(written));
    const name = qualified.slice(qualified.lastIndexOf('.') + 1);
    const public_ = !hidden && (this.header || this.cpp) && this.memberVisible(node, scope);
    const s = this.b.addScope({
      name, kind, parent: scope,
      qualifiedName: this.b.qualify(scope, qualified),
      startIndex: outer.startIndex, endIndex: node.endIndex, startLine: startLine(outer), endLine: endLine(node),
      signature: this.text(node).slice(0, body.startIndex - node.startIndex),
      docComment: this.doc(outer),
      exported: public_,
    });
    for (const c of node.namedChildren) {
      if (c.type !== 'base_class_clause') continue;
      for (const base of c.namedChildren) {
        if (base.type === 'access_specifier' || base.type === 'comment') continue;
        const n = this.typeName(base);
        if (n) this.b.ref(s, 'EXTENDS', n, startLine(base));
      }
    }
    if (kind !== 'enum') this.members(body, s, kind);
    else {
      // enumerators are members of their enum (kind `variable`, as every language's enum members)
      for (const e of body.namedChildren) {
        const en = e.type === 'enumerator' ? fieldChild(e, this.f.name) : null;
        if (!en) continue;
        this.b.addScope({
          name: this.text(en), kind: 'variable', parent: s,
          startIndex: e.startIndex, endIndex: e.endIndex, startLine: startLine(e), endLine: endLine(e),
          signature: this.text(e), docComment: this.doc(e), exported: public_,
        });
      }
    }
    return s;
  }

  private members(body: SyntaxNode, s: ScopeDraft, kind: ScopeKind): void {
    for (const c of body.namedChildren) {
      if (c.type === 'access_specifier' || c.type === 'using_declaration') continue;
      if (c.type === 'field_declaration' || c.type === 'declaration') this.declaration(c, s, c, false, kind);
      else this.walk(c, s, c);
    }
  }

  private functionDefinition(node: SyntaxNode, scope: ScopeDraft, outer: SyntaxNode, hidden: boolean): ScopeDraft | null {
    const declarator = fieldChild(node, this.f.declarator);
    const fn = declarator ? this.functionDeclarator(declarator) : null;
    const body = fieldChild(node, this.f.body);
    if (!fn) {
      if (body) this.body(body, scope);
      return null;
    }
    const s = this.functionScope(node, fn, scope, outer, hidden, body);
    if (!s) return null;
    const type = fieldChild(node, this.f.type);
    if (type) {
      this.typeRefs(type, s);
      this.returnBinding(type, s);
    }
    this.parameters(fn, s);
    for (const c of node.namedChildren) {
      if (c.type === 'field_initializer_list') this.body(c, s);
    }
    if (body) this.body(body, s);
    return s;
  }

  /** A declaration: a prototype or in-class method declaration (a scope), or variables/fields (bindings). */
  private declaration(node: SyntaxNode, scope: ScopeDraft, outer: SyntaxNode, hidden: boolean, inType?: ScopeKind): ScopeDraft | null {
    const type = fieldChild(node, this.f.type);
    let made: ScopeDraft | null = null;
    if (type && TYPE_SPECIFIERS[type.type]) made = this.typeSpecifier(type, scope, outer, TYPE_SPECIFIERS[type.type], null, hidden);
    const typeName = type ? this.typeName(type) : null;
    let typeReferenced = !!made;
    const inBody = FUNCTION_KINDS.has(scope.kind);
    for (let i = 0; i < node.namedChildCount; i++) {
      if (node.fieldNameForNamedChild(i) !== 'declarator') continue;
      const d = node.namedChild(i)!;
      const fn = inBody ? null : this.functionDeclarator(d);
      if (fn && !fieldChild(d.type === 'init_declarator' ? d : fn, this.f.value)) {
        // Prototypes outside headers repeat a definition of the same file or another: not scopes.
        if (!inType && !this.header) continue;
        const s = this.functionScope(node, fn, scope, outer, hidden, null);
        if (s) {
          if (type) {
            this.typeRefs(type, s);
            this.returnBinding(type, s);
          }
          this.parameters(fn, s);
          made = s;
        }
        continue;
      }
      if (type && !typeReferenced) {
        this.typeRefs(type, scope);
        typeReferenced = true;
      }
      const name = declaredName(d, this.content);
      const value = d.type === 'init_declarator' ? fieldChild(d, this.f.value) : null;
      const bound = this.boundType(typeName, value, d);
      if (name && bound) this.b.binding(scope, name, bound, !!inType);
      if (d.type === 'init_declarator') {
        // `A a(1, 2);` / `A a{1}` constructs an A.
        const args = d.namedChildren.find((c) => c.type === 'argument_list' || c.type === 'initializer_list');
        if (args && args.type === 'argument_list' && typeName && inBody) this.b.ref(scope, 'CALLS', typeName, startLine(d));
        for (const c of d.namedChildren) if (c.type !== 'identifier' && c.type !== 'field_identifier') this.body(c, scope);
      }
    }
    return made;
  }

  private typedef(node: SyntaxNode, scope: ScopeDraft, outer: SyntaxNode): ScopeDraft | null {
    const type = fieldChild(node, this.f.type);
    const names: string[] = [];
    for (let i = 0; i < node.namedChildCount; i++) {
      if (node.fieldNameForNamedChild(i) !== 'declarator') continue;
      const n = declaredName(node.namedChild(i)!, this.content);
      if (n) names.push(n);
    }
    let made: ScopeDraft | null = null;
    const kind = type ? TYPE_SPECIFIERS[type.type] : undefined;
    let target: string | null = null;
    if (type && kind) {
      const typeNameNode = fieldChild(type, this.f.name);
      const hasBody = !!fieldChild(type, this.f.body);
      if (hasBody) {
        made = this.typeSpecifier(type, scope, outer, kind, typeNameNode ? null : names[0] ?? null, false);
        if (!typeNameNode) names.shift(); // `typedef struct { } name;`: the struct is the name
      }
      if (typeNameNode) target = qualifiedText(stripTemplateArgs(this.text(typeNameNode)));
    } else if (type) {
      target = this.typeName(type);
    }
    for (const n of names) {
      // `typedef struct vec2 { } vec2;`: one type under one name (C++ reads it so too).
      if (n === target && made) continue;
      const s = this.addScope(n, 'type_alias', scope, outer, node, null, this.header || this.cpp && scope.kind !== 'file');
      if (target && !BUILTIN_TYPES.has(target)) this.b.ref(s, 'REFERENCES', target, startLine(node));
      made ??= s;
    }
    return made;
  }

  /** The function or method scope of a definition or prototype whose declarator is `fn`. */
  private functionScope(
    node: SyntaxNode, fn: SyntaxNode, scope: ScopeDraft, outer: SyntaxNode, hidden: boolean, body: SyntaxNode | null,
  ): ScopeDraft | null {
    const nameNode = fieldChild(fn, this.f.declarator);
    if (!nameNode) return null;
    const written = this.declaratorName(nameNode);
    if (!written) return null;
    const dot = written.lastIndexOf('.');
    const name = written.slice(dot + 1);
    const ownerWritten = dot > 0 ? written.slice(0, dot) : null;
    const inType = isTypeKind(scope.kind);
    const ownerName = ownerWritten ? ownerWritten.slice(ownerWritten.lastIndexOf('.') + 1) : inType ? scope.name : null;
    let kind: ScopeKind = inType || ownerWritten ? 'method' : 'function';
    if (kind === 'method' && name === ownerName) kind = 'constructor';
    const isStatic = node.namedChildren.some((c) => c.type === 'storage_class_specifier' && this.text(c) === 'static');
    const exported = inType ? this.memberVisible(outer, scope) : !hidden && !(isStatic && !ownerWritten);
    const sigEnd = body ? body.startIndex : node.endIndex;
    return this.b.addScope({
      name, kind, parent: scope,
      qualifiedName: this.b.qualify(scope, written),
      ...(ownerWritten ? { owner: ownerWritten.split('.').join('::') } : {}),
      startIndex: outer.startIndex, endIndex: node.endIndex, startLine: startLine(outer), endLine: endLine(node),
      signature: this.content.slice(node.startIndex, sigEnd).replace(/;\s*$/, ''),
      docComment: this.doc(outer),
      exported,
    });
  }

  /**
   * `ns::A::f` -> `ns.A.f` from the tree's parts; a qualified name with a missing `::` is a macro
   * before the return type (`BROTLI_INLINE uint32_t f(...)` read as `uint32_t::f`): its name only.
   */
  private declaratorName(n: SyntaxNode): string {
    if (n.type === 'qualified_identifier') {
      const name = fieldChild(n, this.f.name);
      const scope = fieldChild(n, this.f.scope);
      if (!name) return '';
      const rest = this.declaratorName(name);
      if (!scope || n.children.some((c) => c.isMissing)) return rest;
      return `${qualifiedText(stripTemplateArgs(this.text(scope)))}.${rest}`;
    }
    return qualifiedText(stripTemplateArgs(this.text(n)));
  }

  private addScope(
    name: string, kind: ScopeKind, parent: ScopeDraft, outer: SyntaxNode, node: SyntaxNode, body: SyntaxNode | null, exported: boolean,
  ): ScopeDraft {
    return this.b.addScope({
      name, kind, parent,
      startIndex: outer.startIndex, endIndex: node.endIndex, startLine: startLine(outer), endLine: endLine(node),
      signature: this.content.slice(node.startIndex, body ? body.startIndex : node.endIndex).replace(/;\s*$/, ''),
      docComment: this.doc(outer),
      exported,
    });
  }

  /** Public unless an access specifier before it in a class body says otherwise (class default: private). */
  private memberVisible(node: SyntaxNode, scope: ScopeDraft): boolean {
    if (!isTypeKind(scope.kind)) return true;
    if (scope.exported === false) return false;
    let access: string | null = null;
    for (let s = node.previousNamedSibling; s; s = s.previousNamedSibling) {
      if (s.type === 'access_specifier') {
        access = this.text(s).replace(/:$/, '').trim();
        break;
      }
    }
    if (access === null) return scope.kind !== 'class';
    return access === 'public';
  }

  /** The declared return type, as the binding `<return>` of the function: `a.f().g()` walks on from it. */
  private returnBinding(type: SyntaxNode, s: ScopeDraft): void {
    const name = this.typeName(type);
    if (name && name !== 'auto' && (!BUILTIN_TYPES.has(name) || name.includes('.'))) this.b.binding(s, RETURN_BINDING, name, false);
  }

  /** The `function_declarator` inside a declarator (under pointers/references: `int *f(void)`), or null. */
  private functionDeclarator(d: SyntaxNode): SyntaxNode | null {
    let n: SyntaxNode | null = d;
    for (let i = 0; n && i < 8; i++) {
      if (n.type === 'function_declarator') {
        // `void (*fp)(int)` declares a pointer variable, not a function.
        const inner = fieldChild(n, this.f.declarator);
        if (inner && inner.type === 'parenthesized_declarator') return null;
        return n;
      }
      if (n.type === 'init_declarator') return null;
      if (!WRAPPING_DECLARATORS.has(n.type)) return null;
      n = fieldChild(n, this.f.declarator) ?? n.namedChildren.find((c) => c.type.endsWith('declarator')) ?? null;
    }
    return null;
  }

  private parameters(fn: SyntaxNode, s: ScopeDraft): void {
    const params = fieldChild(fn, this.f.parameters);
    if (!params) return;
    for (const p of params.namedChildren) {
      if (p.type !== 'parameter_declaration' && p.type !== 'optional_parameter_declaration') continue;
      const type = fieldChild(p, this.f.type);
      if (type) this.typeRefs(type, s);
      const d = fieldChild(p, this.f.declarator);
      if (!d) continue;
      const name = declaredName(d, this.content);
      const bound = this.boundType(type ? this.typeName(type) : null, null, d);
      if (name && bound) this.b.binding(s, name, bound, false);
      const dflt = fieldChild(p, this.f.value);
      if (dflt) this.body(dflt, s);
    }
  }

  /**
   * The type a variable is bound to: its declared type (class, struct, typedef), the type of
   * `new A(...)`, `A(...)`, `std::make_unique<A>(...)` for `auto`, or `*fn` for a function pointer
   * (so a call through it is recognised as dynamic); null for plain values (`int`, `char *`).
   */
  private boundType(typeName: string | null, value: SyntaxNode | null, declarator: SyntaxNode): string | null {
    if (isFunctionPointer(declarator)) return '*fn';
    // Library types stay (`std.vector`): a call on one is then known to be the library's.
    if (typeName && typeName !== 'auto' && (!BUILTIN_TYPES.has(typeName) || typeName.includes('.'))) return typeName;
    if (!value) return null;
    if (value.type === 'new_expression') {
      const t = fieldChild(value, this.f.type);
      return t ? this.typeName(t) : null;
    }
    if (value.type === 'call_expression') {
      const fn = fieldChild(value, this.f.function);
      if (!fn) return null;
      const written = this.text(fn);
      const m = /(?:^|::)(?:make_unique|make_shared)\s*<\s*([A-Za-z_][\w:]*)/.exec(written);
      if (m) return qualifiedText(m[1]);
      // `auto a = A(1)`: a capitalised callee is most often a constructor; the resolver checks it is a type.
      const name = qualifiedText(stripTemplateArgs(written));
      const last = name.slice(name.lastIndexOf('.') + 1);
      if (/^[A-Z]/.test(last)) return name;
    }
    return null;
  }

  // ---------------------------------------------------------------- bodies (references)

  private body(node: SyntaxNode, scope: ScopeDraft): void {
    const t = node.type;
    switch (t) {
      case 'comment':
      case 'string_literal':
      case 'raw_string_literal':
      case 'char_literal':
      case 'number_literal':
      case 'identifier':
      case 'field_identifier':
      case 'primitive_type':
        return;
      case 'declaration':
        this.declaration(node, scope, node, false);
        return;
      case 'call_expression': {
        const fn = fieldChild(node, this.f.function);
        if (fn) {
          this.b.ref(scope, 'CALLS', this.callee(fn), startLine(node));
          this.calleeParts(fn, scope);
        }
        const args = fieldChild(node, this.f.arguments);
        if (args) this.body(args, scope);
        return;
      }
      case 'new_expression': {
        const type = fieldChild(node, this.f.type);
        const n = type ? this.typeName(type) : null;
        if (n && !BUILTIN_TYPES.has(n)) this.b.ref(scope, 'CALLS', n, startLine(node));
        for (const c of node.namedChildren) if (c.id !== type?.id) this.body(c, scope);
        return;
      }
      case 'preproc_function_def':
        // `#define` inside a body defines a file-level macro all the same.
        this.macro(node);
        return;
      case 'initializer_list':
        // Data tables (`{ 0x12, 0x34, ... }`, tens of thousands of literals): no call without a `(`.
        if (this.content.indexOf('(', node.startIndex) >= node.endIndex || this.content.indexOf('(', node.startIndex) === -1) return;
        for (const c of node.namedChildren) this.body(c, scope);
        return;
      case 'lambda_expression':
        // A lambda's calls belong to the function that writes it.
        for (const c of node.namedChildren) this.body(c, scope);
        return;
      case 'cast_expression':
      case 'sizeof_expression':
      case 'type_descriptor': {
        const type = fieldChild(node, this.f.type);
        if (type) this.typeRefs(type, scope);
        for (const c of node.namedChildren) if (c.id !== type?.id) this.body(c, scope);
        return;
      }
      case 'class_specifier':
      case 'struct_specifier':
      case 'union_specifier':
      case 'enum_specifier':
        // A local type: a scope of the function.
        this.typeSpecifier(node, scope, node, TYPE_SPECIFIERS[t], null, true);
        return;
      case 'function_definition':
        // C and C++ have no nested functions: one inside a body is the parser recovering from a
        // construct it could not read (an unexpanded macro); it is a file-level function.
        this.functionDefinition(node, this.b.file, node, false);
        return;
      default:
        for (const c of node.namedChildren) this.body(c, scope);
    }
  }

  /** Walk the parts of a callee that are expressions of their own (`a[i]`, `g(x)` in `g(x)->f()`). */
  private calleeParts(fn: SyntaxNode, scope: ScopeDraft): void {
    if (fn.type === 'field_expression') {
      const arg = fieldChild(fn, this.f.argument);
      if (arg && arg.type !== 'identifier' && arg.type !== 'this' && arg.type !== 'field_expression') this.body(arg, scope);
      else if (arg?.type === 'field_expression') this.calleeParts(arg, scope);
    } else if (fn.type !== 'identifier' && fn.type !== 'qualified_identifier' && fn.type !== 'template_function') {
      this.body(fn, scope);
    }
  }

  /** The callee as the resolver reads it: `f`, `ns.f`, `a.b.f`, `this.f`; `?` where it is no name. */
  private callee(fn: SyntaxNode): string {
    return this.chain(fn, 0) ?? '?';
  }

  private chain(n: SyntaxNode, depth: number): string | null {
    if (depth > MAX_CHAIN) return null;
    switch (n.type) {
      case 'identifier':
      case 'field_identifier':
        return this.text(n);
      case 'this':
        return 'this';
      case 'qualified_identifier':
      case 'template_function':
      case 'destructor_name': {
        const q = qualifiedText(stripTemplateArgs(this.text(n)));
        return q || null;
      }
      case 'field_expression': {
        const field = fieldChild(n, this.f.field);
        const arg = fieldChild(n, this.f.argument);
        if (!field) return null;
        const fieldName = qualifiedText(stripTemplateArgs(this.text(field)));
        const head = arg ? this.chain(arg, depth + 1) : null;
        return `${head ?? '?'}.${fieldName}`;
      }
      case 'parenthesized_expression': {
        const inner = n.namedChildren.find((c) => c.type !== 'comment');
        return inner ? this.chain(inner, depth + 1) : null;
      }
      case 'call_expression': {
        // `Keyset().swap(x)`, `ns::make().f()`: a receiver made by a named call, written `Keyset()`.
        const fn = fieldChild(n, this.f.function);
        if (!fn || !CALLEE_NAMES.has(fn.type)) return null;
        const name = this.chain(fn, depth + 1);
        return name ? `${name}()` : null;
      }
      case 'pointer_expression': {
        // `(*fp)(x)` calls what fp points at; `(&obj)->f()` is obj.f.
        const arg = fieldChild(n, this.f.argument);
        return arg ? this.chain(arg, depth + 1) : null;
      }
      default:
        return null;
    }
  }

  /** REFERENCES for the user-defined type names in a type node. */
  private typeRefs(node: SyntaxNode, scope: ScopeDraft): void {
    const visit = (n: SyntaxNode, depth: number): void => {
      if (depth > 8) return;
      switch (n.type) {
        case 'type_identifier':
        case 'qualified_identifier':
        case 'template_type': {
          const name = this.typeName(n);
          if (name && !BUILTIN_TYPES.has(name) && !this.templateNames.has(name) && !this.b.isTypeParam(scope, name)) this.b.ref(scope, 'REFERENCES', name, startLine(n));
          if (n.type !== 'type_identifier') {
            for (const c of n.namedChildren) if (c.type === 'template_argument_list') visit(c, depth + 1);
          }
          return;
        }
        case 'struct_specifier':
        case 'union_specifier':
        case 'enum_specifier':
        case 'class_specifier': {
          if (fieldChild(n, this.f.body)) return;
          const name = fieldChild(n, this.f.name);
          if (name) visit(name, depth + 1);
          return;
        }
        default:
          for (const c of n.namedChildren) visit(c, depth + 1);
      }
    };
    visit(node, 0);
  }

  /** A type node's name, dotted, template arguments dropped (`std::vector<A>` -> `std.vector`), smart pointers unwrapped. */
  private typeName(n: SyntaxNode): string | null {
    switch (n.type) {
      case 'type_identifier':
      case 'primitive_type':
      case 'sized_type_specifier':
      case 'namespace_identifier':
        return this.text(n);
      case 'placeholder_type_specifier':
        return 'auto';
      case 'template_type': {
        const name = fieldChild(n, this.f.name);
        const base = name ? this.text(name) : null;
        if (base && (POINTER_TEMPLATES.has(base) || /ptr|pointer/i.test(base))) {
          const args = fieldChild(n, this.f.arguments);
          const first = args?.namedChildren.find((c) => c.type === 'type_descriptor');
          const inner = first ? fieldChild(first, this.f.type) : null;
          if (inner) return this.typeName(inner);
        }
        return base;
      }
      case 'qualified_identifier': {
        const name = fieldChild(n, this.f.name);
        if (name?.type === 'template_type') {
          const inner = fieldChild(name, this.f.name);
          if (inner && (POINTER_TEMPLATES.has(this.text(inner)) || /ptr|pointer/i.test(this.text(inner)))) return this.typeName(name);
        }
        return qualifiedText(stripTemplateArgs(this.text(n))) || null;
      }
      case 'struct_specifier':
      case 'union_specifier':
      case 'enum_specifier':
      case 'class_specifier': {
        const name = fieldChild(n, this.f.name);
        return name ? qualifiedText(stripTemplateArgs(this.text(name))) : null;
      }
      case 'type_descriptor': {
        const t = fieldChild(n, this.f.type);
        return t ? this.typeName(t) : null;
      }
      default:
        return null;
    }
  }

  private templateParams(node: SyntaxNode): Set<string> {
    const out = new Set<string>();
    const list = node.namedChildren.find((c) => c.type === 'template_parameter_list');
    for (const p of list?.namedChildren ?? []) {
      const id = p.namedChildren.find((c) => c.type === 'type_identifier' || c.type === 'identifier');
      if (id) out.add(this.text(id));
    }
    return out;
  }

  /** Doxygen `/** *\/` / `/*! *\/` block or `///` / `//!` lines directly above. */
  private doc(node: SyntaxNode): string | null {
    const comments = precedingComments(node, true);
    if (!comments.length) return null;
    const last = this.text(comments[comments.length - 1]);
    if (last.startsWith('/**') || last.startsWith('/*!')) return last.startsWith('/**/') ? null : cleanBlockComment(last.replace(/^\/\*!/, '/**'));
    const lines: string[] = [];
    for (let i = comments.length - 1; i >= 0; i--) {
      const c = this.text(comments[i]);
      if (!/^\/\/[/!]/.test(c) || c.startsWith('////')) break;
      lines.unshift(c.replace(/^\/\/!/, '///'));
    }
    return lines.length ? cleanLineComments(lines, '///') : null;
  }
}

const FUNCTION_KINDS = new Set<ScopeKind>(['function', 'method', 'constructor']);
/** Callees whose result can receive a call (`A().f()`, `ns::make().f()`, `a.get().f()`). */
const CALLEE_NAMES = new Set(['identifier', 'qualified_identifier', 'template_function', 'field_expression']);
/** The binding name a function's declared return type is recorded under (no identifier can clash). */
export const RETURN_BINDING = '<return>';

function isTypeKind(kind: ScopeKind): boolean {
  return kind === 'class' || kind === 'struct' || kind === 'union';
}

/** `ns::A::f` -> `ns.A.f` (a leading `::` dropped, whitespace removed). */
export function qualifiedText(text: string): string {
  return text.replace(/\s+/g, '').replace(/^::/, '').split('::').join('.');
}

/** Drop template argument lists: `ns::max<int>` -> `ns::max`, `A<B<C>>::f` -> `A::f`. */
export function stripTemplateArgs(text: string): string {
  if (!text.includes('<') || text.startsWith('operator')) return text;
  let out = '';
  let depth = 0;
  for (const ch of text) {
    if (ch === '<') depth++;
    else if (ch === '>') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}

/** The name a declarator declares (`*p` -> `p`, `a[3]` -> `a`, `(*fp)(int)` -> `fp`). */
function declaredName(d: SyntaxNode, content: string): string | null {
  let n: SyntaxNode | null = d;
  for (let i = 0; n && i < 10; i++) {
    if (n.type === 'identifier' || n.type === 'field_identifier' || n.type === 'type_identifier') return nodeText(content, n);
    n = n.namedChildren.find((c) => c.type.endsWith('declarator') || c.type === 'identifier' || c.type === 'field_identifier' || c.type === 'type_identifier') ?? null;
  }
  return null;
}

/** `void (*fp)(int)`: a function declarator around a parenthesised pointer. */
function isFunctionPointer(d: SyntaxNode): boolean {
  let n: SyntaxNode | null = d;
  for (let i = 0; n && i < 6; i++) {
    if (n.type === 'function_declarator') return n.namedChildren.some((c) => c.type === 'parenthesized_declarator');
    n = n.namedChildren.find((c) => c.type.endsWith('declarator')) ?? null;
  }
  return false;
}

function range(node: SyntaxNode) {
  return { startIndex: node.startIndex, endIndex: node.endIndex, startLine: startLine(node), endLine: endLine(node) };
}

/** Type names that are never scopes of a repository (no REFERENCES, no bindings). */
const BUILTIN_TYPES = new Set([
  'int', 'char', 'short', 'long', 'float', 'double', 'void', 'bool', 'signed', 'unsigned', 'auto', 'size_t', 'ssize_t',
  'ptrdiff_t', 'intptr_t', 'uintptr_t', 'int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t', 'uint16_t', 'uint32_t',
  'uint64_t', 'wchar_t', 'char16_t', 'char32_t', 'char8_t', 'FILE', 'va_list', 'off_t', 'time_t', 'nullptr_t',
  'std.string', 'std.size_t', 'string', 'std.string_view', 'std.vector', 'std.map', 'std.unordered_map', 'std.set',
  'std.function', 'std.pair', 'std.tuple', 'std.mutex', 'std.ostream', 'std.istream',
]);
