// What each node and edge looks like given the theme, the query, the
// selection, the hovered node, the search and the filters. Pure functions:
// the renderer calls them from sigma's reducers, the tests call them directly.
import type { EdgeKind } from '../../bridge/workbench';
import type { EdgeAttrs, LoomGraph, NodeAttrs } from './build';
import { mix, withAlpha } from './colour';
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
  /** Selected and hovered nodes and their neighbours; null when neither is set. */
  focus: Set<string> | null;
  /** Whether the focus is small enough to label every node in it. */
  labelFocus: boolean;
  /** Search matches; null when there is no search. */
  matches: Set<string> | null;
  labelMatches: boolean;
  /** Base opacity of edges (lower for big graphs so they do not drown the nodes). */
  edgeAlpha: number;
}

const FORCE_LABEL_LIMIT = 40;

/** Fewer, fainter edges read better as the graph grows. */
export function edgeAlphaFor(edgeCount: number): number {
  if (edgeCount <= 2000) return 0.5;
  if (edgeCount <= 10000) return 0.32;
  return 0.2;
}

export function makeStyleState(args: {
  graph: LoomGraph;
  theme: GraphTheme;
  filters: Filters;
  query: QueryView | null;
  selected: string | null;
  hovered: string | null;
  matches: Set<string> | null;
}): StyleState {
  const { graph, selected, hovered } = args;
  const sel = selected && graph.hasNode(selected) ? selected : null;
  const hov = hovered && graph.hasNode(hovered) ? hovered : null;
  let focus: Set<string> | null = null;
  let selNeighbours = 0;
  for (const id of [sel, hov]) {
    if (!id) continue;
    focus ??= new Set<string>();
    focus.add(id);
    graph.forEachNeighbor(id, (n) => {
      focus!.add(n);
      if (id === sel) selNeighbours++;
    });
  }
  return {
    theme: args.theme,
    filters: args.filters,
    query: args.query,
    selected: sel,
    hovered: hov,
    focus,
    labelFocus: sel !== null && selNeighbours <= FORCE_LABEL_LIMIT,
    matches: args.matches,
    labelMatches: args.matches !== null && args.matches.size <= FORCE_LABEL_LIMIT,
    edgeAlpha: edgeAlphaFor(graph.size),
  };
}

/** Fill colour without query: concepts in the accent, content by source. */
export function baseColour(a: NodeAttrs, theme: GraphTheme): string {
  if (a.kind === 'concept') return theme.accent;
  if (a.source === 'output') return theme.content.output;
  if (a.source === 'analysis') return theme.content.analysis;
  return theme.content.input;
}

/** Fill colour by hop distance (unreachable: faint). */
export function hopColour(h: number | undefined, theme: GraphTheme): string {
  const b = hopBucket(h);
  return b < 0 ? theme.faint : theme.hops[b];
}

export function nodeStyle(id: string, a: NodeAttrs, s: StyleState): NodeStyle {
  const { theme } = s;
  const out: NodeStyle = {
    x: a.x,
    y: a.y,
    label: a.label,
    size: a.baseSize,
    color: baseColour(a, theme),
    hidden: !nodeVisible(id, a, s.filters, s.matches),
    forceLabel: false,
    highlighted: false,
    zIndex: a.kind === 'concept' ? 1 : 0,
    type: NODE_TYPE,
    ringColor: theme.pinned,
    ringWidth: a.pinned ? 0.3 : 0,
    ringDashed: false,
    state: '',
  };

  if (s.query) {
    const h = s.query.hops.get(id);
    out.color = hopColour(h, theme);
    const c = s.query.candidates.get(id);
    if (c?.loaded) {
      out.state = 'loaded';
      out.ringColor = theme.loaded;
      out.ringWidth = 0.42;
      out.size = Math.max(a.baseSize * 1.6, 6);
      out.zIndex = 3;
    } else if (c?.relevant) {
      out.state = 'relevant';
      out.ringColor = theme.relevant;
      out.ringWidth = 0.34;
      out.ringDashed = true;
      out.size = Math.max(a.baseSize * 1.3, 5);
      out.zIndex = 2;
    } else if (!(a.kind === 'concept' && h === 0)) {
      // Seed concepts stay bright; everything else steps back.
      out.state = 'dimmed';
      out.color = mix(out.color, theme.bg, 0.45);
      if (a.kind === 'content') out.size = a.baseSize * 0.85;
    } else {
      out.zIndex = 3;
      out.forceLabel = true;
    }
  }

  if (s.matches) {
    if (s.matches.has(id)) {
      out.zIndex = Math.max(out.zIndex, 4);
      if (s.labelMatches) out.forceLabel = true;
    } else {
      out.color = mix(out.color, theme.bg, 0.8);
      out.label = null;
      out.ringWidth = 0;
      out.forceLabel = false;
    }
  }

  if (s.focus) {
    if (s.focus.has(id)) {
      out.zIndex = 5;
      if (s.labelFocus) out.forceLabel = true;
      if (id === s.selected || id === s.hovered) {
        out.highlighted = true;
        out.forceLabel = true;
        out.zIndex = 6;
        out.size = Math.max(out.size * 1.3, 6);
      }
    } else {
      out.color = mix(out.color, theme.bg, 0.82);
      out.label = null;
      out.forceLabel = false;
      out.ringWidth = 0;
      out.zIndex = 0;
    }
  }
  return out;
}

const EDGE_SIZE: Record<EdgeKind, number> = { about: 0.6, related: 0.9, parent: 0.7, links: 0.8, derived: 1 };

export function edgeStyle(a: EdgeAttrs, source: string, target: string, s: StyleState): EdgeStyle {
  const colour = s.theme.edges[a.kind] ?? s.theme.muted;
  let alpha = s.edgeAlpha;
  let size = EDGE_SIZE[a.kind] ?? 0.7;
  let zIndex = 0;
  if (s.focus) {
    const touches = (n: string) => n === s.selected || n === s.hovered;
    if (touches(source) || touches(target)) {
      alpha = 0.95;
      size *= 2.2;
      zIndex = 2;
    } else {
      alpha = Math.min(alpha, 0.05);
    }
  } else if (s.matches) {
    if (!s.matches.has(source) && !s.matches.has(target)) alpha *= 0.25;
  } else if (s.query) {
    if (!s.query.hops.has(source) || !s.query.hops.has(target)) alpha *= 0.35;
  }
  return { color: withAlpha(colour, alpha), size, hidden: !edgeVisible(a, s.filters), zIndex };
}
