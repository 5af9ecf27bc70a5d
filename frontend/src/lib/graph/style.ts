// What each node and edge looks like given the theme, the query, the
// selection, the hovered node, the search and the filters. Pure functions:
// the renderer calls them from sigma's reducers, the tests call them directly.
import type { EdgeAttrs, LoomGraph, NodeAttrs, ViewEdgeKind } from './build';
import { clusterColour } from './clusters';
import { mix } from './colour';
import { edgeVisible, nodeVisible, type Filters } from './filter';
import { hopBucket, type QueryView } from './hops';
import type { GraphTheme } from './theme';

/** The node program every node is drawn with (see ring-program.ts). */
export const NODE_TYPE = 'ring';

export interface NodeStyle {
  x: number;
  y: number;
  label: string | null;
  size: number;
  color: string;
  hidden: boolean;
  forceLabel: boolean;
  highlighted: boolean;
  zIndex: number;
  type: string;
  /** Ring drawn inside the node's edge; ringWidth is a share of the radius (0: none). */
  ringColor: string;
  ringWidth: number;
  ringDashed: boolean;
  /** What the node is, for tests and the tooltip: "loaded", "relevant", "dimmed" or "". */
  state: '' | 'loaded' | 'relevant' | 'dimmed';
  /** Label priority for the label layer: higher is placed first (0: no label unless room). */
  priority: number;
}

export interface EdgeStyle {
  color: string;
  size: number;
  hidden: boolean;
  zIndex: number;
}

export interface StyleState {
  theme: GraphTheme;
  filters: Filters;
  query: QueryView | null;
  selected: string | null;
  hovered: string | null;
  /** The selected node and its neighbours (everything else dims); null without a selection. */
  focus: Set<string> | null;
  /** Whether the focus is small enough to label every node in it. */
  labelFocus: boolean;
  /**
   * The hovered node's neighbours. Hover only lifts them (nothing else
   * changes), so a hover repaints just that neighbourhood.
   */
  hoverNeighbours: Set<string> | null;
  labelHover: boolean;
  /** Search matches; null when there is no search. */
  matches: Set<string> | null;
  labelMatches: boolean;
  /** Base opacity of edges (lower for big graphs so they do not drown the nodes). */
  edgeAlpha: number;
  /** Node sizes are scaled down as the graph grows. */
  sizeScale: number;
  /** Edge colours per kind and emphasis, built once per state. */
  edgeColours: Record<ViewEdgeKind, { base: string; faded: string; focus: string; faint: string }>;
  /**
   * What is drawn, by NodeAttrs.i (the filters and the levels of detail,
   * lod.ts); null: every node the kind toggles and the search let through.
   */
  visible: Uint8Array | null;
  /** Each cluster's colour, by cluster index (empty: no clusters). */
  clusterColours: string[];
  /** The question's focused view: each node's ring; null when it is off. */
  rings: Map<string, number> | null;
  /** The heaviest link between clusters (cluster edges are drawn in proportion). */
  clusterWeightMax: number;
}

const FORCE_LABEL_LIMIT = 40;

/** Fewer, fainter edges read better as the graph grows. */
export function edgeAlphaFor(edgeCount: number): number {
  if (edgeCount <= 2000) return 0.55;
  if (edgeCount <= 10000) return 0.4;
  return 0.3;
}

/** Nodes shrink as the graph grows (1 up to 500 nodes, about 0.45 at 10,000). */
export function sizeScaleFor(order: number): number {
  if (order <= 500) return 1;
  return Math.max(0.35, (500 / order) ** 0.27);
}

const FOCUS_ALPHA = 0.95;
const FAINT_ALPHA = 0.05;

/**
 * Edge colours are opaque, blended with the background by hand: sigma's
 * WebGL blending expects premultiplied colours, so translucent edges would
 * add up to white where they crowd.
 */
