// The graph view's state outside Svelte: the graph (the engine's nodes and
// edges plus a super-node per cluster), what the filters let through, what
// the level of detail draws, the styles the renderer's reducers hand out,
// and the question's focused view. GraphView feeds it the person's choices;
// it works out what changed and repaints only that, a slice per frame, so
// no frame does more than a few milliseconds of it (the renderer itself is
// attached only where WebGL exists; without it the counts still hold).
//
// Two graphs: the model (every node and edge; what filters, search, focus
// and layout work on) and the view (what the renderer holds). For a graph
// of ordinary size they are one. A big one with clusters is progressive:
// the view starts with the super-nodes alone (the first picture), the model
// is built between frames, and a cluster's members join the view only when
// they are wanted (expanded, in sight when zoomed in, selected, in the
// question's focus, found by the search), sharing the model's attributes.
import Graph from 'graphology';
import type { GraphData } from '../../bridge/workbench';
import { GraphBuilder, type EdgeAttrs, type LoomGraph, type NodeAttrs, type Position } from './build';
import { clusterDiscs, indexClusters, type ClusterIndex, type Disc } from './clusters';
import { matchNodes, passingNodes, type Filters, type ScopeContext } from './filter';
import { makeFocus, ringLayout, type FocusView } from './focus';
import type { QueryView } from './hops';
import {
  budgetFor,
  changed,
  clusterMode,
  computeVisibility,
  countDrawn,
  KIND_CONCEPT,
  KIND_SECTION,
  KIND_SUPER,
  levelFor,
  type ClusterMode,
  type ClusterOverride,
  type Level,
  type LodBudget,
} from './lod';
import { edgeStyle, makeStyleState, nodeStyle, sameEdgeStyle, sameNodeStyle, type EdgeStyle, type NodeStyle, type StyleState } from './style';
import type { GraphTheme } from './theme';

export interface SceneInput {
  theme: GraphTheme;
  filters: Filters;
  search: string;
  query: QueryView | null;
  /** The question's seed concepts (QueryResult.seed_concepts). */
  seeds: readonly string[];
  selected: string | null;
  /** The focused view of the question's neighbourhood. */
  focus: boolean;
  /** Rings shown in the focused view: 0 … step. */
  focusStep: number;
  /** Outside the focused view: faded, or hidden. */
  focusRest: 'faded' | 'hidden';
  /** How soon detail appears as the camera zooms in, 0 … 1. */
  detail: number;
  scope: ScopeContext;
}

/** What GraphView shows and exposes as data-* attributes. */
export interface SceneStatus {
  level: Level;
  /** The model is complete (a progressive scene builds it after the first picture). */
  ready: boolean;
  /** Nodes (super-nodes not counted) the filters let through. */
  visible: number;
  matches: number | null;
  drawnNodes: number;
  drawnConcepts: number;
  drawnSections: number;
  drawnClusters: number;
  /** Clusters the person expanded / collapsed by hand. */
  expanded: string[];
  collapsed: string[];
  focus: { maxRing: number; perRing: number[]; step: number; shown: number; seeds: number; loaded: number; relevant: number; unlinked: number } | null;
}

/** What the renderer module offers the scene (renderer.ts; loaded only where WebGL exists). */
export interface SceneRenderer {
  refreshItems(nodes: string[], edges: string[]): void;
  /** Whether the camera is moving (clusters join the view only when it rests). */
  moving(): boolean;
  /** Whether edges are left out now (while the camera moves in a big graph: their restyling can wait). */
  edgesHidden(): boolean;
  ratio(): number;
  size(): { width: number; height: number };
  /** The part of the graph in sight, in graph coordinates. */
  viewRect(): { minX: number; minY: number; maxX: number; maxY: number };
  /** Makes a change to the view in one go (nodes leaving it): the renderer takes it in with one refresh. */
  batch(change: () => void): void;
  /** Fixes the graph's extent (so members joining the view do not rescale it). */
  setExtent(extent: { x: [number, number]; y: [number, number] } | null): void;
  fit(keys: Iterable<string>, duration?: number): void;
  redraw(): void;
}

export interface SceneOptions {
  /** Super-nodes first, the rest on demand (default: for graphs with clusters above PROGRESSIVE_NODES nodes). */
  progressive?: boolean;
}

/** Graphs with clusters above this many nodes are built and drawn progressively. */
export const PROGRESSIVE_NODES = 5000;

const SLICE_MS = 6;

/** Progressive: the most nodes the view holds before clusters out of sight leave it. */
export const VIEW_CAP = 4000;

/** Indices waiting to be restyled: a bitmap, so marking everything costs nothing and each is taken once. */
export class Pending {
  private readonly flags: Uint8Array;
  private cursor = 0;
  size = 0;

  constructor(n: number) {
    this.flags = new Uint8Array(n);
  }

  add(i: number): void {
    if (!this.flags[i]) {
      this.flags[i] = 1;
      this.size++;
    }
  }

  all(): void {
    this.flags.fill(1);
    this.size = this.flags.length;
  }

  /** Takes the next waiting index (in order from where the last one was taken), or -1. */
  take(): number {
    if (!this.size) return -1;
    const n = this.flags.length;
    for (let k = 0; k < n; k++) {
      const i = this.cursor;
      this.cursor = i + 1 === n ? 0 : i + 1;
      if (this.flags[i]) {
        this.flags[i] = 0;
        this.size--;
        return i;
      }
    }
    return -1;
  }
}

