// The question's neighbourhood: after a question, the seed concepts, the
// nodes it loaded, the relevant ones it did not load, and the shortest paths
// from the seeds to them, in rings by the number of steps from the nearest
// seed. The focused view draws only these (the rest faded or hidden), laid
// out in concentric rings, and steps through them one ring at a time.
import type { LoomGraph } from './build';
import type { QueryView } from './hops';

export interface FocusView {
  /** Ring of every node in the focus: steps from the nearest seed along the graph's edges (seeds: 0). */
  ring: Map<string, number>;
  /** The node one step nearer a seed on the path that brought each node in (seeds and unlinked: none). */
  parent: Map<string, string>;
  /** The outermost ring (unlinked targets, if any, are in it). */
  maxRing: number;
  seeds: string[];
  loaded: string[];
  relevant: string[];
  /** Loaded or relevant nodes no path from a seed reaches (within maxDepth): in the outermost ring. */
  unlinked: string[];
  /** Nodes per ring, 0 … maxRing. */
  perRing: number[];
}

export interface FocusOptions {
  /** Steps the search goes from the seeds (default 8). */
  maxDepth?: number;
  /** Which edges paths may take (default: all but links between super-nodes). */
  edgeOk?: (kind: string) => boolean;
}

/**
 * Builds the focus: a breadth-first search from the seeds (the query's seed
 * concepts and any concept at hop 0) over the graph, undirected; every
 * loaded or relevant candidate found brings the path back to its seed.
 */
export function makeFocus(graph: LoomGraph, query: QueryView, seedIds: readonly string[], opts: FocusOptions = {}): FocusView {
  const maxDepth = opts.maxDepth ?? 8;
  const edgeOk = opts.edgeOk ?? ((k: string) => k !== 'cluster');
  const seeds = new Set<string>();
  for (const id of seedIds) if (graph.hasNode(id) && graph.getNodeAttribute(id, 'kind') !== 'cluster') seeds.add(id);
  for (const [id, h] of query.hops) if (h === 0 && graph.hasNode(id) && graph.getNodeAttribute(id, 'kind') === 'concept') seeds.add(id);

  const loaded: string[] = [];
  const relevant: string[] = [];
  for (const [id, c] of query.candidates) {
    if (!graph.hasNode(id)) continue;
    if (c.loaded) loaded.push(id);
    else if (c.relevant) relevant.push(id);
  }
  loaded.sort();
  relevant.sort();
  const targets = new Set([...loaded, ...relevant]);

  // Breadth-first from every seed at once; stops once every target is found.
  const dist = new Map<string, number>();
  const parent = new Map<string, string>();
  let frontier = [...seeds].sort();
  for (const s of frontier) dist.set(s, 0);
  let found = 0;
  for (const t of targets) if (dist.has(t)) found++;
  for (let d = 1; d <= maxDepth && frontier.length && found < targets.size; d++) {
    const next: string[] = [];
    for (const id of frontier) {
      graph.forEachEdge(id, (_e, a, source, target) => {
        if (!edgeOk(a.kind)) return;
        const other = source === id ? target : source;
        if (dist.has(other)) return;
        dist.set(other, d);
        parent.set(other, id);
        next.push(other);
        if (targets.has(other)) found++;
      });
    }
    frontier = next;
  }

  const ring = new Map<string, number>();
  const keptParent = new Map<string, string>();
  for (const s of seeds) ring.set(s, 0);
  const unlinked: string[] = [];
  for (const t of targets) {
    if (!dist.has(t)) {
      unlinked.push(t);
      continue;
    }
    // The path back to its seed.
    let id = t;
    while (!ring.has(id) || id === t) {
      ring.set(id, dist.get(id)!);
      const p = parent.get(id);
      if (p === undefined) break;
      keptParent.set(id, p);
      id = p;
    }
  }
  let maxRing = 0;
  for (const r of ring.values()) maxRing = Math.max(maxRing, r);
  if (unlinked.length) {
    maxRing++;
    for (const t of unlinked) ring.set(t, maxRing);
  }
  const perRing = new Array<number>(maxRing + 1).fill(0);
  for (const r of ring.values()) perRing[r]++;
  return { ring, parent: keptParent, maxRing, seeds: [...seeds].sort(), loaded, relevant, unlinked: unlinked.sort(), perRing };
}

/** The nodes shown when the stepper is at `step`: rings 0 … step. */
export function nodesUpTo(focus: FocusView, step: number): Set<string> {
  const out = new Set<string>();
  for (const [id, r] of focus.ring) if (r <= step) out.add(id);
  return out;
}

export interface RingLayout {
  positions: Map<string, { x: number; y: number }>;
  centre: { x: number; y: number };
  /** Each ring's radius (the middle of its band), 0 … maxRing. */
  radii: number[];
}

/**
 * Concentric rings around `centre`: the seeds in the middle, then each ring
 * in a band of circles of its own, outwards; nodes sit `unit` apart along
 * a circle and circles `unit` apart, so none overlaps however many a ring
 * holds. A ring's nodes follow their parents' angles, so paths run outwards
 * without crossing much.
 */
export function ringLayout(focus: FocusView, centre: { x: number; y: number }, unit: number): RingLayout {
  const positions = new Map<string, { x: number; y: number }>();
  const angle = new Map<string, number>();
  const radii: number[] = [];
  const byRing: string[][] = Array.from({ length: focus.maxRing + 1 }, () => []);
  for (const [id, r] of focus.ring) byRing[r].push(id);
  let edge = 0; // the outermost circle used so far
  for (let r = 0; r <= focus.maxRing; r++) {
    const ids = byRing[r];
    if (!ids.length) {
      radii.push(edge + unit);
      edge += unit;
      continue;
    }
    ids.sort((a, b) => {
      const pa = angle.get(focus.parent.get(a) ?? '') ?? Infinity;
      const pb = angle.get(focus.parent.get(b) ?? '') ?? Infinity;
      return pa - pb || (a < b ? -1 : a > b ? 1 : 0);
    });
    if (r === 0 && ids.length === 1) {
      positions.set(ids[0], { ...centre });
      angle.set(ids[0], -Math.PI / 2);
      radii.push(0);
      edge = unit;
      continue;
    }
    // The band's circles, each holding as many as fit at `unit` apart.
    let radius = r === 0 ? Math.max(unit, (ids.length * unit) / (2 * Math.PI)) : edge + 2 * unit;
    const first = radius;
    let k = 0;
    while (k < ids.length) {
      const room = Math.max(1, Math.floor((2 * Math.PI * radius) / unit));
      const take = Math.min(room, ids.length - k);
      const start = angle.get(focus.parent.get(ids[k]) ?? '') ?? -Math.PI / 2;
      for (let q = 0; q < take; q++) {
        const id = ids[k + q];
        const a = start + (2 * Math.PI * q) / take;
        angle.set(id, a);
        positions.set(id, { x: centre.x + radius * Math.cos(a), y: centre.y + radius * Math.sin(a) });
      }
      k += take;
      if (k < ids.length) radius += unit;
    }
    radii.push((first + radius) / 2);
    edge = radius;
  }
  return { positions, centre: { ...centre }, radii };
}