function edgeColoursFor(theme: GraphTheme, alpha: number, fade: number): StyleState['edgeColours'] {
  const out = {} as StyleState['edgeColours'];
  const over = (c: string, a: number) => mix(theme.bg, c, a);
  const colours: Record<ViewEdgeKind, string> = { ...theme.edges, cluster: theme.muted };
  for (const kind of Object.keys(colours) as ViewEdgeKind[]) {
    const c = colours[kind];
    out[kind] = {
      base: over(c, alpha),
      faded: over(c, alpha * fade),
      focus: over(c, FOCUS_ALPHA),
      faint: over(c, Math.min(alpha, FAINT_ALPHA)),
    };
  }
  return out;
}

export function makeStyleState(args: {
  graph: LoomGraph;
  theme: GraphTheme;
  filters: Filters;
  query: QueryView | null;
  selected: string | null;
  hovered: string | null;
  matches: Set<string> | null;
  visible?: Uint8Array | null;
  /** GraphCluster.colour of each cluster, by cluster index. */
  clusterColours?: readonly number[];
  rings?: Map<string, number> | null;
  clusterWeightMax?: number;
}): StyleState {
  const { graph, selected, hovered } = args;
  const sel = selected && graph.hasNode(selected) ? selected : null;
  const hov = hovered && graph.hasNode(hovered) ? hovered : null;
  let focus: Set<string> | null = null;
  if (sel) {
    focus = new Set<string>([sel]);
    graph.forEachNeighbor(sel, (n) => focus!.add(n));
  }
  let hoverNeighbours: Set<string> | null = null;
  if (hov) {
    hoverNeighbours = new Set<string>();
    graph.forEachNeighbor(hov, (n) => hoverNeighbours!.add(n));
  }
  const edgeAlpha = edgeAlphaFor(graph.size);
  return {
    theme: args.theme,
    filters: args.filters,
    query: args.query,
    selected: sel,
    hovered: hov,
    focus,
    labelFocus: focus !== null && focus.size - 1 <= FORCE_LABEL_LIMIT,
    hoverNeighbours,
    labelHover: hoverNeighbours !== null && hoverNeighbours.size <= FORCE_LABEL_LIMIT,
    matches: args.matches,
    labelMatches: args.matches !== null && args.matches.size <= FORCE_LABEL_LIMIT,
    edgeAlpha,
    sizeScale: sizeScaleFor(graph.order),
    edgeColours: edgeColoursFor(args.theme, edgeAlpha, args.matches ? 0.25 : 0.35),
    visible: args.visible ?? null,
    clusterColours: (args.clusterColours ?? []).map((c) => clusterColour(c, args.theme.dark)),
    rings: args.rings ?? null,
    clusterWeightMax: args.clusterWeightMax ?? 1,
  };
}

/**
 * Fill colour without query: concepts in their cluster's colour (the
 * accent without clusters), sections from the input in a grey tinted by
 * their cluster, outputs and analyses by source; super-nodes in their
 * cluster's colour.
 */
export function baseColour(a: NodeAttrs, theme: GraphTheme, clusterColours: readonly string[] = []): string {
  const cc = a.cluster >= 0 ? clusterColours[a.cluster] : undefined;
  if (a.kind === 'concept' || a.kind === 'cluster') return cc ?? theme.accent;
  if (a.source === 'output') return theme.content.output;
  if (a.source === 'analysis') return theme.content.analysis;
  return cc ? mix(theme.content.input, cc, 0.45) : theme.content.input;
}

/** Label priorities: what the label layer places first. */
export const PRIORITY = { selected: 100, forced: 80, cluster: 60, concept: 30, section: 10 } as const;

/** Fill colour by hop distance (unreachable: faint). */
export function hopColour(h: number | undefined, theme: GraphTheme): string {
  const b = hopBucket(h);
  return b < 0 ? theme.faint : theme.hops[b];
}

