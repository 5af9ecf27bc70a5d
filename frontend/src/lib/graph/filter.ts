// Which nodes and edges the person wants to see: node kinds, edge kinds,
// collections, documents, clusters and the search. Filters restrict what
// is drawn (and, for collections, documents and clusters, the document
// list); the levels of detail then choose among what is left (lod.ts).
import type { EdgeKind } from '../../bridge/workbench';
import type { EdgeAttrs, LoomGraph, NodeAttrs, ViewEdgeKind } from './build';

/** Node kinds the filters know: concepts, and sections by source. */
export type NodeKindFilter = 'concept' | 'input' | 'output' | 'analysis';
export const NODE_KINDS: readonly NodeKindFilter[] = ['concept', 'input', 'output', 'analysis'];

export interface Filters {
  kinds: Record<NodeKindFilter, boolean>;
  edges: Record<EdgeKind, boolean>;
  /** Only these collections' documents ([]: all). */
  collections: string[];
  /** Only these documents, by id ([]: all). */
  documents: string[];
  /** Only these clusters, by id ([]: all). */
  clusters: string[];
  /** Hide nodes that do not match the search (else they are dimmed). */
  onlyMatches: boolean;
}

export function defaultFilters(): Filters {
  return {
    kinds: { concept: true, input: true, output: true, analysis: true },
    edges: { about: true, related: true, parent: true, links: true, derived: true, calls: true, imports: true, implements: true },
    collections: [],
    documents: [],
    clusters: [],
    onlyMatches: true,
  };
}

/** Normalises what was typed: trimmed, lower-cased; "" means no search. */
export function normaliseTerm(term: string): string {
  return term.trim().toLowerCase();
}

/** Ids of the nodes whose label contains the term (case-insensitive), super-nodes excepted; null for an empty term. */
export function matchNodes(graph: LoomGraph, term: string): Set<string> | null {
  const t = normaliseTerm(term);
  if (!t) return null;
  const out = new Set<string>();
  graph.forEachNode((id, a) => {
    if (a.kind !== 'cluster' && a.search.includes(t)) out.add(id);
  });
  return out;
}

/** The kind a node counts as for the kind toggles. */
export function kindOf(a: Pick<NodeAttrs, 'kind' | 'source'>): NodeKindFilter {
  if (a.kind === 'concept') return 'concept';
  return a.source === 'output' ? 'output' : a.source === 'analysis' ? 'analysis' : 'input';
}

/** Whether the kind toggles (and the only-matches switch) let the node show; the scope filters need the graph (passingNodes). */
export function nodeVisible(id: string, a: NodeAttrs, filters: Filters, matches: Set<string> | null): boolean {
  if (a.kind === 'cluster') return true;
  if (!filters.kinds[kindOf(a)]) return false;
  if (filters.onlyMatches && matches && !matches.has(id)) return false;
  return true;
}

export function edgeVisible(a: Pick<EdgeAttrs, 'kind'>, filters: Filters): boolean {
  if (a.kind === 'cluster') return true;
  return filters.edges[a.kind as EdgeKind] !== false;
}

export interface ScopeContext {
  /**
   * Documents whose collection (or hand-made group) is among the filter's
   * collections, when the page knows the documents; else a section's own
   * collection decides.
   */
  documentsInCollections?: ReadonlySet<string> | null;
  /** Cluster ids → their index (NodeAttrs.cluster). */
  clusterIndex?: ReadonlyMap<string, number>;
}

/**
 * 1 for every node the filters let through, by NodeAttrs.i. A section must
 * be of a kind that is on, in one of the collections, documents and
 * clusters asked for (when any), and match the search when only matches
 * show. A concept must be on, in a cluster asked for, match the search, and
 * when collections or documents narrow the view, be about a section that
 * passes. A super-node passes when any of its members does.
 */