export class GraphScene {
  readonly clusters: ClusterIndex;
  readonly progressive: boolean;
  /** Every node and edge (complete once ready). */
  readonly graph: LoomGraph;
  /** What the renderer holds: the model itself, or (progressive) the part of it wanted so far. */
  readonly view: LoomGraph;
  /** Node keys by NodeAttrs.i (holes for duplicate ids), edge keys by EdgeAttrs.j (holes for edges left out). */
  readonly keys: string[];
  readonly edgeKeys: (string | undefined)[];
  readonly kind: Uint8Array;
  readonly cluster: Int32Array;
  /** Counts the levels are chosen by. */
  readonly conceptCount: number;
  readonly sectionCount: number;
  /** Laid-out positions (the layout's), by NodeAttrs.i; the focused view draws its rings over them. */
  readonly homeX: Float64Array;
  readonly homeY: Float64Array;
  /** Indices of the super-nodes. */
  readonly superIndices: number[] = [];

  /** Styles handed to the renderer's reducers, by index. */
  readonly nodeStyles: (NodeStyle | undefined)[];
  readonly edgeStyles: (EdgeStyle | undefined)[];
  /** The style objects sigma holds now (its reducers record them): the label layer reads their framed positions. */
  readonly drawn: (NodeStyle | undefined)[];
  /** Node indices by label priority class then size: the order labels compete in. */
  labelOrder: Int32Array;
  /** Each cluster's disc (centre, reach) from the current positions. */
  discs = new Map<string, Disc>();

  private builder: GraphBuilder | null;
  private built: boolean;
  private input: SceneInput | null = null;
  private state: StyleState | null = null;
  private passes: Uint8Array;
  private vis: Uint8Array;
  private matches: Set<string> | null = null;
  private overrides = new Map<number, ClusterOverride>();
  private level: Level;
  private budget: LodBudget = { concepts: 150, sections: 300 };
  private focusView: FocusView | null = null;
  private focusFor: QueryView | null = null;
  private ringPositions: Map<string, Position> | null = null;
  /** The focused view's rings (centre and radii, graph units) for the renderer to draw; null when off. */
  ringGuides: { centre: Position; radii: number[] } | null = null;
  private renderer: SceneRenderer | null = null;
  private pendingNodes: Pending;
  private pendingEdges: Pending;
  /** The camera crossed a level: restyle at the next frame (not inside the camera's event). */
  private levelDirty = false;
  private frame = 0;
  private fallback: ReturnType<typeof setTimeout> | undefined;
  private statusCache: SceneStatus | null = null;
  private clusterDrawn = new Uint8Array(0);
  private readonly scratchNode = {} as NodeStyle;
  private readonly scratchEdge = {} as EdgeStyle;
  /** Progressive: which nodes (by index) are in the view. */
  private inView: Uint8Array;
  /** Clusters with members to draw that are not in the view yet, nearest the camera first; and the one under way (its member, then edge, cursor). */
  private wanted: number[] = [];
  private joining: { c: number; ids: string[]; at: number; edgesAt: number; list: string[] | null; listAt: number } | null = null;
  /** The camera rests (since the last rest event, no move): clusters may join the view. */
  private resting = true;
  private lastMove = 0;
  private unclusteredIds: string[] = [];
  /** Progressive: members that leave the view at the next rest (over VIEW_CAP: hidden ones, then clusters out of sight). */
  private leaving: string[] = [];

  /** Called when the status (level, drawn counts, focus, readiness) changed. */
  onstatus: ((s: SceneStatus) => void) | null = null;

  constructor(data: GraphData, previous?: ReadonlyMap<string, Position>, opts: SceneOptions = {}) {
    this.clusters = indexClusters(data);
    const nNodes = data.nodes.length;
    const nClusters = this.clusters.list.length;
    this.progressive = opts.progressive ?? (nClusters > 0 && nNodes > PROGRESSIVE_NODES);
    const n = nNodes + nClusters;
    const m = data.edges.length + this.clusters.links.length;
    this.keys = new Array<string>(n);
    this.kind = new Uint8Array(n);
    this.cluster = new Int32Array(n).fill(-1);
    this.homeX = new Float64Array(n);
    this.homeY = new Float64Array(n);
    this.edgeKeys = new Array<string | undefined>(m);
    this.nodeStyles = new Array(n);
    this.edgeStyles = new Array(m);
    this.drawn = new Array(n);
    this.vis = new Uint8Array(n);
    this.pendingNodes = new Pending(n);
    this.pendingEdges = new Pending(m);
    this.inView = new Uint8Array(n);
    // What the data says, before any graph exists: kinds, clusters, counts.
    let concepts = 0,
      sections = 0;
    const seen = new Set<string>();
    this.passes = new Uint8Array(n);
    data.nodes.forEach((node, k) => {
      this.keys[k] = node.id;
      if (seen.has(node.id)) return; // a duplicate: a hole
      seen.add(node.id);
      const isConcept = node.kind === 'concept';
      this.kind[k] = isConcept ? KIND_CONCEPT : KIND_SECTION;
      this.cluster[k] = this.clusters.of.get(node.id) ?? -1;
      this.passes[k] = 1;
      if (isConcept) concepts++;
      else sections++;
      if (this.cluster[k] < 0) this.unclusteredIds.push(node.id);
    });
    for (const c of this.clusters.list) {
      const i = nNodes + c.index;
      this.keys[i] = c.key;
      this.kind[i] = KIND_SUPER;
      this.cluster[i] = c.index;
      this.passes[i] = 1;
      this.superIndices.push(i);
    }
    this.conceptCount = concepts;
    this.sectionCount = sections;
    this.builder = new GraphBuilder(data, previous, this.clusters);
    this.graph = this.builder.graph;
    this.builder.overview();
    this.discs = new Map(this.builder.discs);
    this.graph.forEachNode((key, a) => {
      this.homeX[a.i] = a.x;
      this.homeY[a.i] = a.y;
    });
    this.graph.forEachEdge((key, a) => {
      this.edgeKeys[a.j] = key;
    });
    this.labelOrder = Int32Array.from(this.superIndices);
    if (this.progressive) {
      // The view: the super-nodes and their links, sharing the model's attributes.
      this.view = new Graph<NodeAttrs, EdgeAttrs>({ multi: true, type: 'mixed', allowSelfLoops: false });
      this.graph.forEachNode((key, a) => {
        this.view.addNode(key, a);
        this.inView[a.i] = 1;
      });
      this.graph.forEachEdge((key, a, s, t) => this.view.addEdgeWithKey(key, s, t, a));
      this.built = false;
      this.level = 0;
    } else {
      this.builder.step();
      this.view = this.graph;
      this.inView.fill(1);
      this.built = true;
      this.level = 0;
      this.finishModel();
    }
  }

