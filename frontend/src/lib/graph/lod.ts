// Levels of detail: what the graph draws at the camera's zoom. Zoomed out a
// big library shows its clusters (super-nodes and their strongest links);
// closer in, the concepts; closer still, the sections. A cluster the person
// expanded shows all of its members at any zoom, one they collapsed only its
// super-node. The selection, the question's focus and the search bring
// their nodes in whatever the level. Pure functions over typed arrays
// indexed by NodeAttrs.i, so the renderer restyles only what changed.

/** 0: clusters; 1: concepts; 2: concepts and sections. */
export type Level = 0 | 1 | 2;

export interface LodCounts {
  concepts: number;
  sections: number;
  /** Clusters with a super-node (0: level 0 does not exist). */
  clusters: number;
}

/** How many concepts and sections may be on screen at once before the level steps down. */
export interface LodBudget {
  concepts: number;
  sections: number;
}

/** The share of the graph a camera ratio shows (1: all of it; sigma's ratio < 1 zooms in). */
export function visibleShare(ratio: number): number {
  if (!Number.isFinite(ratio) || ratio <= 0) return 1;
  return Math.min(1, ratio * ratio);
}

/**
 * Budgets for a stage of this size: 150 concepts and 300 sections on a
 * 1000×700 stage or a smaller one, in proportion to the area on a bigger one.
 * detail (0 … 1, the person's "detail" setting; 0.5 by default) scales them
 * from a quarter to four times.
 */
export function budgetFor(width: number, height: number, detail = 0.5): LodBudget {
  const area = Math.max(1, (Math.max(1, width) * Math.max(1, height)) / (1000 * 700));
  const k = area * 4 ** (2 * Math.min(1, Math.max(0, detail)) - 1);
  return { concepts: Math.round(150 * k), sections: Math.round(300 * k) };
}

/** Hysteresis: a level, once reached, holds until its count is this much over budget. */
export const HOLD = 1.3;

/**
 * The level for a camera ratio: the most detail whose nodes on screen stay
 * within the budget. previous (the level now) adds hysteresis so a zoom
 * hovering at a threshold does not flicker. Without clusters the least
 * detail is the concepts (there is nothing to draw at level 0).
 */
export function levelFor(ratio: number, counts: LodCounts, budget: LodBudget, previous: Level | null = null): Level {
  const share = visibleShare(ratio);
  const fits = (n: number, b: number, level: Level) => n * share <= b * (previous !== null && previous >= level ? HOLD : 1);
  const min: Level = counts.clusters > 0 ? 0 : 1;
  if (fits(counts.concepts, budget.concepts, 1) && fits(counts.sections, budget.sections, 2)) return 2;
  if (fits(counts.concepts, budget.concepts, 1)) return Math.max(1, min) as Level;
  return min;
}

/** The camera ratio below which a level holds (for tests and the harness: where to zoom to see it). */
export function ratioFor(level: Level, counts: LodCounts, budget: LodBudget): number {
  if (level === 0) return Infinity;
  const need = (n: number, b: number) => (n <= 0 ? Infinity : Math.sqrt(b / n));
  const c = need(counts.concepts, budget.concepts);
  return level === 1 ? c : Math.min(c, need(counts.sections, budget.sections));
}

export type ClusterMode = 'collapsed' | 'concepts' | 'full';
export type ClusterOverride = 'expanded' | 'collapsed';

/** What a cluster shows at a level, unless the person expanded or collapsed it. */
export function clusterMode(level: Level, override?: ClusterOverride): ClusterMode {
  if (override === 'expanded') return 'full';
  if (override === 'collapsed') return 'collapsed';
  return level === 0 ? 'collapsed' : level === 1 ? 'concepts' : 'full';
}

/** Node kinds as the LOD sees them. */
export const KIND_CONCEPT = 0;
export const KIND_SECTION = 1;
export const KIND_SUPER = 2;

export interface VisibilityInput {
  /** Per node (by NodeAttrs.i): KIND_CONCEPT, KIND_SECTION or KIND_SUPER. */
  kind: Uint8Array;
  /** Per node: its cluster's index, -1 for none (a super-node: its own). */
  cluster: Int32Array;
  /** Per node: 1 when the filters let it through (super-nodes: when any member does). */
  passes: Uint8Array;
  /** Per cluster: what it shows. */
  modes: readonly ClusterMode[];
  /** The level (for nodes in no cluster: concepts from level 1 on, sections at 2; at 0 when there are no clusters). */
  level: Level;
  /** Nodes shown whatever the level (selection and its neighbours, the search's matches): indices. */
  forced?: Iterable<number>;
  /**
   * When set, only these nodes show (the question's focus with the rest
   * hidden, or the search with only matches): 1 per shown node. The level
   * and the clusters do not apply; the filters still do.
   */
  only?: Uint8Array | null;
}

/**
 * Which nodes are drawn: 1 per visible node (super-nodes included), by
 * NodeAttrs.i. A node must pass the filters; then its cluster's mode (or
 * the level, for a node in no cluster) decides, unless it is forced or
 * `only` decides.
 */
export function computeVisibility(input: VisibilityInput, out?: Uint8Array): Uint8Array {
  const { kind, cluster, passes, modes, level } = input;
  const n = kind.length;
  const vis = out && out.length === n ? out : new Uint8Array(n);
  const hasClusters = modes.length > 0;
  for (let i = 0; i < n; i++) {
    if (!passes[i]) {
      vis[i] = 0;
      continue;
    }
    if (input.only) {
      vis[i] = input.only[i] && kind[i] !== KIND_SUPER ? 1 : 0;
      continue;
    }
    const c = cluster[i];
    const k = kind[i];
    if (k === KIND_SUPER) {
      vis[i] = c >= 0 && modes[c] === 'collapsed' ? 1 : 0;
    } else if (c >= 0 && c < modes.length) {
      const m = modes[c];
      vis[i] = m === 'full' || (m === 'concepts' && k === KIND_CONCEPT) ? 1 : 0;
    } else {
      // In no cluster: by the level alone (always drawn when there are no clusters at all and this is a concept).
      vis[i] = k === KIND_CONCEPT ? (level >= 1 || !hasClusters ? 1 : 0) : level >= 2 ? 1 : 0;
    }
  }
  if (input.forced && !input.only) {
    for (const i of input.forced) if (i >= 0 && i < n && passes[i] && kind[i] !== KIND_SUPER) vis[i] = 1;
  }
  return vis;
}

/** Indices whose value differs between two arrays of the same length (all of them when the lengths differ). */
export function changed(before: Uint8Array | null, after: Uint8Array): number[] {
  const out: number[] = [];
  if (!before || before.length !== after.length) {
    for (let i = 0; i < after.length; i++) out.push(i);
    return out;
  }
  for (let i = 0; i < after.length; i++) if (before[i] !== after[i]) out.push(i);
  return out;
}

/** Counts per kind of what is visible: for the page's data-* attributes and the legend. */
export function countDrawn(vis: Uint8Array, kind: Uint8Array): { nodes: number; concepts: number; sections: number; clusters: number } {
  let concepts = 0,
    sections = 0,
    clusters = 0;
  for (let i = 0; i < vis.length; i++) {
    if (!vis[i]) continue;
    if (kind[i] === KIND_CONCEPT) concepts++;
    else if (kind[i] === KIND_SECTION) sections++;
    else clusters++;
  }
  return { nodes: concepts + sections, concepts, sections, clusters };
}
