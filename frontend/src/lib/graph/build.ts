// GraphData (as the engine sends it) → a graphology graph the renderer and
// the layout work on, with cheap deterministic starting positions.
import Graph from 'graphology';
import type { EdgeKind, GraphData, GraphNode } from '../../bridge/workbench';
import { EdgeKinds } from '../../bridge/types';
import { clusterLayout, memberPositions, strongestLinks, superNodeSize, type ClusterIndex, type Disc } from './clusters';

export interface NodeAttrs {
  x: number;
  y: number;
  /** concept and content: the engine's nodes; cluster: a super-node standing for a cluster. */
  kind: 'concept' | 'content' | 'cluster';
  label: string;
  source: string;
  document: string;
  collection: string;
  tokens: number;
  pinned: boolean;
  /** Size before any styling (concept: by degree; content: by tokens, log; cluster: by members, square root). */
  baseSize: number;
  /** Lower-cased label, for search. */
  search: string;
  /** The node's position in the graph's node order (styles are kept in arrays by it). */
  i: number;
  /** Index of its cluster in the ClusterIndex (-1: none); a super-node's own cluster. */
  cluster: number;
}

/** Edge kinds as drawn: the engine's, and links between super-nodes. */
export type ViewEdgeKind = EdgeKind | 'cluster';

/**
 * Few attributes on purpose: the renderer copies them for every edge it
 * restyles (tens of thousands when the level of detail changes).
 */