  /** Whether the model is complete. */
  get ready(): boolean {
    return this.built;
  }

  /**
   * Builds the model on until the deadline (performance.now()); true once
   * it is complete (then the scene restyles with everything it knows).
   */
  build(deadline: number): boolean {
    if (this.built) return true;
    if (!this.builder!.step(deadline)) return false;
    this.built = true;
    this.finishModel();
    if (this.input) {
      const input = this.input;
      this.input = null;
      this.update(input);
    }
    return true;
  }

  /** Everything that needs the whole model: home positions, edge keys, label order, cluster discs, the level. */
  private finishModel() {
    this.builder = null;
    this.graph.forEachNode((key, a) => {
      this.homeX[a.i] = a.x;
      this.homeY[a.i] = a.y;
    });
    this.graph.forEachEdge((key, a) => {
      this.edgeKeys[a.j] = key;
    });
    // Labels compete: super-nodes, then concepts, then sections, the bigger first.
    const order: number[] = [];
    const size = new Float64Array(this.keys.length);
    this.graph.forEachNode((_key, a) => {
      order.push(a.i);
      size[a.i] = a.baseSize;
    });
    const cls = (i: number) => (this.kind[i] === KIND_SUPER ? 0 : this.kind[i] === KIND_CONCEPT ? 1 : 2);
    order.sort((a, b) => cls(a) - cls(b) || size[b] - size[a] || a - b);
    this.labelOrder = Int32Array.from(order);
    this.discs = clusterDiscs(this.clusters, (id) => {
      const a = this.graph.getNodeAttributes(id);
      return { x: a.x, y: a.y };
    });
    // The level the whole graph shows at on this stage (or a typical one).
    this.level = levelFor(this.renderer?.ratio() ?? 1, this.counts(), this.budget, null);
    if (this.renderer && this.progressive) this.renderer.setExtent(this.extent());
  }

  private counts() {
    return { concepts: this.conceptCount, sections: this.sectionCount, clusters: this.clusters.list.length };
  }

  get hasClusters(): boolean {
    return this.clusters.list.length > 0;
  }

  get focus(): FocusView | null {
    return this.input?.focus ? this.focusView : null;
  }

  get styleState(): StyleState | null {
    return this.state;
  }

  /** Which clusters draw how, by cluster index. */
  modes(): ClusterMode[] {
    return this.clusters.list.map((c) => clusterMode(this.level, this.overrides.get(c.index)));
  }

  mode(clusterId: string): ClusterMode | null {
    const c = this.clusters.byId.get(clusterId);
    return c ? clusterMode(this.level, this.overrides.get(c.index)) : null;
  }

  // --- input -------------------------------------------------------------

  /**
   * Takes the person's choices; works out what changed (filters, search,
   * question, focus, selection, theme) and restyles. Cheap when nothing did.
   * Before a progressive model is complete only the super-nodes are styled;
   * the choices apply in full once it is.
   */
  update(input: SceneInput): void {
    const prev = this.input;
    this.input = input;
    if (!prev || prev.detail !== input.detail) this.rebudget();
    if (!this.built) {
      this.restyle();
      return;
    }
    const filtersChanged = !prev || prev.filters !== input.filters || prev.scope !== input.scope;
    const searchChanged = !prev || prev.search !== input.search;
    if (searchChanged) {
      this.matches = matchNodes(this.graph, input.search);
    }
    if (filtersChanged || searchChanged) {
      const pass = passingNodes(this.graph, input.filters, this.matches, { ...input.scope, clusterIndex: this.clusterIdIndex() });
      this.passes = new Uint8Array(this.keys.length);
      this.passes.set(pass.subarray(0, this.keys.length));
    }
    const focusChanged = !prev || prev.query !== input.query || prev.focus !== input.focus || prev.seeds !== input.seeds;
    if (focusChanged) {
      if (input.focus && input.query) {
        if (this.focusFor !== input.query || !this.focusView) {
          this.focusView = makeFocus(this.graph, input.query, input.seeds);
          this.focusFor = input.query;
        }
      }
      this.placeRings();
    }
    this.restyle();
  }

