import * as path from 'node:path';
import * as ts from 'typescript';
import type { ParsedFile, ParsedScope, RawReference } from '../../../parse/types';
import type { PreciseOutcome } from '../../../resolve/types';

const JS_LANGUAGES = new Set(['typescript', 'tsx', 'javascript']);
const MAX_ALIAS_HOPS = 3;

export function isJsFamily(f: ParsedFile): boolean {
  return JS_LANGUAGES.has(f.language);
}

/** Key of a reference site: the same text, kind and line the tree-sitter extractor records. */
export function siteKey(kind: string, line: number, text: string): string {
  return `${kind}\u0000${line}\u0000${text}`;
}

/**
 * Answers "which declaration does this reference denote" with TypeScript's checker for one program.
 * Call sites are found again in the compiler's AST by (kind, line, dotted callee text), the way the
 * tree-sitter extractor wrote them, so both resolvers answer the same set of references.
 */
export class TsOracle {
  private readonly checker: ts.TypeChecker;
  private readonly sites = new Map<string, Map<string, ts.Node>>();
  private readonly scopesByPath = new Map<string, ParsedScope[]>();

  constructor(
    private readonly program: ts.Program,
    private readonly root: string,
    files: ParsedFile[],
  ) {
    this.checker = program.getTypeChecker();
    for (const f of files) this.scopesByPath.set(f.path, f.scopes);
  }

  resolve(ref: RawReference, file: ParsedFile): PreciseOutcome | undefined {
    if (ref.targetLanguage) return undefined;
    const node = this.siteIndex(file.path)?.get(siteKey(ref.kind, ref.line, ref.targetName));
    if (!node) return undefined;
    const decls = this.declarationsAt(node, ref);
    if (!decls?.length) return this.fromOutside(node) ? { reason: 'external' } : undefined;
    return this.outcomeOf(decls, 0);
  }

  private aliasTarget(d: ts.Declaration): ts.Declaration[] | undefined {
    if (!ts.isVariableDeclaration(d) || !d.initializer) return undefined;
    const init = unwrap(d.initializer);
    if (!ts.isIdentifier(init) && !ts.isPropertyAccessExpression(init)) return undefined;
    const sym = this.checker.getSymbolAtLocation(ts.isPropertyAccessExpression(init) ? init.name : init);
    return sym ? this.declarationsOf(sym) : undefined;
  }

  private outcomeOf(decls: ts.Declaration[], depth: number): PreciseOutcome | undefined {
    const ids = new Set<string>();
    let external = false;
    let builtin = false;
    let local = false;
    for (const d of decls) {
      const sf = d.getSourceFile();
      if (this.program.isSourceFileDefaultLibrary(sf)) {
        builtin = true;
        continue;
      }
      const rel = this.repoPath(sf.fileName);
      if (rel === null) {
        external = true;
        continue;
      }
      const scope = this.scopeOf(rel, d, sf);
      if (scope) ids.add(scope.id);
      else if (isLocal(d)) local = true;
      else {
        // A module-level alias without a scope of its own (`export const defineProperty =
        // Object.defineProperty`): what its initialiser denotes.
        const held = depth < MAX_ALIAS_HOPS ? this.aliasTarget(d) : undefined;
        if (held) {
          const out = this.outcomeOf(held, depth + 1);
          if (out && 'targetIds' in out) out.targetIds.forEach((id) => ids.add(id));
          else if (out?.reason === 'external') external = true;
          else if (out?.reason === 'builtin') builtin = true;
        }
      }
    }
    if (ids.size) return { targetIds: [...ids] };
    if (external) return { reason: 'external' };
    if (builtin) return { reason: 'builtin' };
    if (local) return { reason: 'local' };
    return undefined;
  }

  /**
   * `x.m()` where the compiler types `x` as its error type: the type comes from a package the program
   * does not hold (only the repository's files are loaded), so the target is outside the repository.
   */
  private fromOutside(node: ts.Node): boolean {
    const callee = ts.isCallExpression(node) || ts.isNewExpression(node) ? node.expression : node;
    const bare = unwrap(callee as ts.Expression);
    if (!ts.isPropertyAccessExpression(bare)) return false;
    const t = this.checker.getTypeAtLocation(bare.expression);
    return (t.flags & ts.TypeFlags.Any) !== 0 && (t as { intrinsicName?: string }).intrinsicName === 'error';
  }

  // ------------------------------------------------------------------ sites