/** Fills `into` when given (no allocation: the scene compares it with the style it had, and copies it only when it changed). */
export function nodeStyle(id: string, a: NodeAttrs, s: StyleState, into?: NodeStyle): NodeStyle {
  const { theme } = s;
  const hidden = s.visible ? !s.visible[a.i] : !nodeVisible(id, a, s.filters, s.matches);
  if (a.kind === 'cluster') {
    const colour = baseColour(a, theme, s.clusterColours);
    const lifted = s.hovered === id;
    return Object.assign(into ?? ({} as NodeStyle), {
      x: a.x,
      y: a.y,
      label: a.label,
      size: a.baseSize * (lifted ? 1.12 : 1),
      color: s.query ? mix(colour, theme.bg, 0.55) : colour,
      hidden,
      forceLabel: false,
      highlighted: lifted,
      zIndex: 2,
      type: NODE_TYPE,
      ringColor: mix(colour, theme.text, 0.4),
      ringWidth: 0.18,
      ringDashed: false,
      state: '',
      priority: PRIORITY.cluster,
    });
  }
  const out: NodeStyle = into ?? ({} as NodeStyle);
  Object.assign(out, {
    x: a.x,
    y: a.y,
    label: a.label,
    size: Math.max(a.kind === 'concept' ? 2.5 : 1, a.baseSize * s.sizeScale),
    color: baseColour(a, theme, s.clusterColours),
    hidden,
    forceLabel: false,
    highlighted: false,
    zIndex: a.kind === 'concept' ? 1 : 0,
    type: NODE_TYPE,
    ringColor: theme.pinned,
    ringWidth: a.pinned ? 0.3 : 0,
    ringDashed: false,
    state: '',
    priority: a.kind === 'concept' ? PRIORITY.concept : PRIORITY.section,
  });

  if (s.query) {
    const ring = s.rings?.get(id);
    const h = s.rings ? ring : s.query.hops.get(id);
    out.color = hopColour(h, theme);
    const c = s.query.candidates.get(id);
    if (s.rings && ring === undefined) {
      // Outside the question's focus: only a trace of it.
      out.state = 'dimmed';
      out.color = mix(theme.faint, theme.bg, 0.55);
      out.label = null;
      out.ringWidth = 0;
      out.size *= 0.8;
      out.priority = 0;
    } else if (c?.loaded) {
      out.state = 'loaded';
      out.ringColor = theme.loaded;
      out.ringWidth = 0.42;
      out.size = Math.max(out.size * 1.6, 5);
      out.zIndex = 3;
      out.priority = PRIORITY.forced;
    } else if (c?.relevant) {
      out.state = 'relevant';
      out.ringColor = theme.relevant;
      out.ringWidth = 0.34;
      out.ringDashed = true;
      out.size = Math.max(out.size * 1.3, 4);
      out.zIndex = 2;
      out.priority = PRIORITY.forced - 5;
    } else if (!(a.kind === 'concept' && (s.rings ? ring === 0 : h === 0))) {
      // Seed concepts stay bright; everything else steps back (in the focused view, less).
      if (!s.rings) {
        out.state = 'dimmed';
        out.color = mix(out.color, theme.bg, 0.45);
      }
      if (a.kind === 'content') out.size *= 0.85;
    } else {
      out.zIndex = 3;
      out.forceLabel = true;
      out.priority = PRIORITY.forced + 5;
    }
  }

  // The colour before search and selection dim it (hover lifts it back).
  const lit = out.color;
  const litRing = out.ringWidth;

  if (s.matches) {
    if (s.matches.has(id)) {
      out.zIndex = Math.max(out.zIndex, 4);
      out.priority = Math.max(out.priority, PRIORITY.forced - 10);
      if (s.labelMatches) out.forceLabel = true;
    } else {
      out.color = mix(out.color, theme.bg, 0.8);
      out.label = null;
      out.ringWidth = 0;
      out.forceLabel = false;
      out.priority = 0;
    }
  }

  if (s.focus) {
    if (s.focus.has(id)) {
      out.zIndex = 5;
      out.priority = Math.max(out.priority, PRIORITY.forced);
      if (s.labelFocus) out.forceLabel = true;
      if (id === s.selected) {
        out.highlighted = true;
        out.forceLabel = true;
        out.zIndex = 6;
        out.size = Math.max(out.size * 1.3, 5);
        out.priority = PRIORITY.selected;
      }
    } else {
      out.color = mix(out.color, theme.bg, 0.82);
      out.label = null;
      out.forceLabel = false;
      out.ringWidth = 0;
      out.zIndex = 0;
      out.priority = 0;
    }
  }

  if (s.hovered === id || s.hoverNeighbours?.has(id)) {
    out.color = lit;
    out.ringWidth = litRing;
    out.label = a.label;
    out.zIndex = Math.max(out.zIndex, 5);
    out.priority = Math.max(out.priority, PRIORITY.forced);
    if (s.hovered === id) {
      out.highlighted = true;
      out.forceLabel = true;
      out.size = Math.max(out.size * 1.3, 5);
    } else if (s.labelHover) {
      out.forceLabel = true;
    }
  }
  return out;
}