  private clusterIdIndex(): Map<string, number> {
    return new Map(this.clusters.list.map((c) => [c.id, c.index]));
  }

  /** The camera moved: a new level when the zoom crossed a threshold. Called per frame: O(1) unless the level changes. */
  cameraMoved(ratio: number): void {
    this.resting = false;
    this.lastMove = performance.now();
    if (!this.built) return;
    const next = levelFor(ratio, this.counts(), this.budget, this.level);
    if (next === this.level) return;
    this.level = next;
    if (!this.renderer) {
      this.restyle();
      return;
    }
    this.levelDirty = true;
    this.schedule();
  }

  /** The camera came to rest: a progressive scene brings in the clusters now in sight. */
  cameraRested(): void {
    this.resting = true;
    if (this.progressive && this.built) {
      this.want();
      this.schedule();
    }
  }

  /** The stage changed size: budgets follow its area. */
  resized(): void {
    this.rebudget();
    if (this.renderer) this.cameraMoved(this.renderer.ratio());
  }

  private rebudget() {
    const size = this.renderer?.size() ?? { width: 1000, height: 700 };
    this.budget = budgetFor(size.width, size.height, this.input?.detail ?? 0.5);
    if (this.built) this.level = levelFor(this.renderer?.ratio() ?? 1, this.counts(), this.budget, null);
  }

  /** Expands a collapsed cluster or collapses an open one (by hand; the zoom no longer decides for it). */
  toggleCluster(clusterId: string): ClusterMode | null {
    const c = this.clusters.byId.get(clusterId);
    if (!c) return null;
    const now = clusterMode(this.level, this.overrides.get(c.index));
    this.overrides.set(c.index, now === 'collapsed' ? 'expanded' : 'collapsed');
    this.restyle();
    return this.mode(clusterId);
  }

  setCluster(clusterId: string, override: ClusterOverride | null): void {
    const c = this.clusters.byId.get(clusterId);
    if (!c) return;
    if (override) this.overrides.set(c.index, override);
    else this.overrides.delete(c.index);
    this.restyle();
  }

  /** Forgets every expand and collapse: the zoom decides again. */
  resetClusters(): void {
    this.overrides.clear();
    this.restyle();
  }

  // --- positions ------------------------------------------------------------

  /**
   * Positions changed (the layout moved nodes, given by position()): keeps
   * them as home, puts the super-nodes at their clusters' centres, and
   * writes them to the graph (one repaint).
   */
  setHome(position?: (key: string) => Position | undefined): void {
    if (!this.built) return;
    if (position) {
      this.graph.forEachNode((key, a) => {
        if (a.kind === 'cluster') return;
        const p = position(key);
        if (p) {
          this.homeX[a.i] = p.x;
          this.homeY[a.i] = p.y;
        }
      });
    }
    this.discs = clusterDiscs(this.clusters, (id) => {
      const i = this.graph.getNodeAttribute(id, 'i');
      return { x: this.homeX[i], y: this.homeY[i] };
    });
    for (const c of this.clusters.list) {
      const d = this.discs.get(c.id);
      if (!d) continue;
      const i = this.graph.getNodeAttribute(c.key, 'i');
      this.homeX[i] = d.x;
      this.homeY[i] = d.y;
    }
    if (this.input?.focus) this.placeRings(false);
    this.writePositions();
    if (this.renderer && this.progressive) this.renderer.setExtent(this.extent());
  }

  /** Home positions of the engine's nodes (to carry over when the graph is rebuilt). */
  homePositions(): Map<string, Position> {
    const out = new Map<string, Position>();
    if (!this.built) return out;
    this.graph.forEachNode((key, a) => {
      if (a.kind !== 'cluster') out.set(key, { x: this.homeX[a.i], y: this.homeY[a.i] });
    });
    return out;
  }

  /** The extent of every node's home (and every cluster's disc before the model is complete). */
  extent(): { x: [number, number]; y: [number, number] } {
    let x0 = Infinity,
      x1 = -Infinity,
      y0 = Infinity,
      y1 = -Infinity;
    const grow = (x: number, y: number, r = 0) => {
      x0 = Math.min(x0, x - r);
      x1 = Math.max(x1, x + r);
      y0 = Math.min(y0, y - r);
      y1 = Math.max(y1, y + r);
    };
    if (this.built) this.graph.forEachNode((_k, a) => grow(this.homeX[a.i], this.homeY[a.i]));
    for (const d of this.discs.values()) grow(d.x, d.y, d.r);
    if (x0 === Infinity) return { x: [0, 1], y: [0, 1] };
    return { x: [x0, x1], y: [y0, y1] };
  }

  private placeRings(write = true) {
    const f = this.input?.focus ? this.focusView : null;
    if (!f || f.ring.size === 0) {
      const had = this.ringPositions !== null;
      this.ringPositions = null;
      this.ringGuides = null;
      if (had && write) this.writePositions();
      return;
    }
    // Rings around the seeds' centre, spaced by the graph's typical spacing.
    let cx = 0,
      cy = 0,
      n = 0;
    for (const id of f.seeds.length ? f.seeds : [...f.ring.keys()].slice(0, 1)) {
      const i = this.graph.getNodeAttribute(id, 'i');
      cx += this.homeX[i];
      cy += this.homeY[i];
      n++;
    }
    if (n) {
      cx /= n;
      cy /= n;
    }
    // A node's room on its circle: the rings span about the graph's extent, so the
    // camera frames them near its overview zoom, where nodes do not swell into each other.
    const e = this.extent();
    const span = Math.max(e.x[1] - e.x[0], e.y[1] - e.y[0], 1);
    const radiusInUnits = 1.3 * Math.sqrt(f.ring.size / Math.PI) + 2 * (f.maxRing + 1);
    const unit = span / (2 * radiusInUnits);
    const layout = ringLayout(f, { x: cx, y: cy }, unit);
    this.ringPositions = layout.positions;
    this.ringGuides = { centre: layout.centre, radii: layout.radii };
    if (write) this.writePositions();
  }