  private siteIndex(relPath: string): Map<string, ts.Node> | undefined {
    let m = this.sites.get(relPath);
    if (m) return m;
    const sf = this.program.getSourceFile(path.posix.join(this.root, relPath));
    if (!sf) return undefined;
    m = new Map();
    this.sites.set(relPath, m);
    const add = (kind: string, at: ts.Node, text: string | null, target: ts.Node) => {
      if (!text) return;
      const line = sf.getLineAndCharacterOfPosition(at.getStart(sf)).line + 1;
      const k = siteKey(kind, line, text);
      if (!m!.has(k)) m!.set(k, target);
    };
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n)) {
        add('CALLS', n.expression, chain(n.expression), n);
      } else if (ts.isNewExpression(n)) {
        add('CALLS', n, chain(n.expression), n);
      } else if (ts.isJsxOpeningElement(n) || ts.isJsxSelfClosingElement(n)) {
        add('CALLS', n, chain(n.tagName), n.tagName);
      } else if (ts.isTypeReferenceNode(n)) {
        add('REFERENCES', n.typeName, entityText(n.typeName), n.typeName);
      } else if (ts.isExpressionWithTypeArguments(n) && ts.isHeritageClause(n.parent)) {
        const kind = n.parent.token === ts.SyntaxKind.ExtendsKeyword ? 'EXTENDS' : 'IMPLEMENTS';
        add(kind, n, chain(n.expression), n.expression);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    return m;
  }

  /** Declarations the reference denotes; aliases (imports, re-exports, `export *`) are followed. */
  private declarationsAt(node: ts.Node, ref: RawReference): ts.Declaration[] | undefined {
    const c = this.checker;
    if (ref.kind === 'CALLS' && (ts.isCallExpression(node) || ts.isNewExpression(node))) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.SuperKeyword) {
        // `super(...)`: the base constructor, or the base class when it declares none
        const sig = c.getResolvedSignature(node as ts.CallExpression);
        if (sig?.declaration && !ts.isJSDocSignature(sig.declaration)) return [sig.declaration];
        const sym = c.getSymbolAtLocation(callee);
        return sym ? this.declarationsOf(sym) : undefined;
      }
      const bare = unwrap(callee);
      const nameNode = ts.isPropertyAccessExpression(bare) ? bare.name : bare;
      const sym = c.getSymbolAtLocation(nameNode);
      if (sym) {
        const decls = this.declarationsOf(sym);
        if (decls?.length) return decls;
      }
      if (ts.isCallExpression(node)) {
        // A computed callee: the signature the call resolved to, if it is a declaration of its own
        // (a call through a value of function type would name the type, not code).
        const d = c.getResolvedSignature(node)?.declaration;
        if (d && !ts.isJSDocSignature(d) && !ts.isFunctionTypeNode(d) && !ts.isCallSignatureDeclaration(d)) return [d];
      }
      return undefined;
    }
    const target = ts.isQualifiedName(node) ? node.right : ts.isPropertyAccessExpression(node) ? node.name : node;
    const sym = c.getSymbolAtLocation(target);
    return sym ? this.declarationsOf(sym) : undefined;
  }

  private declarationsOf(sym: ts.Symbol): ts.Declaration[] | undefined {
    let s = sym;
    if (s.flags & ts.SymbolFlags.Alias) {
      const aliased = this.checker.getAliasedSymbol(s);
      // an import from a module outside the program: the checker's "unknown" symbol
      if (!aliased.declarations?.length) return undefined;
      s = aliased;
    }
    return s.declarations;
  }

  // ------------------------------------------------------------------ declarations -> scopes

  private repoPath(fileName: string): string | null {
    const rel = path.posix.relative(this.root, fileName);
    return rel.startsWith('..') || !this.scopesByPath.has(rel) ? null : rel;
  }

  /** The innermost scope of `relPath` named like the declaration and spanning its name's line. */
  private scopeOf(relPath: string, d: ts.Declaration, sf: ts.SourceFile): ParsedScope | undefined {
    const scopes = this.scopesByPath.get(relPath)!;
    if (ts.isSourceFile(d)) return scopes.find((s) => s.kind === 'file');
    const nameNode = ts.getNameOfDeclaration(d);
    const at = nameNode ?? d;
    const line = sf.getLineAndCharacterOfPosition(at.getStart(sf)).line + 1;
    let name: string | undefined;
    if (ts.isConstructorDeclaration(d)) name = 'constructor';
    else if (nameNode && (ts.isIdentifier(nameNode) || ts.isPrivateIdentifier(nameNode) || ts.isStringLiteral(nameNode))) name = nameNode.text;
    let best: ParsedScope | undefined;
    for (const s of scopes) {
      if (s.kind === 'file' || s.startLine > line || s.endLine < line) continue;
      const ok = name === undefined
        ? s.startLine === sf.getLineAndCharacterOfPosition(d.getStart(sf)).line + 1
        : s.name === name || (name === 'constructor' && s.kind === 'constructor');
      if (!ok) continue;
      if (!best || s.endLine - s.startLine < best.endLine - best.startLine) best = s;
    }
    return best;
  }
}

/** A parameter or a variable declared inside a function body: callable, but not a scope. */
function isLocal(d: ts.Declaration): boolean {
  if (ts.isParameter(d) || ts.isBindingElement(d) || ts.isTypeParameterDeclaration(d)) return true;
  if (ts.isVariableDeclaration(d) || ts.isPropertyAssignment(d) || ts.isShorthandPropertyAssignment(d)) {
    for (let p: ts.Node | undefined = d.parent; p; p = p.parent) if (ts.isFunctionLike(p)) return true;
  }
  return false;
}

/** The dotted name the tree-sitter extractor records for an expression, or null for computed ones. */
function chain(n: ts.Node, depth = 0): string | null {
  if (depth > 16) return null;
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) return n.text;
  if (n.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  if (n.kind === ts.SyntaxKind.SuperKeyword) return 'super';
  if (ts.isPropertyAccessExpression(n)) {
    const o = chain(n.expression, depth + 1);
    return o ? `${o}.${n.name.text}` : null;
  }
  if (ts.isNonNullExpression(n) || ts.isParenthesizedExpression(n)) return chain(n.expression, depth + 1);
  if (ts.isExpressionWithTypeArguments(n)) return chain(n.expression, depth + 1);
  if (ts.isJsxNamespacedName(n)) return null;
  return null;
}

function unwrap(n: ts.Expression): ts.Expression {
  while (ts.isNonNullExpression(n) || ts.isParenthesizedExpression(n)) n = n.expression;
  return n;
}

function entityText(n: ts.EntityName): string {
  return ts.isIdentifier(n) ? n.text : `${entityText(n.left)}.${n.right.text}`;
}
