// Clusters: the communities the engine finds in the concept graph
// (GraphData.clusters, each node's cluster), indexed for drawing: which
// nodes are in which cluster, the palette they are coloured from, where
// clusters start on the stage and where their members start around them,
// their centres and reach once laid out, the links worth drawing between
// them, and cluster scopes for questions ("cluster:ID"). Pure functions.
import type { ClusterLink, GraphCluster, GraphData } from '../../bridge/workbench';

/** How many colours the cluster palette has (GraphCluster.colour indexes it). */
export const CLUSTER_PALETTE_SIZE = 12;

/**
 * Twelve hues per theme, each at least 3:1 against the theme's background
 * (checked in the tests), distinct from one another, and darker in the
 * light theme, lighter in the dark one.
 */
const LIGHT_PALETTE = [
  '#2f6db5', '#c8511b', '#b8323f', '#1f8a85', '#3d8a37', '#8f7208',
  '#8a4f9e', '#c2457a', '#7a5a3a', '#5460b8', '#0f7c9e', '#66741c',
];
const DARK_PALETTE = [
  '#6ea8fe', '#ff9a5c', '#ff7a85', '#5ed1c8', '#7ed67a', '#e8c547',
  '#c89bf0', '#ff8fc0', '#d1a67a', '#9aa8ff', '#4fc3e8', '#b8c95a',
];

export function clusterPalette(dark: boolean): readonly string[] {
  return dark ? DARK_PALETTE : LIGHT_PALETTE;
}

/** A cluster's colour: its palette index, wrapped (a bad index gets the first). */
export function clusterColour(colour: number, dark: boolean): string {
  const p = clusterPalette(dark);
  const i = Number.isFinite(colour) ? ((Math.trunc(colour) % p.length) + p.length) % p.length : 0;
  return p[i];
}

/** The key a cluster's super-node has in the drawn graph (node ids have no "@"). */
export function superKey(clusterId: string): string {
  return `@${clusterId}`;
}

export function isSuperKey(key: string): boolean {
  return key.startsWith('@');
}

export function clusterOfSuperKey(key: string): string {
  return key.slice(1);
}

/** A question scoped to a cluster's members (QueryRequest.scope). */
export function clusterScope(clusterId: string): string {
  return `cluster:${clusterId}`;
}

/** The cluster a scope names, or null for a collection (or all). */
export function scopeCluster(scope: string): string | null {
  return scope.startsWith('cluster:') ? scope.slice('cluster:'.length) : null;
}

export interface ClusterInfo {
  /** Position in ClusterIndex.list (largest first, as the engine sends them). */
  index: number;
  id: string;
  key: string;
  name: string;
  colour: number;
  /** Members present in the graph: concepts first, then sections. */
  members: string[];
  concepts: number;
  sections: number;
  /** Documents of its sections (ids, as GraphNode.document). */
  documents: Set<string>;
  /** Its most central concepts present in the graph, best first. */
  top: string[];
}

export interface ClusterIndex {
  list: ClusterInfo[];
  byId: Map<string, ClusterInfo>;
  /** Node id → index of its cluster in list. */
  of: Map<string, number>;
  /** Links whose ends are both clusters here (strongest first). */
  links: ClusterLink[];
  /** Nodes in no cluster. */
  unclustered: number;
}

/**
 * Indexes the clusters the engine sent. Tolerant: a node naming a cluster
 * that is not listed counts as unclustered; a cluster without members
 * present is left out; a cluster without a name is named after its top
 * concepts (or its id).
 */