  private writePositions() {
    const rings = this.ringPositions;
    // The attribute objects are the view's too: set them all, then tell the view (one repaint).
    this.graph.forEachNode((key, a) => {
      const p = rings?.get(key);
      a.x = p ? p.x : this.homeX[a.i];
      a.y = p ? p.y : this.homeY[a.i];
    });
    this.view.updateEachNodeAttributes((_key, a) => a, { attributes: ['x', 'y'] });
  }

  // --- styling --------------------------------------------------------------

  /** Recomputes what is drawn and every style; marks what changed for repainting. */
  restyle(): void {
    const input = this.input;
    if (!input) return;
    const f = this.built ? this.focus : null;
    let only: Uint8Array | null = null;
    const focusIdx: number[] = [];
    if (f) for (const [id, r] of f.ring) if (r <= input.focusStep) focusIdx.push(this.graph.getNodeAttribute(id, 'i'));
    if (f && input.focusRest === 'hidden') {
      only = new Uint8Array(this.keys.length);
      for (const i of focusIdx) only[i] = 1;
    }
    const forced: number[] = [];
    if (this.built && input.selected && this.graph.hasNode(input.selected)) {
      forced.push(this.graph.getNodeAttribute(input.selected, 'i'));
      this.graph.forEachNeighbor(input.selected, (_n, a) => {
        if (a.kind !== 'cluster') forced.push(a.i);
      });
    }
    if (f && input.focusRest === 'faded') forced.push(...focusIdx);
    // After a question, what it loaded, found relevant or started from shows at any level.
    if (this.built && input.query) {
      for (const [id, c] of input.query.candidates) if ((c.loaded || c.relevant) && this.graph.hasNode(id)) forced.push(this.graph.getNodeAttribute(id, 'i'));
      for (const id of input.seeds) if (this.graph.hasNode(id)) forced.push(this.graph.getNodeAttribute(id, 'i'));
    }
    if (this.built && this.matches && this.matches.size <= 2000) for (const id of this.matches) forced.push(this.graph.getNodeAttribute(id, 'i'));
    const vis = computeVisibility({
      kind: this.kind,
      cluster: this.cluster,
      passes: this.passes,
      modes: this.built ? this.modes() : this.clusters.list.map(() => 'collapsed' as const),
      level: this.level,
      forced,
      only,
    });
    const rings = f ? new Map([...f.ring].filter(([, r]) => r <= input.focusStep)) : null;
    const state = makeStyleState({
      graph: this.graph,
      theme: input.theme,
      filters: input.filters,
      query: input.query,
      selected: input.selected,
      hovered: this.state?.hovered ?? null,
      matches: this.matches,
      visible: vis,
      clusterColours: this.clusters.list.map((c) => c.colour),
      rings,
      clusterWeightMax: this.clusters.links[0]?.weight ?? 1,
    });
    const restyleAll = !this.state || this.state.theme !== state.theme || this.styleInputsChanged(this.state, state);
    this.state = state;
    const visChanged = changed(this.vis, vis);
    this.vis = vis;
    this.clusterDrawn = new Uint8Array(this.clusters.list.length + 1);
    for (let i = 0; i < vis.length; i++) {
      if (!vis[i] || this.kind[i] === KIND_SUPER) continue;
      const c = this.cluster[i];
      this.clusterDrawn[c >= 0 ? c : this.clusters.list.length] = 1;
    }
    if (restyleAll) {
      this.markAllNodes();
      this.markAllEdges();
    } else {
      for (const i of visChanged) this.pendingNodes.add(i);
      // Many changed: every edge is looked at (cheaper than finding theirs); few: only theirs.
      if (visChanged.length > this.keys.length / 20) this.markAllEdges();
      else
        for (const i of visChanged) {
          const key = this.keys[i];
          if (key !== undefined && this.graph.hasNode(key))
            this.graph.forEachEdge(key, (_e, a) => {
              this.pendingEdges.add(a.j);
            });
        }
    }
    if (this.progressive && this.built) this.want(only ? [...forced, ...focusIdx] : forced);
    this.statusCache = null;
    this.schedule();
    this.onstatus?.(this.status());
  }

  /** Everything in the view waits to be restyled (the model's rest is styled when it joins). */
  private markAllNodes() {
    if (this.view === this.graph) this.pendingNodes.all();
    else
      this.view.forEachNode((_k, a) => {
        this.pendingNodes.add(a.i);
      });
  }

  private markAllEdges() {
    if (this.view === this.graph) this.pendingEdges.all();
    else
      this.view.forEachEdge((_k, a) => {
        this.pendingEdges.add(a.j);
      });
  }

  /** Whether anything but visibility changed between two states (then every style is recomputed). */
  private styleInputsChanged(a: StyleState, b: StyleState): boolean {
    return (
      a.query !== b.query ||
      a.selected !== b.selected ||
      a.matches !== b.matches ||
      JSON.stringify(a.filters.edges) !== JSON.stringify(b.filters.edges) ||
      (a.rings?.size ?? -1) !== (b.rings?.size ?? -1)
    );
  }

