// Hop distance of every node from a query's seed concepts, and what the
// query loaded, for colouring the graph after a question.
import type { Candidate, GraphData, QueryResult } from '../../bridge/workbench';
import { nodeKind } from './build';

export interface QueryView {
  /** Hops of every reached node; a node that is absent is unreachable. */
  hops: Map<string, number>;
  /** Candidates by node id. */
  candidates: Map<string, Candidate>;
}

export interface QuerySummary {
  /** Loaded candidates among the graph's nodes. */
  loaded: number;
  /** Relevant candidates that were not loaded. */
  relevant: number;
  /** Nodes with a hop distance. */
  reached: number;
  /** Nodes reached at 0, 1, 2, 3 and 4+ hops. */
  byHop: [number, number, number, number, number];
}

/**
 * Concepts: query.concept_hops. Content: the candidate's hops when the node
 * is a candidate (−1 there means unreachable), else one more than the
 * nearest concept it is "about", else unreachable.
 */
export function computeHops(data: GraphData, query: QueryResult): Map<string, number> {
  const hops = new Map<string, number>();
  const kind = new Map<string, 'concept' | 'content'>();
  for (const n of data.nodes) kind.set(n.id, nodeKind(n.kind));

  for (const [id, h] of Object.entries(query.concept_hops)) {
    if (kind.get(id) === 'concept' && h >= 0) hops.set(id, h);
  }
  const candidates = new Map<string, Candidate>();
  for (const c of query.candidates) candidates.set(c.id, c);

  // Nearest concept per content node along "about" edges (either direction).
  const viaAbout = new Map<string, number>();
  for (const e of data.edges) {
    if (e.kind !== 'about') continue;
    let concept: string, content: string;
    if (kind.get(e.source) === 'concept' && kind.get(e.target) === 'content') {
      [concept, content] = [e.source, e.target];
    } else if (kind.get(e.target) === 'concept' && kind.get(e.source) === 'content') {
      [concept, content] = [e.target, e.source];
    } else continue;
    const h = hops.get(concept);
    if (h === undefined) continue;
    const prev = viaAbout.get(content);
    if (prev === undefined || h + 1 < prev) viaAbout.set(content, h + 1);
  }

  for (const n of data.nodes) {
    if (n.kind !== 'content') continue;
    const c = candidates.get(n.id);
    if (c) {
      if (c.hops >= 0) hops.set(n.id, c.hops);
      continue;
    }
    const h = viaAbout.get(n.id);
    if (h !== undefined) hops.set(n.id, h);
  }
  return hops;
}

export function makeQueryView(data: GraphData, query: QueryResult): QueryView {
  const candidates = new Map<string, Candidate>();
  for (const c of query.candidates) candidates.set(c.id, c);
  return { hops: computeHops(data, query), candidates };
}

/** Index into the hop palette / legend: 0, 1, 2, 3, 4 (= 4+); −1 unreachable. */
export function hopBucket(h: number | undefined): number {
  if (h === undefined || h < 0) return -1;
  return Math.min(4, Math.floor(h));
}

export function summarise(data: GraphData, view: QueryView): QuerySummary {
  const s: QuerySummary = { loaded: 0, relevant: 0, reached: 0, byHop: [0, 0, 0, 0, 0] };
  for (const n of data.nodes) {
    const c = view.candidates.get(n.id);
    if (c?.loaded) s.loaded++;
    else if (c?.relevant) s.relevant++;
    const b = hopBucket(view.hops.get(n.id));
    if (b >= 0) {
      s.reached++;
      s.byHop[b]++;
    }
  }
  return s;
}