export function indexClusters(data: GraphData): ClusterIndex {
  const raw: GraphCluster[] = data.clusters ?? [];
  const label = new Map<string, string>();
  for (const n of data.nodes) label.set(n.id, n.label);
  const members = new Map<string, { concepts: string[]; sections: string[]; docs: Set<string> }>();
  for (const c of raw) if (!members.has(c.id)) members.set(c.id, { concepts: [], sections: [], docs: new Set() });
  let unclustered = 0;
  for (const n of data.nodes) {
    const m = n.cluster ? members.get(n.cluster) : undefined;
    if (!m) {
      unclustered++;
      continue;
    }
    if (n.kind === 'concept') m.concepts.push(n.id);
    else {
      m.sections.push(n.id);
      if (n.document) m.docs.add(n.document);
    }
  }
  const list: ClusterInfo[] = [];
  const seen = new Set<string>();
  for (const c of raw) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    const m = members.get(c.id)!;
    if (m.concepts.length + m.sections.length === 0) continue;
    const top = [...new Set(c.top ?? [])].filter((id) => label.has(id));
    if (!top.length && m.concepts.length) top.push(m.concepts[0]);
    const name = c.name?.trim() || top.slice(0, 2).map((id) => label.get(id)!).join(' · ') || c.id;
    list.push({
      index: list.length,
      id: c.id,
      key: superKey(c.id),
      name,
      colour: c.colour,
      members: [...m.concepts, ...m.sections],
      concepts: m.concepts.length,
      sections: m.sections.length,
      documents: m.docs,
      top,
    });
  }
  // A node whose cluster was dropped (no members? impossible) or unknown: unclustered (counted above).
  const byId = new Map(list.map((c) => [c.id, c]));
  const of = new Map<string, number>();
  for (const c of list) for (const id of c.members) of.set(id, c.index);
  const links = (data.clusterLinks ?? [])
    .filter((l) => l.source !== l.target && byId.has(l.source) && byId.has(l.target))
    .sort((a, b) => b.weight - a.weight);
  return { list, byId, of, links, unclustered };
}

/**
 * The links worth drawing between super-nodes: each cluster's `perCluster`
 * strongest, and the `overall` strongest of all, without duplicates,
 * strongest first.
 */
export function strongestLinks(links: readonly ClusterLink[], perCluster = 3, overall = 60): ClusterLink[] {
  const sorted = [...links].sort((a, b) => b.weight - a.weight);
  const keep = new Set<ClusterLink>(sorted.slice(0, overall));
  const count = new Map<string, number>();
  for (const l of sorted) {
    const a = count.get(l.source) ?? 0;
    const b = count.get(l.target) ?? 0;
    if (a < perCluster || b < perCluster) keep.add(l);
    count.set(l.source, a + 1);
    count.set(l.target, b + 1);
  }
  return sorted.filter((l) => keep.has(l));
}

/** A super-node's size: grows with the square root of its members (6 … 40). */
export function superNodeSize(members: number): number {
  return Math.min(40, 6 + 1.15 * Math.sqrt(Math.max(0, members)));
}

export interface Disc {
  x: number;
  y: number;
  r: number;
}

/** How much room a cluster of this many members takes (graph units, as buildGraph spaces nodes). */
export function clusterRadius(members: number): number {
  return 1.6 * Math.sqrt(Math.max(1, members)) + 2;
}

/**
 * Where each cluster starts: the largest in the middle, the rest on a
 * sunflower around it; then linked clusters are pulled together and
 * overlapping ones pushed apart for a few rounds. Deterministic.
 */
export function clusterLayout(index: ClusterIndex): Map<string, Disc> {
  const GOLDEN = Math.PI * (3 - Math.sqrt(5));
  const n = index.list.length;
  const out = new Map<string, Disc>();
  if (!n) return out;
  const r = index.list.map((c) => clusterRadius(c.members.length));
  const meanR = r.reduce((a, b) => a + b, 0) / n;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = 2.2 * meanR * Math.sqrt(i);
    x[i] = d * Math.cos(i * GOLDEN);
    y[i] = d * Math.sin(i * GOLDEN);
  }
  const links = index.links.map((l) => ({ a: index.byId.get(l.source)!.index, b: index.byId.get(l.target)!.index, w: l.weight }));
  const maxW = Math.max(1e-9, ...links.map((l) => l.w));
  const rounds = n > 300 ? 30 : n > 100 ? 60 : 120;
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  for (let round = 0; round < rounds; round++) {
    dx.fill(0);
    dy.fill(0);
    const cool = 1 - round / rounds;
    // Links pull their clusters towards touching.
    for (const l of links) {
      const vx = x[l.b] - x[l.a];
      const vy = y[l.b] - y[l.a];
      const d = Math.hypot(vx, vy) || 1e-9;
      const want = r[l.a] + r[l.b] + meanR * 0.3;
      if (d <= want) continue;
      const f = ((d - want) / d) * 0.08 * (0.3 + 0.7 * (l.w / maxW));
      dx[l.a] += vx * f;
      dy[l.a] += vy * f;
      dx[l.b] -= vx * f;
      dy[l.b] -= vy * f;
    }
    // Gravity keeps the stray ones near.
    for (let i = 0; i < n; i++) {
      dx[i] -= x[i] * 0.01;
      dy[i] -= y[i] * 0.01;
    }
    for (let i = 0; i < n; i++) {
      x[i] += dx[i] * cool;
      y[i] += dy[i] * cool;
    }
    // Overlaps are resolved in full every round.
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const vx = x[j] - x[i];
        const vy = y[j] - y[i];
        const want = r[i] + r[j] + meanR * 0.25;
        const d2 = vx * vx + vy * vy;
        if (d2 >= want * want) continue;
        const d = Math.sqrt(d2) || 1e-6;
        const push = (want - d) / 2;
        const ux = d2 ? vx / d : Math.cos(i + j);
        const uy = d2 ? vy / d : Math.sin(i + j);
        // The bigger cluster moves less.
        const wi = r[j] / (r[i] + r[j]);
        x[i] -= ux * push * 2 * wi;
        y[i] -= uy * push * 2 * wi;
        x[j] += ux * push * 2 * (1 - wi);
        y[j] += uy * push * 2 * (1 - wi);
      }
    }
  }
  index.list.forEach((c, i) => out.set(c.id, { x: x[i], y: y[i], r: r[i] }));
  return out;
}

