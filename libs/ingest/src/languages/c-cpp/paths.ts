/** Header file extensions: parsed with the C++ grammar (see index.ts) and the home of prototypes. */
export const HEADER_EXTENSIONS = ['h', 'hh', 'hpp', 'hxx', 'h++', 'inl', 'ipp', 'tpp'] as const;

const HEADERS = new Set<string>(HEADER_EXTENSIONS);

export function isHeaderPath(path: string): boolean {
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') && HEADERS.has(path.slice(dot + 1).toLowerCase());
}