/** Whether two node styles draw the same (positions aside): restyling repaints only nodes whose style changed. */
export function sameNodeStyle(a: NodeStyle, b: NodeStyle): boolean {
  return (
    a.hidden === b.hidden &&
    a.color === b.color &&
    a.size === b.size &&
    a.label === b.label &&
    a.forceLabel === b.forceLabel &&
    a.highlighted === b.highlighted &&
    a.zIndex === b.zIndex &&
    a.ringColor === b.ringColor &&
    a.ringWidth === b.ringWidth &&
    a.ringDashed === b.ringDashed &&
    a.priority === b.priority
  );
}

export function sameEdgeStyle(a: EdgeStyle, b: EdgeStyle): boolean {
  return a.hidden === b.hidden && a.color === b.color && a.size === b.size && a.zIndex === b.zIndex;
}

function queryAnchor(id: string, q: QueryView): boolean {
  const c = q.candidates.get(id);
  return (c !== undefined && (c.loaded || c.relevant)) || q.hops.get(id) === 0;
}

const EDGE_SIZE: Record<ViewEdgeKind, number> = { about: 0.6, related: 0.9, parent: 0.7, links: 0.8, derived: 1, calls: 0.7, imports: 0.6, implements: 0.9, cluster: 1 };

export function edgeStyle(a: EdgeAttrs, source: string, target: string, s: StyleState, into?: EdgeStyle): EdgeStyle {
  const out = into ?? ({} as EdgeStyle);
  const colours = s.edgeColours[a.kind] ?? s.edgeColours.parent;
  const endsShown = !s.visible || (s.visible[a.s] === 1 && s.visible[a.t] === 1);
  if (a.kind === 'cluster') {
    // Links between super-nodes: thicker and darker as they are stronger.
    const w = Math.min(1, a.weight / Math.max(1e-9, s.clusterWeightMax));
    const lifted = source === s.hovered || target === s.hovered;
    out.color = lifted ? colours.focus : mix(s.theme.bg, s.theme.muted, 0.25 + 0.45 * Math.sqrt(w));
    out.size = (1 + 4 * Math.sqrt(w)) * (lifted ? 1.4 : 1);
    out.hidden = !endsShown;
    out.zIndex = lifted ? 2 : 1;
    return out;
  }
  let colour = colours.base;
  let size = EDGE_SIZE[a.kind] ?? 0.7;
  let zIndex = 0;
  if (source === s.hovered || target === s.hovered) {
    colour = colours.focus;
    size *= 2.2;
    zIndex = 2;
  } else if (s.focus) {
    if (source === s.selected || target === s.selected) {
      colour = colours.focus;
      size *= 2.2;
      zIndex = 2;
    } else {
      colour = colours.faint;
    }
  } else if (s.matches) {
    if (!s.matches.has(source) && !s.matches.has(target)) colour = colours.faded;
  } else if (s.query && s.rings) {
    // The focused view: its paths stand out, the rest is a trace.
    if (s.rings.has(source) && s.rings.has(target)) {
      colour = colours.focus;
      size *= 1.5;
      zIndex = 1;
    } else colour = colours.faint;
  } else if (s.query) {
    // After a query only the edges at what it loaded, found relevant or
    // started from keep their colour; the rest step back with the nodes.
    if (!queryAnchor(source, s.query) && !queryAnchor(target, s.query)) colour = colours.faded;
  }
  out.color = colour;
  out.size = size;
  out.hidden = !edgeVisible(a, s.filters) || !endsShown;
  out.zIndex = zIndex;
  return out;
}