/**
 * Starting positions of a cluster's members inside its disc: concepts in
 * the middle (the most central first), sections around them, each
 * document's sections in a sector of their own so they stay together.
 */
export function memberPositions(
  disc: Disc,
  concepts: readonly string[],
  sections: readonly { id: string; document: string }[],
  out: Map<string, { x: number; y: number }>,
): void {
  const GOLDEN = Math.PI * (3 - Math.sqrt(5));
  const total = concepts.length + sections.length;
  if (!total) return;
  const inner = disc.r * Math.sqrt(concepts.length / total) * 0.85;
  concepts.forEach((id, k) => {
    const d = concepts.length > 1 ? inner * Math.sqrt((k + 0.5) / concepts.length) : 0;
    out.set(id, { x: disc.x + d * Math.cos(k * GOLDEN), y: disc.y + d * Math.sin(k * GOLDEN) });
  });
  if (!sections.length) return;
  const byDoc = new Map<string, string[]>();
  for (const s of sections) {
    let l = byDoc.get(s.document);
    if (!l) byDoc.set(s.document, (l = []));
    l.push(s.id);
  }
  const r0 = Math.max(inner + 1, disc.r * 0.25);
  const r1 = Math.max(r0 + 1, disc.r);
  let angle = 0;
  for (const ids of byDoc.values()) {
    const span = (2 * Math.PI * ids.length) / sections.length;
    ids.forEach((id, k) => {
      const f = (k + 0.5) / ids.length;
      const d = Math.sqrt(r0 * r0 + f * (r1 * r1 - r0 * r0));
      const a = angle + span * ((k * 0.618034) % 1);
      out.set(id, { x: disc.x + d * Math.cos(a), y: disc.y + d * Math.sin(a) });
    });
    angle += span;
  }
}

/**
 * Each cluster's centre (the mean of its members' positions) and reach
 * (the distance within which three quarters of them lie), from where they are now.
 */
export function clusterDiscs(index: ClusterIndex, position: (id: string) => { x: number; y: number } | undefined): Map<string, Disc> {
  const out = new Map<string, Disc>();
  for (const c of index.list) {
    let sx = 0,
      sy = 0,
      n = 0;
    for (const id of c.members) {
      const p = position(id);
      if (!p) continue;
      sx += p.x;
      sy += p.y;
      n++;
    }
    if (!n) continue;
    const cx = sx / n;
    const cy = sy / n;
    const d: number[] = [];
    for (const id of c.members) {
      const p = position(id);
      if (p) d.push(Math.hypot(p.x - cx, p.y - cy));
    }
    d.sort((a, b) => a - b);
    out.set(c.id, { x: cx, y: cy, r: d[Math.min(d.length - 1, Math.floor(d.length * 0.75))] ?? 0 });
  }
  return out;
}

/** Documents with a section in any of the given clusters. */
export function documentsOfClusters(index: ClusterIndex, clusterIds: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const id of clusterIds) for (const d of index.byId.get(id)?.documents ?? []) out.add(d);
  return out;
}