export interface EdgeAttrs {
  kind: ViewEdgeKind;
  weight: number;
  /** The edge's position in the graph's edge order. */
  j: number;
  /** Its ends' NodeAttrs.i (styling need not ask the graph per edge). */
  s: number;
  t: number;
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
 * Starting positions grouped by document: each document gets a spot on a
 * sunflower spiral and its sections a small sunflower around it; concepts
 * start at the mean of the sections about them, the others on an outer ring.
 */
function documentPositions(nodes: readonly GraphNode[], edges: GraphData['edges'], rand: () => number): Map<string, Position> {
  // Documents ordered by size so the big ones sit in the middle.
  const byDoc = new Map<string, GraphNode[]>();
  for (const n of nodes) {
    if (n.kind !== 'content') continue;
    const k = docKey(n);
    let list = byDoc.get(k);
    if (!list) byDoc.set(k, (list = []));
    list.push(n);
  }
  const docs = [...byDoc.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  const meanDoc = docs.length ? nodes.length / docs.length : 1;
  const spacing = 2.2 * Math.sqrt(Math.max(1, meanDoc));

  const pos = new Map<string, Position>();
  docs.forEach(([, list], i) => {
    const r = spacing * Math.sqrt(i + 0.5);
    const cx = r * Math.cos(i * GOLDEN);
    const cy = r * Math.sin(i * GOLDEN);
    list.forEach((n, k) => {
      const lr = Math.sqrt(k + 0.5);
      pos.set(n.id, { x: cx + lr * Math.cos(k * GOLDEN), y: cy + lr * Math.sin(k * GOLDEN) });
    });
  });

  // Concepts: mean of the content about them, jittered; else an outer ring.
  const sum = new Map<string, { x: number; y: number; n: number }>();
  const kindOf = new Map<string, GraphNode['kind']>();
  for (const n of nodes) kindOf.set(n.id, n.kind);
  for (const e of edges) {
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
  for (const n of nodes) {
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
  return pos;
}

/**
 * Starting positions grouped by cluster (clusterLayout places the
 * clusters, memberPositions their members); nodes in no cluster are
 * grouped by document beside them.
 */
function clusterPositions(data: GraphData, clusters: ClusterIndex, degree: ReadonlyMap<string, number>, rand: () => number, discs: Map<string, Disc>): Map<string, Position> {
  const pos = new Map<string, Position>();
  const byId = new Map<string, GraphNode>();
  for (const n of data.nodes) byId.set(n.id, n);
  for (const c of clusters.list) {
    const disc = discs.get(c.id)!;
    const concepts = c.members.slice(0, c.concepts).sort((a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || (a < b ? -1 : 1));
    const sections = c.members.slice(c.concepts).map((id) => ({ id, document: byId.get(id)?.document ?? '' }));
    memberPositions(disc, concepts, sections, pos);
  }
  const rest = data.nodes.filter((n) => !clusters.of.has(n.id));
  if (rest.length) {
    const restIds = new Set(rest.map((n) => n.id));
    const own = documentPositions(
      rest,
      data.edges.filter((e) => restIds.has(e.source) && restIds.has(e.target)),
      rand,
    );
    // Beside the clusters, on the right.
    let right = 0,
      restLeft = Infinity,
      restRight = -Infinity;
    for (const d of discs.values()) right = Math.max(right, d.x + d.r);
    for (const p of own.values()) {
      restLeft = Math.min(restLeft, p.x);
      restRight = Math.max(restRight, p.x);
    }
    const shift = right - restLeft + 8;
    for (const [id, p] of own) pos.set(id, { x: p.x + shift, y: p.y });
  }
  return pos;
}

/**
 * Builds the graph a step at a time, so a big one can be built between
 * frames (GraphScene's progressive mode). Index space: the engine's node k
 * gets NodeAttrs.i = k (a duplicate id leaves a hole), super-node c gets
 * nodes.length + c; edge k gets EdgeAttrs.j = k, cluster link l gets
 * edges.length + l.
 *
 * Nodes whose id was laid out before (previous) keep their place; the
 * others start grouped by cluster when the engine sent clusters
 * (clusterPositions), else by document (documentPositions). Edges whose
 * ends are missing and self-loops are left out; parallel edges are kept.
 * With clusters, each cluster also gets a super-node (kind "cluster", key
 * superKey(id)) at its centre and the strongest links between clusters
 * become "cluster" edges between super-nodes.
 */
export class GraphBuilder {
  readonly graph: LoomGraph = new Graph<NodeAttrs, EdgeAttrs>({ multi: true, type: 'mixed', allowSelfLoops: false });
  /** Where each cluster starts (before any layout). */
  discs = new Map<string, Disc>();
  private readonly rand = seededRandom(0x10a3);
  private degree: Map<string, number> | null = null;
  private pos: Map<string, Position> | null = null;
  private nodeAt = 0;
  private edgeAt = 0;
  private overviewDone = false;

  constructor(
    private readonly data: GraphData,
    private readonly previous?: ReadonlyMap<string, Position>,
    private readonly clusters?: ClusterIndex,
  ) {}

  get clustered(): boolean {
    return Boolean(this.clusters && this.clusters.list.length);
  }

  /** The super-nodes (at their clusters' starting places) and the links between them: all a first picture needs. */
  overview(): void {
    if (this.overviewDone) return;
    this.overviewDone = true;
    const clusters = this.clusters;
    if (!clusters || !clusters.list.length) return;
    this.discs = clusterLayout(clusters);
    const graph = this.graph;
    const n = this.data.nodes.length;
    for (const c of clusters.list) {
      const disc = this.discs.get(c.id) ?? { x: 0, y: 0, r: 1 };
      graph.addNode(c.key, {
        x: disc.x,
        y: disc.y,
        kind: 'cluster',
        label: c.name,
        source: '',
        document: '',
        collection: '',
        tokens: 0,
        pinned: false,
        baseSize: superNodeSize(c.members.length),
        search: c.name.toLowerCase(),
        i: n + c.index,
        cluster: c.index,
      });
    }
    let l = 0;
    const m = this.data.edges.length;
    for (const link of strongestLinks(clusters.links)) {
      const a = clusters.byId.get(link.source)!;
      const b = clusters.byId.get(link.target)!;
      graph.addEdge(a.key, b.key, { kind: 'cluster', weight: link.weight, j: m + l++, s: n + a.index, t: n + b.index });
    }
  }

  /** Builds on until the deadline (performance.now()); true when the graph is complete. */
  step(deadline = Infinity): boolean {
    this.overview();
    const { data, graph } = this;
    if (!this.degree) {
      const degree = new Map<string, number>();
      for (const e of data.edges) {
        degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
        degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
      }
      this.degree = degree;
      if (performance.now() > deadline) return false;
    }
    if (!this.pos) {
      this.pos = this.clustered ? clusterPositions(data, this.clusters!, this.degree, this.rand, this.discs) : documentPositions(data.nodes, data.edges, this.rand);
      if (performance.now() > deadline) return false;
    }
    const degree = this.degree;
    const pos = this.pos;
    const nodes = data.nodes;
    while (this.nodeAt < nodes.length) {
      const k = this.nodeAt++;
      const n = nodes[k];
      if (!graph.hasNode(n.id)) {
        const p = this.previous?.get(n.id) ?? pos.get(n.id) ?? { x: (this.rand() - 0.5) * 10, y: (this.rand() - 0.5) * 10 };
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
          i: k,
          cluster: this.clusters?.of.get(n.id) ?? -1,
        });
      }
      if ((k & 1023) === 1023 && performance.now() > deadline) return false;
    }
    const edges = data.edges;
    while (this.edgeAt < edges.length) {
      const k = this.edgeAt++;
      const e = edges[k];
      // A kind the page does not know how to draw is left out.
      const kind = edgeKind(e.kind);
      if (kind && e.source !== e.target && graph.hasNode(e.source) && graph.hasNode(e.target)) {
        graph.addEdge(e.source, e.target, {
          kind,
          weight: e.weight > 0 ? e.weight : 0.1,
          j: k,
          s: graph.getNodeAttribute(e.source, 'i'),
          t: graph.getNodeAttribute(e.target, 'i'),
        });
      }
      if ((k & 2047) === 2047 && performance.now() > deadline) return false;
    }
    return true;
  }
}

/** Builds the whole graph at once (GraphBuilder, to the end). */
export function buildGraph(data: GraphData, previous?: ReadonlyMap<string, Position>, clusters?: ClusterIndex): LoomGraph {
  const b = new GraphBuilder(data, previous, clusters);
  b.step();
  return b.graph;
}

/** Positions of every node but super-nodes, to carry over when the graph is rebuilt. */
export function positionsOf(graph: LoomGraph): Map<string, Position> {
  const out = new Map<string, Position>();
  graph.forEachNode((id, a) => {
    if (a.kind !== 'cluster') out.set(id, { x: a.x, y: a.y });
  });
  return out;
}

/** The node's neighbours (any direction, any kind). */
export function neighbourSet(graph: LoomGraph, id: string | null): Set<string> {
  const out = new Set<string>();
  if (!id || !graph.hasNode(id)) return out;
  graph.forEachNeighbor(id, (n) => out.add(n));
  return out;
}
