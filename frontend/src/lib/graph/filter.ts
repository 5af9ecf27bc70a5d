// Which nodes and edges the person wants to see: kind toggles and search.
import type { EdgeKind } from '../../bridge/workbench';
import type { EdgeAttrs, LoomGraph, NodeAttrs } from './build';

export interface Filters {
  concepts: boolean;
  content: boolean;
  edges: Record<EdgeKind, boolean>;
  /** Hide nodes that do not match the search instead of dimming them. */
  onlyMatches: boolean;
}

export function defaultFilters(): Filters {
  return {
    concepts: true,
    content: true,
    edges: { about: true, related: true, parent: true, links: true, derived: true, calls: true, imports: true, implements: true },
    onlyMatches: false,
  };
}

/** Normalises what was typed: trimmed, lower-cased; "" means no search. */
export function normaliseTerm(term: string): string {
  return term.trim().toLowerCase();
}

/** Ids of the nodes whose label contains the term (case-insensitive); null for an empty term. */
export function matchNodes(graph: LoomGraph, term: string): Set<string> | null {
  const t = normaliseTerm(term);
  if (!t) return null;
  const out = new Set<string>();
  graph.forEachNode((id, a) => {
    if (a.search.includes(t)) out.add(id);
  });
  return out;
}

/** Whether the kind toggles (and the only-matches switch) let the node show. */
export function nodeVisible(id: string, a: NodeAttrs, filters: Filters, matches: Set<string> | null): boolean {
  if (a.kind === 'concept' ? !filters.concepts : !filters.content) return false;
  if (filters.onlyMatches && matches && !matches.has(id)) return false;
  return true;
}

export function edgeVisible(a: Pick<EdgeAttrs, 'kind'>, filters: Filters): boolean {
  return filters.edges[a.kind] !== false;
}

/** How many nodes the filters let through. */
export function countVisible(graph: LoomGraph, filters: Filters, matches: Set<string> | null): number {
  let n = 0;
  graph.forEachNode((id, a) => {
    if (nodeVisible(id, a, filters, matches)) n++;
  });
  return n;
}

/** Bounding box of the given nodes in graph coordinates; null when none is there. */
export function boundsOf(
  graph: LoomGraph,
  ids: Iterable<string>,
): { minX: number; minY: number; maxX: number; maxY: number } | null {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const id of ids) {
    if (!graph.hasNode(id)) continue;
    const { x, y } = graph.getNodeAttributes(id);
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return minX === Infinity ? null : { minX, minY, maxX, maxY };
}
