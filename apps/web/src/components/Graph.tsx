import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import { useEffect, useRef } from 'react';
import type { Neighborhood } from '../api/types';
import { nameFromId } from '../lib/format';
import { kindColor } from '../lib/kinds';

const MAX_FIT_ZOOM = 1.25;

/** Cytoscape elements for a neighbourhood: the root, every neighbour, and each hop of the paths that reached them. */
export function graphElements(n: Neighborhood): ElementDefinition[] {
  const nodes = new Map<string, ElementDefinition>();
  const addNode = (id: string, label: string, kind: string, depth: number) => {
    if (nodes.has(id)) return;
    nodes.set(id, { group: 'nodes', data: { id, label, kind, depth, color: kindColor(kind), root: depth === 0 ? 1 : 0 } });
  };
  addNode(n.root.id, n.root.qualifiedName, n.root.kind, 0);
  for (const nb of n.neighbors) addNode(nb.scope.id, nb.scope.qualifiedName, nb.scope.kind, nb.depth);
  const edges = new Map<string, ElementDefinition>();
  for (const nb of n.neighbors) {
    const { nodeIds, edgeTypes, directions } = nb.path;
    edgeTypes.forEach((type, i) => {
      const a = nodeIds[i];
      const b = nodeIds[i + 1];
      if (!a || !b) return;
      // Hops outside the returned nodes (cut by maxNodes) still get a node, named from its id.
      addNode(b, nameFromId(b), 'other', i + 1);
      const [source, target] = directions[i]?.toUpperCase() === 'IN' ? [b, a] : [a, b];
      const id = `${source}|${type}|${target}`;
      if (!edges.has(id)) edges.set(id, { group: 'edges', data: { id, source, target, label: type } });
    });
  }
  return [...nodes.values(), ...edges.values()];
}

/** The drawn graph; a click on a node other than the root opens that scope. */
export function Graph({ neighborhood, onOpen }: { neighborhood: Neighborhood; onOpen: (id: string) => void }) {
  const container = useRef<HTMLDivElement>(null);
  const open = useRef(onOpen);
  open.current = onOpen;

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const maxDepth = Math.max(1, ...neighborhood.neighbors.map((x) => x.depth));
    const cy: Core = cytoscape({
      container: el,
      elements: graphElements(neighborhood),
      minZoom: 0.2,
      maxZoom: 3,
      style: [
        {
          selector: 'node',
          style: {
            'background-color': 'data(color)',
            label: 'data(label)',
            color: '#1f2328',
            'font-size': 11,
            'font-family': 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            'text-valign': 'bottom',
            'text-margin-y': 4,
            'text-background-color': '#ffffff',
            'text-background-opacity': 0.85,
            'text-background-padding': '2px',
            'text-wrap': 'ellipsis',
            'text-max-width': '150px',
            width: 18,
            height: 18,
          },
        },
        { selector: 'node[root = 1]', style: { width: 30, height: 30, 'border-width': 4, 'border-color': '#fbbf24', 'font-weight': 'bold', 'font-size': 13, 'text-max-width': '260px' } },
        { selector: 'node:active, node.hover', style: { 'overlay-opacity': 0.12, 'overlay-color': '#2563eb' } },
        {
          selector: 'edge',
          style: {
            width: 1.5,
            'line-color': '#9aa4b2',
            'target-arrow-color': '#9aa4b2',
            'target-arrow-shape': 'triangle',
            'curve-style': 'bezier',
            label: 'data(label)',
            'font-size': 9,
            color: '#57606a',
            'text-rotation': 'autorotate',
            'text-background-color': '#f6f8fa',
            'text-background-opacity': 1,
            'text-background-padding': '1px',
          },
        },
      ],
      layout: {
        name: 'concentric',
        concentric: (node) => maxDepth + 1 - Number(node.data('depth')),
        levelWidth: () => 1,
        minNodeSpacing: 60,
        padding: 30,
        animate: false,
      },
    });
    // A small neighbourhood would be fitted at a giant zoom; keep labels at their natural size.
    if (cy.zoom() > MAX_FIT_ZOOM) {
      cy.zoom(MAX_FIT_ZOOM);
      cy.center();
    }
    cy.on('tap', 'node', (event) => {
      const id = event.target.id() as string;
      if (id !== neighborhood.root.id) open.current(id);
    });
    cy.on('mouseover', 'node', (event) => {
      event.target.addClass('hover');
      el.style.cursor = event.target.id() === neighborhood.root.id ? 'default' : 'pointer';
    });
    cy.on('mouseout', 'node', (event) => {
      event.target.removeClass('hover');
      el.style.cursor = 'default';
    });
    // The instance stays reachable from the element, for devtools and the browser e2e.
    (el as HTMLDivElement & { cy?: Core }).cy = cy;
    return () => cy.destroy();
  }, [neighborhood]);

  return <div ref={container} className="graph" data-testid="neighborhood-graph" />;
}
