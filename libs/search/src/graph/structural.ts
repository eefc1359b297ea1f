import type { GraphEdgeType } from '@scopegraph/code-model';

/**
 * Relationship questions in plain words ("which classes extend Subject", "who calls popScheduler",
 * "what does the last operator call", "where is isValidDate used") recognised by rules, so that they
 * are answered from the graph without a model and without an explicit expand spec.
 *
 * The rules only say WHICH relation and WHAT NAME; whether the name is a scope is decided by the
 * graph (graph-answer.ts resolves it). A question whose target is not a short name is left to the
 * text lists: "which function uses a regex to parse dates" names no scope.
 */

export const RELATIONS = ['subtypes', 'implementers', 'supertypes', 'callers', 'callees', 'importers', 'users', 'overriders'] as const;
export type Relation = (typeof RELATIONS)[number];

export interface RelationSpec {
  /** Edge types walked, the most telling first (results follow this order at equal depth). */
  edges: GraphEdgeType[];
  /** `in`: scopes pointing at the target (subclasses, callers); `out`: what the target points at. */
  direction: 'in' | 'out';
  /** Follow the edges up to this many hops (a class hierarchy), nearest first. */
  maxDepth: number;
  /** Kinds the target should have; a candidate of another kind ranks after these. */
  targetKinds: string[];
}

const TYPE_KINDS = ['class', 'interface', 'struct', 'record', 'trait', 'union'];
const CALLABLE_KINDS = ['function', 'method', 'constructor', 'procedure', 'sql_function'];

export const RELATION_SPECS: Record<Relation, RelationSpec> = {
  // TypeScript interfaces extend interfaces and C# base lists do not tell the two apart: both edges count.
  subtypes: { edges: ['EXTENDS', 'IMPLEMENTS'], direction: 'in', maxDepth: 3, targetKinds: TYPE_KINDS },
  implementers: { edges: ['IMPLEMENTS', 'EXTENDS'], direction: 'in', maxDepth: 3, targetKinds: TYPE_KINDS },
  supertypes: { edges: ['EXTENDS', 'IMPLEMENTS'], direction: 'out', maxDepth: 3, targetKinds: TYPE_KINDS },
  callers: { edges: ['CALLS', 'REFERENCES'], direction: 'in', maxDepth: 1, targetKinds: CALLABLE_KINDS },
  callees: { edges: ['CALLS', 'REFERENCES'], direction: 'out', maxDepth: 1, targetKinds: CALLABLE_KINDS },
  importers: { edges: ['IMPORTS', 'REFERENCES'], direction: 'in', maxDepth: 1, targetKinds: [] },
  users: { edges: ['CALLS', 'REFERENCES', 'IMPORTS', 'EXTENDS', 'IMPLEMENTS'], direction: 'in', maxDepth: 1, targetKinds: [] },
  overriders: { edges: ['EXTENDS', 'IMPLEMENTS'], direction: 'in', maxDepth: 3, targetKinds: ['method'] },
};

export interface StructuralQuestion {
  relation: Relation;
  /** The target as the question names it, cleaned of articles and kind words ("the filter operator" -> "filter"). */
  target: string;
  /** Names to look the target up by: as typed, and camel/Pascal/snake joins of its words. */
  names: string[];
  /** Which rule matched (explain output). */
  rule: string;
}

/** A target of more words than this is a description, not a name. */
const MAX_TARGET_WORDS = 3;