export function passingNodes(graph: LoomGraph, filters: Filters, matches: Set<string> | null, ctx: ScopeContext = {}): Uint8Array {
  // Indexed by NodeAttrs.i, which may run past the order (GraphBuilder leaves holes for duplicate ids).
  let size = graph.order;
  graph.forEachNode((_id, a) => {
    if (a.i >= size) size = a.i + 1;
  });
  const out = new Uint8Array(size);
  const cols = filters.collections.length ? new Set(filters.collections) : null;
  const docs = filters.documents.length ? new Set(filters.documents) : null;
  const clusterIdx = filters.clusters.length
    ? new Set(filters.clusters.map((id) => ctx.clusterIndex?.get(id)).filter((i): i is number => i !== undefined))
    : null;
  const byDocument = cols !== null && ctx.documentsInCollections != null;
  const concepts: [string, NodeAttrs][] = [];
  const supers: NodeAttrs[] = [];
  graph.forEachNode((id, a) => {
    if (a.kind === 'cluster') {
      supers.push(a);
      return;
    }
    if (!nodeVisible(id, a, filters, matches)) return;
    if (clusterIdx && !clusterIdx.has(a.cluster)) return;
    if (a.kind === 'concept') {
      concepts.push([id, a]);
      return;
    }
    if (cols && !(byDocument ? ctx.documentsInCollections!.has(a.document) : cols.has(a.collection))) return;
    if (docs && !docs.has(a.document)) return;
    out[a.i] = 1;
  });
  const narrowed = cols !== null || docs !== null;
  for (const [id, a] of concepts) {
    if (!narrowed) {
      out[a.i] = 1;
      continue;
    }
    // About a section that passes?
    let about = false;
    graph.forEachEdge(id, (_e, ea, source, target) => {
      if (about || ea.kind !== 'about') return;
      const other = source === id ? target : source;
      if (out[graph.getNodeAttribute(other, 'i')] && graph.getNodeAttribute(other, 'kind') === 'content') about = true;
    });
    if (about) out[a.i] = 1;
  }
  if (supers.length) {
    const any = new Uint8Array(supers.length ? Math.max(...supers.map((s) => s.cluster)) + 1 : 0);
    graph.forEachNode((_id, a) => {
      if (a.kind !== 'cluster' && a.cluster >= 0 && out[a.i]) any[a.cluster] = 1;
    });
    for (const s of supers) if (any[s.cluster]) out[s.i] = 1;
  }
  return out;
}

/** How many of the engine's nodes (super-nodes not counted) the filters let through. */
export function countVisible(graph: LoomGraph, filters: Filters, matches: Set<string> | null, ctx: ScopeContext = {}): number {
  const pass = passingNodes(graph, filters, matches, ctx);
  let n = 0;
  graph.forEachNode((_id, a) => {
    if (a.kind !== 'cluster' && pass[a.i]) n++;
  });
  return n;
}

export interface DocumentLike {
  id: string;
  collection: string;
  groups?: string[];
}

/** Documents in any of the collections (their own, or a group they were put in). */
export function documentsIn(docs: readonly DocumentLike[], collections: readonly string[]): Set<string> {
  const want = new Set(collections);
  const out = new Set<string>();
  for (const d of docs) if (want.has(d.collection) || d.groups?.some((g) => want.has(g))) out.add(d.id);
  return out;
}

/**
 * Whether the document list shows a document under the filters: in one of
 * the collections, one of the documents, and with a section in one of the
 * clusters (docsInClusters), each when asked for.
 */
export function documentPasses(doc: DocumentLike, filters: Pick<Filters, 'collections' | 'documents' | 'clusters'>, docsInClusters: ReadonlySet<string> | null): boolean {
  if (filters.collections.length && !(filters.collections.includes(doc.collection) || doc.groups?.some((g) => filters.collections.includes(g)))) return false;
  if (filters.documents.length && !filters.documents.includes(doc.id)) return false;
  if (filters.clusters.length && docsInClusters && !docsInClusters.has(doc.id)) return false;
  return true;
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

/** Edge kinds are the engine's plus the links between super-nodes. */
export type { ViewEdgeKind };