  /**
   * Progressive: which clusters' members should join the view: those with
   * something to draw that are in sight (or opened by hand, or holding a
   * node shown whatever the zoom), nearest the camera's centre first.
   */
  private want(forced: readonly number[] = []) {
    const C = this.clusters.list.length;
    const must = new Uint8Array(C + 1);
    for (const i of forced) {
      const c = this.cluster[i];
      must[c >= 0 ? c : C] = 1;
    }
    for (const [c, o] of this.overrides) if (o === 'expanded') must[c] = 1;
    // Per cluster: members drawn now but not in the view, and members in the view drawing nothing.
    // Only what is drawn joins: a cluster showing its concepts brings them, not its sections.
    const missing = new Int32Array(C + 1);
    const hidden = new Int32Array(C + 1);
    for (let i = 0; i < this.keys.length; i++) {
      if (this.kind[i] === KIND_SUPER) continue;
      const c = this.cluster[i] >= 0 ? this.cluster[i] : C;
      if (this.vis[i] && !this.inView[i]) missing[c]++;
      else if (!this.vis[i] && this.inView[i]) hidden[c]++;
    }
    const rect = this.renderer?.viewRect();
    const cx = rect ? (rect.minX + rect.maxX) / 2 : 0;
    const cy = rect ? (rect.minY + rect.maxY) / 2 : 0;
    const inSight = (c: number) => {
      const disc = this.discs.get(this.clusters.list[c].id);
      return !rect || (disc !== undefined && disc.x + disc.r >= rect.minX && disc.x - disc.r <= rect.maxX && disc.y + disc.r >= rect.minY && disc.y - disc.r <= rect.maxY);
    };
    const list: { c: number; d: number }[] = [];
    for (let c = 0; c <= C; c++) {
      if (!missing[c]) continue;
      if (c === C) {
        list.push({ c, d: Infinity });
        continue;
      }
      const disc = this.discs.get(this.clusters.list[c].id);
      if (!disc) continue;
      if (!inSight(c) && !must[c]) continue;
      list.push({ c, d: Math.hypot(disc.x - cx, disc.y - cy) - (must[c] ? 1e9 : 0) });
    }
    list.sort((a, b) => a.d - b.d);
    this.wanted = list.map((x) => x.c);
    // Over the cap, members in the view that draw nothing now leave (collapsed by the zoom,
    // filtered out), then whole clusters out of sight, the farthest first, so the renderer
    // never carries the whole graph hidden.
    this.leaving = [];
    let size = this.view.order;
    for (const c of this.wanted) size += missing[c];
    if (size <= VIEW_CAP) return;
    for (let c = 0; c <= C; c++) {
      if (!hidden[c]) continue;
      for (const id of this.memberIds(c)) {
        const i = this.graph.getNodeAttribute(id, 'i');
        if (this.inView[i] && !this.vis[i]) this.leaving.push(id);
      }
      size -= hidden[c];
    }
    if (size <= VIEW_CAP || !rect) return;
    const out: { c: number; d: number }[] = [];
    for (let c = 0; c < C; c++) {
      if (must[c] || inSight(c)) continue;
      const disc = this.discs.get(this.clusters.list[c].id);
      if (disc) out.push({ c, d: Math.hypot(disc.x - cx, disc.y - cy) });
    }
    out.sort((a, b) => b.d - a.d);
    for (const { c } of out) {
      if (size <= VIEW_CAP) break;
      for (const id of this.memberIds(c)) {
        const i = this.graph.getNodeAttribute(id, 'i');
        if (this.inView[i] && this.vis[i]) {
          this.leaving.push(id);
          size--;
        }
      }
    }
  }

  /** A cluster's members by index (the last index: the nodes in no cluster). */
  private memberIds(c: number): readonly string[] {
    return c === this.clusters.list.length ? this.unclusteredIds : this.clusters.list[c].members;
  }

  /** Takes the members that are leaving out of the view (one repaint for all of them). */
  private leave(): void {
    const leaving = this.leaving;
    this.leaving = [];
    const drop = () => {
      for (const id of leaving) {
        if (!this.view.hasNode(id)) continue;
        this.view.dropNode(id);
        const i = this.graph.getNodeAttribute(id, 'i');
        this.inView[i] = 0;
        this.drawn[i] = undefined;
        this.nodeStyles[i] = undefined;
      }
    };
    if (this.renderer) this.renderer.batch(drop);
    else drop();
  }