// `T` is the target phrase; each rule is anchored so that a sentence merely containing a verb
// ("how does the scheduler call the action") is not taken for a relationship question.
const T = '(.+?)';
// A colon ends the question ("who calls X: ..."), a double one is a path (`Thor::Base`, `ns::Class`).
const END = '\\s*(?:(?:[,;(]|(?<!:):(?!:)).*)?[?.!]*\\s*$';
const WH = '(?:who|what|which|where|find|show|list|all|every|any)\\b';
/** Anything before a verb form specific enough to stand on its own ("interfaces extending X"). */
const ANY = '(?:.*?\\b)?';
/** "... used by other operators", "... called from the tests": where, not what. */
const WHERE_TAIL = '(?:\\s+(?:by|in|from|across|within|throughout|inside)(?:\\s+.*?)?)?';
const RULES: { name: string; relation: Relation; re: RegExp }[] = [
  // "what does X extend / derive from / implement", "base class of X"
  { name: 'what-does-X-extend', relation: 'supertypes', re: new RegExp(`^${WH}.*?\\b(?:does|do|did)\\s+${T}\\s+(?:extend|inherit from|derive from|implement|subclass)${END}`, 'i') },
  { name: 'base-of-X', relation: 'supertypes', re: new RegExp(`^(?:${WH}.*?\\b)?(?:base (?:class|type|classes|types)|parent (?:class|type)|super ?(?:class|type)s?|ancestors?)\\s+(?:of|for)\\s+${T}${END}`, 'i') },
  // "what does X call / use", "callees of X", "what is X built from"
  { name: 'what-does-X-call', relation: 'callees', re: new RegExp(`^${WH}.*?\\b(?:does|do|did)\\s+${T}\\s+(?:call|invoke|use|depend on|rely on|delegate to)(?:\\s+internally)?${END}`, 'i') },
  { name: 'callees-of-X', relation: 'callees', re: new RegExp(`^(?:${WH}.*?\\b)?(?:callees|dependencies|functions called by|calls made by)\\s+(?:of|in|by|from)?\\s*${T}${END}`, 'i') },
  { name: 'X-built-from', relation: 'callees', re: new RegExp(`^${WH}.*?\\b(?:is|are)\\s+${T}\\s+(?:built|made|composed|implemented|assembled)\\s+(?:from|with|on top of|out of|using)${END}`, 'i') },
  { name: 'called-by-X', relation: 'callees', re: new RegExp(`^${WH}.*?\\b(?:is|are|gets?)\\s+(?:called|invoked)\\s+(?:by|from|in|inside)\\s+${T}${END}`, 'i') },
  // "what overrides X", "where is X overridden"
  { name: 'overrides-X', relation: 'overriders', re: new RegExp(`^${WH}.*?\\b(?:overrides?|overriding|re-?implements?)\\s+${T}${END}`, 'i') },
  { name: 'where-is-X-overridden', relation: 'overriders', re: new RegExp(`^${WH}.*?\\b(?:is|are)\\s+${T}\\s+(?:overridden|overriden|overwritten)${END}`, 'i') },
  // "which classes implement X", "implementations of X"
  // Go's word for an interface met by a method set: "which types satisfy the Writer interface".
  { name: 'implement-X', relation: 'implementers', re: new RegExp(`^${ANY}(?:implements?|implementing|implementations? of|implementers? of|realizes?|conforms? to|satisf(?:y|ies|ying))\\s+${T}${END}`, 'i') },
  // Ruby mixins ("which classes include the Enumerable module", "what mixes in Comparable"): only a
  // capitalised name, so that "which tests include a retry loop" stays a text question.
  { name: 'include-M', relation: 'implementers', re: new RegExp(`^${WH}.*?\\b(?:include[sd]?|including|mix(?:es|ed|ing)? in|extends? self with)\\s+(?:the\\s+)?(?=[A-Z])${T}${END}`) },
  // "which classes extend X", "subclasses of X", "derived from X"
  {
    name: 'extend-X',
    relation: 'subtypes',
    re: new RegExp(
      `^${ANY}(?:extends?|extending|inherits?(?: from)?|inheriting from|derives? from|derived from|deriving from|subclass(?:es)? of|subclass(?:es|ed by)?|sub-?types? of|descendants? of|children of|specializ\\w+|specialis\\w+)\\s+${T}${END}`,
      'i',
    ),
  },
  // "where is X imported", "who imports X"
  { name: 'where-is-X-imported', relation: 'importers', re: new RegExp(`^${WH}.*?\\b(?:is|are)\\s+${T}\\s+imported${END}`, 'i') },
  { name: 'imports-X', relation: 'importers', re: new RegExp(`^${WH}.*?\\b(?:imports?|importing|importers of)\\s+${T}${END}`, 'i') },
  // "who calls X", "callers of X", "where is X called/used", "which operators are built on X"
  { name: 'where-is-X-called', relation: 'callers', re: new RegExp(`^${WH}.*?\\b(?:is|are)\\s+${T}\\s+(?:called|invoked)${WHERE_TAIL}${END}`, 'i') },
  { name: 'where-is-X-used', relation: 'users', re: new RegExp(`^${WH}.*?\\b(?:is|are)\\s+${T}\\s+(?:used|referenced|needed|consumed)${WHERE_TAIL}${END}`, 'i') },
  { name: 'callers-of-X', relation: 'callers', re: new RegExp(`^${ANY}(?:callers|invokers|call sites|call-sites)\\s+(?:of|for|to)\\s+${T}${END}`, 'i') },
  { name: 'calls-X', relation: 'callers', re: new RegExp(`^${WH}.*?\\b(?:calls?|invokes?|calling|invoking)\\s+${T}${END}`, 'i') },
  { name: 'built-on-X', relation: 'callers', re: new RegExp(`^(?:${WH}.*?\\b|.*?\\b)(?:built|implemented|based|written|made)\\s+(?:on top of|on|with|using|upon|in terms of)\\s+${T}${END}`, 'i') },
  { name: 'usages-of-X', relation: 'users', re: new RegExp(`^${ANY}(?:usages?|uses|references|consumers|dependents)\\s+(?:of|to)\\s+${T}${END}`, 'i') },
  { name: 'uses-X', relation: 'users', re: new RegExp(`^${WH}.*?\\b(?:uses?|using|references?|referencing|depends? on|depending on|relies on)\\s+${T}${END}`, 'i') },
];

