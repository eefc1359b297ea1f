import { relationshipText } from './relationship-text';

describe('relationshipText', () => {
  it('prints an implementer the way the edge points, not anchor to hit', () => {
    const path = { nodeIds: ['r:a.ts#LanguageExtractor|interface', 'r:b.ts#CSharpExtractor|class'], edgeTypes: ['IMPLEMENTS'], directions: ['IN'] };
    expect(relationshipText(path)).toBe('CSharpExtractor -IMPLEMENTS-> LanguageExtractor');
  });

  it('keeps a forward path as walked, and a mixed path with both arrows', () => {
    expect(relationshipText({ nodeIds: ['r:m.ts#Invoice|class', 'r:b.ts#BaseEntity|class'], edgeTypes: ['EXTENDS'], directions: ['out'] })).toBe('Invoice -EXTENDS-> BaseEntity');
    expect(relationshipText({ nodeIds: ['r:x#a|function', 'r:x#b|function', 'r:x#c|function'], edgeTypes: ['CALLS', 'CALLS'], directions: ['in', 'in'] })).toBe('c -CALLS-> b -CALLS-> a');
    expect(relationshipText({ nodeIds: ['r:x#A|class', 'r:x#B|class', 'r:x#C|class'], edgeTypes: ['EXTENDS', 'EXTENDS'], directions: ['out', 'in'] })).toBe('A -EXTENDS-> B <-EXTENDS- C');
  });

  it('labels each edge with how it was made when the server says, in either reading order', () => {
    const path = { nodeIds: ['r:x#a|function', 'r:x#b|function'], edgeTypes: ['CALLS'], directions: ['in'], provenances: ['scip'] };
    expect(relationshipText(path)).toBe('b -CALLS[scip]-> a');
    expect(relationshipText({ ...path, nodeIds: [...path.nodeIds, 'r:x#C|class'], edgeTypes: ['CALLS', 'EXTENDS'], directions: ['in', 'out'], provenances: ['name', null] })).toBe('a <-CALLS[name]- b -EXTENDS-> C');
  });
});