  /** Brings members of wanted clusters into the view, within the deadline; true when none is left. */
  private join(deadline: number): boolean {
    let k = 0;
    while (this.joining || this.wanted.length) {
      if (!this.joining) {
        const c = this.wanted.shift()!;
        // The members drawn now and not in the view yet (visibility may have changed since it was wanted).
        const ids = this.memberIds(c).filter((id) => {
          const i = this.graph.getNodeAttribute(id, 'i');
          return this.vis[i] === 1 && !this.inView[i];
        });
        if (!ids.length) continue;
        this.joining = { c, ids, at: 0, edgesAt: 0, list: null, listAt: 0 };
      }
      const j = this.joining;
      while (j.at < j.ids.length) {
        const id = j.ids[j.at++];
        if (this.graph.hasNode(id) && !this.view.hasNode(id)) {
          const a = this.graph.getNodeAttributes(id);
          this.view.addNode(id, a);
          this.inView[a.i] = 1;
        }
        if ((++k & 127) === 0 && performance.now() > deadline) return false;
      }
      // Each member's edges to what is in the view; a concept can have thousands, so a member's list is resumable.
      while (j.edgesAt < j.ids.length || j.list) {
        if (!j.list) {
          const id = j.ids[j.edgesAt++];
          if (!this.view.hasNode(id)) continue;
          j.list = this.graph.edges(id);
          j.listAt = 0;
        }
        const list = j.list;
        while (j.listAt < list.length) {
          const key = list[j.listAt++];
          if (!this.view.hasEdge(key)) {
            const [s, t] = this.graph.extremities(key);
            if (this.view.hasNode(s) && this.view.hasNode(t)) this.view.addEdgeWithKey(key, s, t, this.graph.getEdgeAttributes(key));
          }
          if ((++k & 127) === 0 && performance.now() > deadline) return false;
        }
        j.list = null;
      }
      this.joining = null;
    }
    return true;
  }

  /** The hovered node changed: restyles only the neighbourhoods it left and entered, at once. */
  setHovered(id: string | null): void {
    if (!this.state) return;
    const before = this.state.hovered;
    const s = makeStyleState({
      graph: this.graph,
      theme: this.state.theme,
      filters: this.state.filters,
      query: this.state.query,
      selected: this.state.selected,
      hovered: id,
      matches: this.state.matches,
      visible: this.state.visible,
      clusterColours: this.clusters.list.map((c) => c.colour),
      rings: this.state.rings,
      clusterWeightMax: this.state.clusterWeightMax,
    });
    this.state = s;
    const nodes = new Set<number>();
    const edges = new Set<number>();
    for (const h of [before, id]) {
      if (!h || !this.view.hasNode(h)) continue;
      nodes.add(this.view.getNodeAttribute(h, 'i'));
      this.view.forEachNeighbor(h, (_n, a) => {
        nodes.add(a.i);
      });
      this.view.forEachEdge(h, (_e, a) => {
        edges.add(a.j);
      });
    }
    const nodeKeys: string[] = [];
    const edgeKeys: string[] = [];
    for (const i of nodes) {
      const key = this.keys[i];
      const ns = nodeStyle(key, this.graph.getNodeAttributes(key), s);
      const old = this.nodeStyles[i];
      if (!old || !sameNodeStyle(old, ns)) {
        this.nodeStyles[i] = ns;
        nodeKeys.push(key);
      }
    }
    for (const j of edges) {
      const key = this.edgeKeys[j]!;
      const a = this.graph.getEdgeAttributes(key);
      const es = edgeStyle(a, this.keys[a.s], this.keys[a.t], s);
      const old = this.edgeStyles[j];
      if (!old || !sameEdgeStyle(old, es)) {
        this.edgeStyles[j] = es;
        edgeKeys.push(key);
      }
    }
    if (this.renderer && (nodeKeys.length || edgeKeys.length)) this.renderer.refreshItems(nodeKeys, edgeKeys);
  }

  private schedule() {
    // Without a renderer nothing is drawn: styles wait until one asks (the reducers style lazily).
    if (!this.renderer) return;
    if (this.frame || typeof requestAnimationFrame === 'undefined') return;
    // The next frame; or, should frames stall (a busy GPU, a hidden page), a timer: the work is never left waiting.
    const run = () => {
      if (!this.frame) return;
      cancelAnimationFrame(this.frame);
      clearTimeout(this.fallback);
      this.frame = 0;
      this.flush();
    };
    this.frame = requestAnimationFrame(run);
    this.fallback = setTimeout(run, 300);
  }

  /**
   * One frame's share of the work: a level change's restyle, members
   * joining the view (progressive), then pending nodes and edges restyled
   * and handed to the renderer a chunk at a time, until SLICE_MS are spent
   * (the renderer's share included); the rest next frame. Nodes go first.
   * While the camera moves, edges are not drawn in a big graph
   * (renderer.ts), so their restyling waits until it rests.
   */
  private flush(): void {
    if (!this.state) return;
    const t0 = performance.now();
    const spent = () => performance.now() - t0 > SLICE_MS;
    if (this.levelDirty) {
      this.levelDirty = false;
      this.restyle();
      if (spent()) return this.schedule();
    }
    // The state as it is now (the restyle above replaced it).
    const s = this.state;
    // At rest (a second without a camera move counts as rest, whatever the renderer's signals say).
    const quiet = performance.now() - this.lastMove > 1000;
    const rest = quiet || (this.resting && !this.renderer?.moving());
    if (this.progressive && this.leaving.length && rest) this.leave();
    if (this.progressive && (this.joining || this.wanted.length) && rest) {
      if (!this.join(t0 + SLICE_MS)) return this.schedule();
    }
    const CHUNK = 400;
    const nodes: string[] = [];
    const edges: string[] = [];
    const hand = () => {
      if (this.renderer && (nodes.length || edges.length)) this.renderer.refreshItems(nodes, edges);
      nodes.length = 0;
      edges.length = 0;
    };
    let k = 0;
    for (let i = this.pendingNodes.take(); i >= 0; i = this.pendingNodes.take()) {
      const key = this.keys[i];
      if (key === undefined || !this.view.hasNode(key)) {
        // Not in the view: styled when it joins (the reducer asks).
        this.nodeStyles[i] = undefined;
      } else {
        const ns = nodeStyle(key, this.graph.getNodeAttributes(key), s, this.scratchNode);
        const old = this.nodeStyles[i];
        if (!old || !sameNodeStyle(old, ns)) {
          this.nodeStyles[i] = { ...ns };
          nodes.push(key);
        }
      }
      if (++k % CHUNK === 0) {
        hand();
        if (spent()) break;
      }
    }
    hand();
    const edgesWait = !quiet && this.renderer?.edgesHidden() === true;
    if (!spent() && !edgesWait) {
      for (let j = this.pendingEdges.take(); j >= 0; j = this.pendingEdges.take()) {
        const key = this.edgeKeys[j];
        if (key === undefined || !this.view.hasEdge(key)) {
          this.edgeStyles[j] = undefined;
        } else {
          const a = this.graph.getEdgeAttributes(key);
          const es = edgeStyle(a, this.keys[a.s], this.keys[a.t], s, this.scratchEdge);
          const old = this.edgeStyles[j];
          if (!old || !sameEdgeStyle(old, es)) {
            this.edgeStyles[j] = { ...es };
            edges.push(key);
          }
        }
        if (++k % CHUNK === 0) {
          hand();
          if (spent()) break;
        }
      }
      hand();
    }
    if (this.busy) this.schedule();
    // Done: one more frame, so whoever waits for the picture to settle sees it.
    else this.renderer?.redraw();
  }

