/**
 * SCIP symbol strings (`<scheme> <manager> <package> <version> <descriptors>` or `local <id>`), parsed
 * by the grammar of the SCIP specification. Hand-written: the shipped protobuf binding has no parser
 * for the string form, and the grammar is small.
 */
export type DescriptorSuffix = 'namespace' | 'type' | 'term' | 'method' | 'type-parameter' | 'parameter' | 'meta' | 'macro';

export interface ScipDescriptor {
  name: string;
  suffix: DescriptorSuffix;
}

export interface ParsedScipSymbol {
  local: boolean;
  scheme: string;
  /** `npm`, `python`, `gomod`, `maven`...; '' when the indexer left it out ('.'). */
  manager: string;
  /** Package name ('' when unknown). */
  name: string;
  version: string;
  descriptors: ScipDescriptor[];
}

const cache = new Map<string, ParsedScipSymbol | null>();
const CACHE_LIMIT = 200_000;

/** The parsed symbol, or null when the string does not follow the grammar. Memoised (symbols repeat). */
export function parseScipSymbol(symbol: string): ParsedScipSymbol | null {
  const hit = cache.get(symbol);
  if (hit !== undefined) return hit;
  const parsed = parse(symbol);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(symbol, parsed);
  return parsed;
}

function parse(symbol: string): ParsedScipSymbol | null {
  if (symbol.startsWith('local ')) return { local: true, scheme: 'local', manager: '', name: '', version: '', descriptors: [] };
  let i = 0;
  // Fields end at a space, backquoted names at a backquote; a doubled terminator stands for itself.
  const until = (term: string): string | null => {
    let out = '';
    while (i < symbol.length) {
      if (symbol[i] === term) {
        if (symbol[i + 1] !== term) {
          i++;
          return out;
        }
        i++;
      }
      out += symbol[i++];
    }
    return null;
  };
  const field = () => until(' ');
  const scheme = field();
  const manager = field();
  const name = field();
  const version = field();
  if (scheme === null || manager === null || name === null || version === null) return null;
  const descriptors: ScipDescriptor[] = [];
  const ident = (): string | null => {
    if (symbol[i] === '`') {
      i++;
      return until('`');
    }
    const start = i;
    while (i < symbol.length && /[\w+\-$]/.test(symbol[i])) i++;
    return i > start ? symbol.slice(start, i) : null;
  };
  while (i < symbol.length) {
    const c = symbol[i];
    if (c === '[' || c === '(') {
      i++;
      const n = ident();
      const close = c === '[' ? ']' : ')';
      if (n === null || symbol[i] !== close) return null;
      i++;
      descriptors.push({ name: n, suffix: c === '[' ? 'type-parameter' : 'parameter' });
      continue;
    }
    const n = ident();
    if (n === null) return null;
    const s = symbol[i++];
    if (s === '/') descriptors.push({ name: n, suffix: 'namespace' });
    else if (s === '#') descriptors.push({ name: n, suffix: 'type' });
    else if (s === '.') descriptors.push({ name: n, suffix: 'term' });
    else if (s === ':') descriptors.push({ name: n, suffix: 'meta' });
    else if (s === '!') descriptors.push({ name: n, suffix: 'macro' });
    else if (s === '(') {
      // method: name(disambiguator).
      while (i < symbol.length && symbol[i] !== ')') i++;
      if (symbol[i] !== ')' || symbol[i + 1] !== '.') return null;
      i += 2;
      descriptors.push({ name: n, suffix: 'method' });
    } else return null;
  }
  const dot = (v: string) => (v === '.' ? '' : v);
  return { local: false, scheme, manager: dot(manager), name: dot(name), version: dot(version), descriptors };
}

/** The name a definition of this symbol carries in source (its last descriptor's), or null. */
export function symbolName(p: ParsedScipSymbol): string | null {
  const last = p.descriptors[p.descriptors.length - 1];
  if (!last) return null;
  return last.name;
}

/**
 * Where an external symbol comes from, for people: the package (`python-stdlib`, `lodash`), and for
 * TypeScript's bundled libraries the library file (`typescript lib.dom.d.ts`: the web platform).
 */
export function symbolOrigin(p: ParsedScipSymbol): string {
  const lib = p.descriptors.find((d) => d.suffix === 'namespace' && /^lib\..*\.d\.ts$/.test(d.name));
  if (lib) return `${p.name || p.manager} ${lib.name}`;
  return p.name || p.manager || p.scheme;
}
