// GraphData (as the engine sends it) → a graphology graph the renderer and
// the layout work on, with cheap deterministic starting positions.
import Graph from 'graphology';
import type { EdgeKind, GraphData, GraphNode } from '../../bridge/workbench';
import { EdgeKinds } from '../../bridge/types';

export interface NodeAttrs {
  x: number;
  y: number;
  kind: 'concept' | 'content';
  label: string;
  source: string;
  document: string;
  collection: string;
  tokens: number;
  pinned: boolean;
  /** Size before any styling (concept: by degree; content: by tokens, log). */
  baseSize: number;
  /** Lower-cased label, for search. */
  search: string;
}

export interface EdgeAttrs {
  kind: EdgeKind;
  weight: number;
  /** The ends, kept here so styling need not ask the graph per edge. */
  from: string;
  to: string;
}

export type LoomGraph = Graph<NodeAttrs, EdgeAttrs>;

export interface Position {
  x: number;
  y: number;
}

const GOLDEN = Math.PI * (3 - Math.sqrt(5));

/** A small seeded PRNG (mulberry32): same seed, same positions. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A node's kind as the graph draws it: the engine sends concept and content nodes (backend.GraphNode.Kind). */
export function nodeKind(kind: string): 'concept' | 'content' {
  return kind === 'concept' ? 'concept' : 'content';
}

/** An edge's kind, when it is one the engine declares (EdgeKinds, from model.EdgeKind's constants); undefined for any other. */
export function edgeKind(kind: string): EdgeKind | undefined {
  return EdgeKinds.find((k) => k === kind);
}

/** Content nodes: grows with the log of the tokens (1.5 … 6). */
export function contentSize(tokens: number | undefined): number {
  const t = Math.max(0, tokens ?? 0);
  return Math.min(6, 1.5 + 0.35 * Math.log2(1 + t));
}

/** Concept nodes: larger than any content node, grows with the log of the degree. */
export function conceptSize(degree: number): number {
  return Math.min(14, 6.5 + 1.2 * Math.log2(1 + degree));
}

function docKey(n: GraphNode): string {
  return n.document || n.collection || '';
}

/**
 * Builds the graph. Nodes whose id was laid out before (previous) keep
 * their place; the others start grouped by document: each document gets a
 * spot on a sunflower spiral and its sections a small sunflower around it;
 * concepts start at the mean of the sections about them. Edges whose ends
 * are missing and self-loops are left out; parallel edges are kept.
 */
export function buildGraph(data: GraphData, previous?: ReadonlyMap<string, Position>): LoomGraph {
  const graph: LoomGraph = new Graph<NodeAttrs, EdgeAttrs>({ multi: true, type: 'mixed', allowSelfLoops: false });
  const rand = seededRandom(0x10a3);

  // Degrees first (sizes depend on them).
  const degree = new Map<string, number>();
  for (const e of data.edges) {
    degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
    degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
  }

  // Documents ordered by size so the big ones sit in the middle.
  const byDoc = new Map<string, GraphNode[]>();
  for (const n of data.nodes) {
    if (n.kind !== 'content') continue;
    const k = docKey(n);
    let list = byDoc.get(k);
    if (!list) byDoc.set(k, (list = []));
    list.push(n);
  }
  const docs = [...byDoc.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  const meanDoc = docs.length ? data.nodes.length / docs.length : 1;
  const spacing = 2.2 * Math.sqrt(Math.max(1, meanDoc));

  const pos = new Map<string, Position>();
  docs.forEach(([, nodes], i) => {
    const r = spacing * Math.sqrt(i + 0.5);
    const cx = r * Math.cos(i * GOLDEN);
    const cy = r * Math.sin(i * GOLDEN);
    nodes.forEach((n, k) => {
      const lr = Math.sqrt(k + 0.5);
      pos.set(n.id, { x: cx + lr * Math.cos(k * GOLDEN), y: cy + lr * Math.sin(k * GOLDEN) });
    });
  });

  // Concepts: mean of the content about them, jittered; else an outer ring.
  const sum = new Map<string, { x: number; y: number; n: number }>();
  const kindOf = new Map<string, GraphNode['kind']>();
  for (const n of data.nodes) kindOf.set(n.id, n.kind);
  for (const e of data.edges) {
    if (e.kind !== 'about') continue;
    const [c, o] = kindOf.get(e.source) === 'concept' ? [e.source, e.target] : [e.target, e.source];
    if (kindOf.get(c) !== 'concept') continue;
    const p = pos.get(o);
    if (!p) continue;
    const s = sum.get(c) ?? { x: 0, y: 0, n: 0 };
    s.x += p.x;
    s.y += p.y;
    s.n++;
    sum.set(c, s);
  }
  const outer = spacing * Math.sqrt(docs.length + 1) + 4;
  let lonely = 0;
  for (const n of data.nodes) {
    if (n.kind !== 'concept') continue;
    const s = sum.get(n.id);
    if (s) {
      pos.set(n.id, { x: s.x / s.n + (rand() - 0.5) * 3, y: s.y / s.n + (rand() - 0.5) * 3 });
    } else {
      const a = lonely++ * GOLDEN;
      const r = outer + 3 * Math.sqrt(lonely);
      pos.set(n.id, { x: r * Math.cos(a), y: r * Math.sin(a) });
    }
  }

  for (const n of data.nodes) {
    if (graph.hasNode(n.id)) continue;
    const p = previous?.get(n.id) ?? pos.get(n.id) ?? { x: (rand() - 0.5) * 10, y: (rand() - 0.5) * 10 };
    const d = degree.get(n.id) ?? 0;
    graph.addNode(n.id, {
      x: p.x,
      y: p.y,
      kind: nodeKind(n.kind),
      label: n.label,
      source: n.source ?? 'input',
      document: n.document ?? '',
      collection: n.collection ?? '',
      tokens: n.tokens ?? 0,
      pinned: Boolean(n.pinned),
      baseSize: n.kind === 'concept' ? conceptSize(d) : contentSize(n.tokens),
      search: n.label.toLowerCase(),
    });
  }
  for (const e of data.edges) {
    // A kind the page does not know how to draw is left out.
    const kind = edgeKind(e.kind);
    if (!kind || e.source === e.target || !graph.hasNode(e.source) || !graph.hasNode(e.target)) continue;
    graph.addEdge(e.source, e.target, { kind, weight: e.weight > 0 ? e.weight : 0.1, from: e.source, to: e.target });
  }
  return graph;
}

/** Positions of every node, to carry over when the graph is rebuilt. */
export function positionsOf(graph: LoomGraph): Map<string, Position> {
  const out = new Map<string, Position>();
  graph.forEachNode((id, a) => out.set(id, { x: a.x, y: a.y }));
  return out;
}

/** The node's neighbours (any direction, any kind). */
export function neighbourSet(graph: LoomGraph, id: string | null): Set<string> {
  const out = new Set<string>();
  if (!id || !graph.hasNode(id)) return out;
  graph.forEachNeighbor(id, (n) => out.add(n));
  return out;
}
