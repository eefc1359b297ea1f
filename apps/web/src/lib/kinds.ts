/** Node colours by scope kind (the same in the legend). */
const KIND_COLORS: Record<string, string> = {
  file: '#94a3b8',
  class: '#2563eb',
  interface: '#7c3aed',
  struct: '#2563eb',
  record: '#2563eb',
  enum: '#0891b2',
  type_alias: '#0891b2',
  function: '#059669',
  method: '#16a34a',
  constructor: '#16a34a',
  property: '#65a30d',
  variable: '#65a30d',
  namespace: '#64748b',
  table: '#d97706',
  view: '#d97706',
  procedure: '#ea580c',
  sql_function: '#ea580c',
  trigger: '#ea580c',
};
const OTHER_COLOR = '#64748b';

export function kindColor(kind: string): string {
  return KIND_COLORS[kind] ?? OTHER_COLOR;
}