  /** Whether restyling (or, progressive, bringing clusters into the view) is still under way. */
  get busy(): boolean {
    return this.pendingNodes.size > 0 || this.pendingEdges.size > 0 || this.levelDirty || this.joining !== null || this.wanted.length > 0 || this.leaving.length > 0;
  }

  // --- renderer -----------------------------------------------------------

  attach(renderer: SceneRenderer): void {
    this.renderer = renderer;
    if (this.progressive) renderer.setExtent(this.extent());
    this.rebudget();
    this.restyle();
  }

  detach(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    clearTimeout(this.fallback);
    this.frame = 0;
    this.renderer = null;
  }

  /** The reducers' node: its current style at its current position (no allocation). */
  nodeReducer = (_key: string, a: { i: number; x: number; y: number }): NodeStyle => {
    let s = this.nodeStyles[a.i];
    if (!s) {
      // Not styled yet (the renderer asks before the first flush, or the node just joined the view): style it now.
      if (!this.state) return { ...(a as unknown as NodeStyle), hidden: true };
      s = this.nodeStyles[a.i] = nodeStyle(this.keys[a.i], this.graph.getNodeAttributes(this.keys[a.i]), this.state);
    }
    s.x = a.x;
    s.y = a.y;
    this.drawn[a.i] = s;
    return s;
  };

  edgeReducer = (_key: string, a: { j: number }): EdgeStyle => {
    let s = this.edgeStyles[a.j];
    if (!s) {
      if (!this.state) return { color: '#000', size: 0, hidden: true, zIndex: 0 };
      const ea = this.graph.getEdgeAttributes(this.edgeKeys[a.j]!);
      s = this.edgeStyles[a.j] = edgeStyle(ea, this.keys[ea.s], this.keys[ea.t], this.state);
    }
    return s;
  };

  // --- status ---------------------------------------------------------------

  status(): SceneStatus {
    if (this.statusCache) return this.statusCache;
    const drawn = countDrawn(this.vis, this.kind);
    let visible = 0;
    for (let i = 0; i < this.passes.length; i++) if (this.passes[i] && this.kind[i] !== KIND_SUPER) visible++;
    const f = this.built ? this.focus : null;
    const step = this.input?.focusStep ?? 0;
    const expanded: string[] = [];
    const collapsed: string[] = [];
    for (const [i, o] of this.overrides) (o === 'expanded' ? expanded : collapsed).push(this.clusters.list[i].id);
    this.statusCache = {
      level: this.level,
      ready: this.built,
      visible,
      matches: this.matches ? this.matches.size : null,
      drawnNodes: drawn.nodes,
      drawnConcepts: drawn.concepts,
      drawnSections: drawn.sections,
      drawnClusters: drawn.clusters,
      expanded,
      collapsed,
      focus: f
        ? {
            maxRing: f.maxRing,
            perRing: f.perRing,
            step: Math.min(step, f.maxRing),
            shown: [...f.ring.values()].filter((r) => r <= step).length,
            seeds: f.seeds.length,
            loaded: f.loaded.length,
            relevant: f.relevant.length,
            unlinked: f.unlinked.length,
          }
        : null,
    };
    return this.statusCache;
  }

  /** Whether any member of the cluster (by index) is drawn. */
  isDrawnCluster(index: number): boolean {
    return this.clusterDrawn[index] === 1;
  }

  /** Whether the person expanded the cluster (by index) by hand. */
  isOpenedByHand(index: number): boolean {
    return this.overrides.get(index) === 'expanded';
  }

  /** Whether the node is drawn now (in the view and visible). */
  isDrawn(key: string): boolean {
    return this.view.hasNode(key) && this.vis[this.view.getNodeAttribute(key, 'i')] === 1;
  }

  /** Keys of what is drawn (for fitting the camera). */
  drawnKeys(): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.vis.length; i++) if (this.vis[i] && this.view.hasNode(this.keys[i])) out.push(this.keys[i]);
    return out;
  }

  /** Keys of a cluster's members (to fit the camera on an expanded cluster). */
  membersOf(clusterId: string): string[] {
    return this.clusters.byId.get(clusterId)?.members ?? [];
  }

}