/** Words around a name that say what kind of thing it is, not which one. */
const NOISE_WORDS = new Set(
  (
    'the a an this that these those its it our my your some ' +
    'class classes interface interfaces type types function functions method methods operator operators ' +
    'constructor module modules file files struct structs record records enum enums trait traits protocol ' +
    'union unions namespace namespaces package packages impl mixin mixins ' +
    'base abstract helper utility util named called symbol object objects component components ' +
    'directly indirectly transitively other others'
  ).split(' '),
);

/** Is `text` a relationship question, and about which name? Null when it is not (or names no short target). */
export function recogniseStructural(text: string): StructuralQuestion | null {
  const question = text.replace(/\s+/g, ' ').trim();
  if (question.length === 0 || question.length > 200) return null;
  for (const rule of RULES) {
    const m = rule.re.exec(question);
    if (!m) continue;
    const target = cleanTarget(m[1]);
    if (!target) continue;
    return { relation: rule.relation, target, names: nameVariants(target), rule: rule.name };
  }
  return null;
}

/** "the `Observer` interface" -> "Observer"; null when nothing name-like, or too many words, is left. */
export function cleanTarget(phrase: string): string | null {
  const words = phrase
    .replace(/[`'"“”‘’]/g, ' ')
    .replace(/\(\s*\)/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}_$@]+|[^\p{L}\p{N}_$]+$/gu, ''))
    .filter((w) => w.length > 0 && !NOISE_WORDS.has(w.toLowerCase()));
  if (words.length === 0 || words.length > MAX_TARGET_WORDS) return null;
  if (words.some((w) => !/^[\p{L}\p{N}_$@.:#-]+$/u.test(w))) return null;
  return words.join(' ');
}

/** Names a target may be declared under: as typed, and joined as camelCase, PascalCase, snake_case. */
export function nameVariants(target: string): string[] {
  const words = target.split(' ');
  const out = new Set<string>();
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  if (words.length === 1) {
    const w = words[0];
    out.add(w);
    // A qualified name (Class.method, Class::method, Class#method) is also looked up by its last part.
    const parts = w.split(/\.|::|#/).filter(Boolean);
    if (parts.length > 1) {
      out.add(parts.join('.'));
      out.add(parts[parts.length - 1]);
    }
    out.add(cap(w));
    out.add(w.charAt(0).toLowerCase() + w.slice(1));
  } else {
    const lower = words.map((w) => w.toLowerCase());
    out.add(lower[0] + lower.slice(1).map(cap).join(''));
    out.add(lower.map(cap).join(''));
    out.add(lower.join('_'));
    out.add(lower.join('_').toUpperCase());
    out.add(words.join(''));
  }
  return [...out];
}
