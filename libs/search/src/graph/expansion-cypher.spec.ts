import { CypherFiles } from '@scopegraph/graph';
import { DomainError } from '@scopegraph/errors';
import { allowedEdgeTypes, EXPAND_CYPHER, expansionPattern, renderExpansionQuery } from './expansion-cypher';

describe('graph expansion Cypher', () => {
  it.each([
    [{ depth: 1, edges: ['CALLS'], direction: 'in' }],
    [{ depth: 2, edges: ['REFERENCES', 'CALLS'], direction: 'out' }],
    [{ depth: 3, edges: ['DECLARES', 'HAS_MEMBER', 'CALLS', 'EXTENDS', 'IMPLEMENTS', 'REFERENCES', 'IMPORTS'], direction: 'both' }],
  ])('builds the pattern for %j', (shape) => {
    expect(expansionPattern(shape)).toMatchSnapshot();
  });

  it('renders the whole query from cypher/search/expand.cypher', () => {
    const template = new CypherFiles().get(EXPAND_CYPHER);
    expect(renderExpansionQuery(template, { depth: 2, edges: ['CALLS', 'IMPLEMENTS'], direction: 'in' })).toMatchSnapshot();
  });

  it('uses the allow-list constants, in allow-list order, de-duplicated', () => {
    expect(allowedEdgeTypes(['IMPORTS', 'CALLS', 'CALLS'])).toEqual(['CALLS', 'IMPORTS']);
  });

  it.each([
    ['CALLS]->(x) DETACH DELETE x //'],
    ['calls'],
    ['CALLS|REFERENCES'],
    ['`CALLS`'],
    ['$type'],
    [''],
  ])('refuses the edge type %j', (edge) => {
    expect(() => expansionPattern({ depth: 1, edges: [edge], direction: 'out' })).toThrow(DomainError);
  });

  it.each([[0], [4], [1.5], [Number.NaN]])('refuses depth %p', (depth) => {
    expect(() => expansionPattern({ depth, edges: ['CALLS'], direction: 'out' })).toThrow(/depth must be an integer from 1 to 3/);
  });

  it('refuses an unknown direction and an empty edge list', () => {
    expect(() => expansionPattern({ depth: 1, edges: ['CALLS'], direction: 'up' })).toThrow(/direction/);
    expect(() => expansionPattern({ depth: 1, edges: [], direction: 'out' })).toThrow(/at least one edge type/);
  });

  it('refuses a template without exactly one placeholder', () => {
    expect(() => renderExpansionQuery('MATCH (n) RETURN n', { depth: 1, edges: ['CALLS'], direction: 'out' })).toThrow(/exactly once/);
    expect(() => renderExpansionQuery('{{PATTERN}} {{PATTERN}}', { depth: 1, edges: ['CALLS'], direction: 'out' })).toThrow(/exactly once/);
  });
});
