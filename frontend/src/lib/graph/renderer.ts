// The sigma renderer over a Loom graph scene. Loaded with a dynamic import,
// only where WebGL exists: sigma touches WebGLRenderingContext when it loads.
//
// Besides sigma's own drawing it adds: labels placed without overlap by the
// scene's priorities (labels.ts) instead of sigma's label grid; each open
// cluster's territory (a faint disc with its name) under the nodes; edges
// left out while the camera moves and back when it rests; and no GPU
// picking (a synchronous readPixels) while the camera moves, so a drag or a
// wheel never waits on the GPU.
import Sigma from 'sigma';
import { EdgeLineProgram } from 'sigma/rendering';
import type { LoomGraph, EdgeAttrs, NodeAttrs } from './build';
import { clusterColour } from './clusters';
import { makeDrawHover } from './draw';
import { densityParams, LabelGrid, WidthCache } from './labels';
import NodeRingProgram from './ring-program';
import type { GraphScene, SceneRenderer } from './scene';
import { NODE_TYPE, PRIORITY } from './style';
import { clipLabel } from './draw';
import type { GraphTheme } from './theme';
import { mix, withAlpha } from './colour';
import { KIND_SUPER } from './lod';

export type LoomSigma = Sigma<NodeAttrs, EdgeAttrs>;

export interface RendererEvents {
  clickNode(id: string): void;
  clickStage(): void;
  enterNode(id: string, x: number, y: number): void;
  leaveNode(id: string): void;
  /** A click on an open cluster's name (its territory's title). */
  clickClusterTitle?(clusterId: string): void;
  /** The camera moved (every frame it does). */
  camera?(ratio: number): void;
  /** The camera came to rest. */
  rest?(): void;
}

export interface RendererOptions {
  /** Label density, 0 … 1 (read every frame). */
  labelDensity(): number;
  theme(): GraphTheme;
  /** The cluster whose card is open (its territory is drawn). */
  activeCluster?(): string | null;
  /** The focused view's stepper: rings beyond it are not drawn. */
  focusStep?(): number;
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Cantarell, "DejaVu Sans", sans-serif';
const LABEL_SIZE = 12;
const TITLE_SIZE = 13;

export interface Renderer {
  sigma: LoomSigma;
  api: SceneRenderer;
  /** Labels drawn in the last frame (tests and the harness read it). */
  lastLabels(): { nodes: number; titles: number; overlaps: number };
  kill(): void;
}

export function createRenderer(container: HTMLElement, scene: GraphScene, events: RendererEvents, opts: RendererOptions): Renderer {
  const graph: LoomGraph = scene.view;
  const sigma = new Sigma<NodeAttrs, EdgeAttrs>(graph, container, {
    defaultNodeType: NODE_TYPE,
    defaultEdgeType: 'line',
    nodeProgramClasses: { [NODE_TYPE]: NodeRingProgram },
    edgeProgramClasses: { line: EdgeLineProgram },
    // Left out while moving by hand below (sigma's own setting re-processes
    // the whole graph after every drag).
    hideEdgesOnMove: false,
    hideLabelsOnMove: false,
    renderLabels: false,
    renderEdgeLabels: false,
    enableEdgeEvents: false,
    zIndex: true,
    labelFont: FONT,
    labelSize: LABEL_SIZE,
    labelWeight: '500',
    defaultDrawNodeHover: makeDrawHover(opts.theme),
    // A pane squeezed to nothing for a moment must not throw: the next resize draws again.
    allowInvalidContainer: true,
    minCameraRatio: 0.005,
    maxCameraRatio: 10,
    stagePadding: 24,
    nodeReducer: scene.nodeReducer as never,
    edgeReducer: scene.edgeReducer as never,
  });

  // --- moving: no edges, no GPU picking -------------------------------------
  const internal = sigma as unknown as {
    settings: { hideEdgesOnMove: boolean };
    needToProcess: boolean;
    hoveredNode: string | null;
    getNodeAtPosition(p: { x: number; y: number }): string | null;
    unbindGraphHandlers(): void;
    bindGraphHandlers(): void;
  };
  const captor = sigma.getMouseCaptor() as unknown as { isMouseDown: boolean; isMoving: boolean; draggedEvents: number };
  const camera = sigma.getCamera();
  let hovered: string | null = null;
  // Not the captor's wheel direction: it stays set when another animation cuts the wheel's short.
  const moving = () => camera.isAnimated() || captor.isMoving || captor.draggedEvents > 0 || captor.isMouseDown;
  const pick = internal.getNodeAtPosition.bind(sigma);
  internal.getNodeAtPosition = (p) => (moving() ? hovered : pick(p));
  // sigma's mouse captor re-processes the whole graph after a drag when
  // edges hide on move; here they come back with a plain render instead.
  const getSetting = sigma.getSetting.bind(sigma);
  (sigma as unknown as { getSetting: typeof getSetting }).getSetting = ((key: Parameters<typeof getSetting>[0]) =>
    key === 'hideEdgesOnMove' ? false : getSetting(key)) as typeof getSetting;
  // Edges stay out only while the camera moves in a big graph, where they are most of what the GPU draws.
  const bigEdges = () => graph.size > 8000;
  let restTimer: ReturnType<typeof setTimeout> | null = null;
  camera.on('updated', (state) => {
    events.camera?.(state.ratio);
    if (bigEdges()) internal.settings.hideEdgesOnMove = true;
    if (restTimer) clearTimeout(restTimer);
    restTimer = setTimeout(function rest() {
      if (moving()) {
        restTimer = setTimeout(rest, 140);
        return;
      }
      restTimer = null;
      if (internal.settings.hideEdgesOnMove) {
        internal.settings.hideEdgesOnMove = false;
        sigma.scheduleRender();
      }
      events.rest?.();
    }, 140);
  });

  // --- labels and territories ------------------------------------------------
  const grid = new LabelGrid(32);
  const canvases = sigma.getCanvases();
  const labelCtx = canvases.labels.getContext('2d')!;
  const underCtx = canvases.edgeLabels.getContext('2d')!;
  const fontOf = (size: number, weight: string) => `${weight} ${size}px ${FONT}`;
  labelCtx.font = fontOf(LABEL_SIZE, '500');
  const widths = new WidthCache((t) => labelCtx.measureText(t).width);
  labelCtx.font = fontOf(TITLE_SIZE, '650');
  const titleWidths = new WidthCache((t) => labelCtx.measureText(t).width);
  const spot = { x: 0, y: 0 };
  let titles: { id: string; x: number; y: number; w: number; h: number }[] = [];
  const focusStep = () => opts.focusStep?.() ?? Infinity;
  let last = { nodes: 0, titles: 0, overlaps: 0 };

  function drawLayer() {
    const theme = opts.theme();
    const { width, height } = sigma.getDimensions();
    const dens = densityParams(opts.labelDensity());
    grid.reset(width, height);
    // Framed graph → viewport is affine: three points give it.
    const o = sigma.framedGraphToViewport({ x: 0, y: 0 });
    const ex = sigma.framedGraphToViewport({ x: 1, y: 0 });
    const ey = sigma.framedGraphToViewport({ x: 0, y: 1 });
    const ax = ex.x - o.x,
      bx = ey.x - o.x,
      ay = ex.y - o.y,
      by = ey.y - o.y;
    const k = sigma.scaleSize(1);
    const budget = dens.coverage * width * height;
    const modes = scene.modes();
    titles = [];
    let placed = 0;

    const drawn = scene.drawn;
    const order = scene.labelOrder;
    const kind = scene.kind;
    // Super-nodes are obstacles: no label runs over one.
    for (const i of scene.superIndices) {
      const st = drawn[i];
      if (!st || st.hidden) continue;
      const vx = o.x + ax * st.x + bx * st.y;
      const vy = o.y + ay * st.x + by * st.y;
      const r = st.size * k;
      if (vx + r < 0 || vx - r > width || vy + r < 0 || vy - r > height) continue;
      grid.add(vx - r * 0.8, vy - r * 0.8, r * 1.6, r * 1.6, i);
    }
    grid.covered = 0;

    // The focused view's rings.
    const rings = scene.focus ? scene.ringGuides : null;
    if (rings) {
      const c = sigma.graphToViewport(rings.centre);
      underCtx.save();
      underCtx.lineWidth = 1;
      underCtx.strokeStyle = withAlpha(theme.muted, 0.35);
      underCtx.fillStyle = theme.muted;
      underCtx.font = fontOf(11, '600');
      rings.radii.forEach((gr, ring) => {
        if (ring === 0 || ring > focusStep()) return;
        const rim = sigma.graphToViewport({ x: rings.centre.x + gr, y: rings.centre.y });
        const r = Math.hypot(rim.x - c.x, rim.y - c.y);
        underCtx.setLineDash([4, 4]);
        underCtx.beginPath();
        underCtx.arc(c.x, c.y, r, 0, Math.PI * 2);
        underCtx.stroke();
        underCtx.setLineDash([]);
        underCtx.fillText(`${ring}`, c.x + 3, c.y - r - 3);
      });
      underCtx.restore();
    }

    // Open clusters: their name over their centre; those opened by hand
    // (or whose card is open) also get a faint disc under their members.
    if (scene.hasClusters && !rings) {
      underCtx.save();
      for (const c of scene.clusters.list) {
        if (modes[c.index] === 'collapsed') continue;
        const d = scene.discs.get(c.id);
        if (!d || !scene.isDrawnCluster(c.index)) continue;
        const centre = sigma.graphToViewport({ x: d.x, y: d.y });
        const rim = sigma.graphToViewport({ x: d.x + d.r, y: d.y });
        const r = Math.max(8, Math.hypot(rim.x - centre.x, rim.y - centre.y) + 10);
        if (centre.x + r < 0 || centre.x - r > width || centre.y + r < 0 || centre.y - r > height) continue;
        const colour = clusterColour(c.colour, theme.dark);
        if (scene.isOpenedByHand(c.index) || opts.activeCluster?.() === c.id) {
          underCtx.beginPath();
          underCtx.arc(centre.x, centre.y, r, 0, Math.PI * 2);
          underCtx.fillStyle = withAlpha(colour, theme.dark ? 0.09 : 0.07);
          underCtx.fill();
          underCtx.lineWidth = 1.5;
          underCtx.strokeStyle = withAlpha(colour, 0.45);
          underCtx.stroke();
        }
        const text = clipLabel(c.name, 40);
        const w = titleWidths.width(text) + 22;
        const h = TITLE_SIZE + 8;
        const tx = Math.min(Math.max(centre.x - w / 2, 4), width - w - 4);
        const ty = Math.min(Math.max(centre.y - h / 2, 4), height - h - 4);
        if (!grid.free(tx, ty, w, h, 4)) continue;
        grid.add(tx, ty, w, h);
        titles.push({ id: c.id, x: tx, y: ty, w, h });
      }
      underCtx.restore();
    }

    // The bigger nodes on the stage are obstacles too (after the titles, which may lie over a cluster's members).
    let obstacles = 0;
    for (let n = 0; n < order.length && obstacles < 1500; n++) {
      const i = order[n];
      if (kind[i] === KIND_SUPER) continue;
      const st = drawn[i];
      if (!st || st.hidden) continue;
      const r = st.size * k;
      if (r < 4) continue;
      const vx = o.x + ax * st.x + bx * st.y;
      const vy = o.y + ay * st.x + by * st.y;
      if (vx + r < 0 || vx - r > width || vy + r < 0 || vy - r > height) continue;
      grid.add(vx - r * 0.75, vy - r * 0.75, r * 1.5, r * 1.5, i);
      obstacles++;
    }
    grid.covered = 0;

    // Node labels: forced ones first (scene's labelOrder is by class and size; a first pass takes the forced).
    let overlaps = 0;
    labelCtx.lineJoin = 'round';
    for (let pass = 0; pass < 2; pass++) {
      for (let n = 0; n < order.length; n++) {
        const i = order[n];
        const st = drawn[i];
        if (!st || st.hidden || !st.label) continue;
        const forced = st.forceLabel || st.priority >= PRIORITY.forced - 10;
        if ((pass === 0) !== forced) continue;
        if (pass === 1 && grid.covered > budget) break;
        const vx = o.x + ax * st.x + bx * st.y;
        const vy = o.y + ay * st.x + by * st.y;
        const size = st.size * k;
        if (vx < -200 || vx > width + 20 || vy < -20 || vy > height + 20) continue;
        const isSuper = kind[i] === KIND_SUPER;
        if (!forced && !isSuper && size < dens.minNodeSize) continue;
        const text = clipLabel(st.label);
        const w = (isSuper ? titleWidths.width(text) : widths.width(text)) + 4;
        const h = (isSuper ? TITLE_SIZE : LABEL_SIZE) + 3;
        if (!grid.tryPlace(vx, vy, size, w, h, forced ? 1 : dens.padding, spot, i)) {
          if (forced) overlaps++;
          continue;
        }
        drawLabel(spot.x, spot.y, w, h, text, isSuper, theme);
        placed++;
      }
    }
    // Titles last, over the territories (drawn on the label canvas so nodes do not cover them).
    const quiet = Boolean(scene.styleState?.selected || scene.styleState?.query);
    labelCtx.globalAlpha = quiet ? 0.6 : 1;
    for (const t of titles) {
      const c = scene.clusters.byId.get(t.id)!;
      const colour = clusterColour(c.colour, theme.dark);
      labelCtx.fillStyle = withAlpha(theme.surface, 0.92);
      labelCtx.strokeStyle = colour;
      labelCtx.lineWidth = 1.5;
      labelCtx.beginPath();
      labelCtx.roundRect(t.x, t.y, t.w, t.h, t.h / 2);
      labelCtx.fill();
      labelCtx.stroke();
      labelCtx.fillStyle = colour;
      labelCtx.beginPath();
      labelCtx.arc(t.x + 9, t.y + t.h / 2, 3.5, 0, Math.PI * 2);
      labelCtx.fill();
      labelCtx.font = fontOf(TITLE_SIZE, '650');
      labelCtx.fillStyle = theme.text;
      labelCtx.fillText(clipLabel(c.name, 40), t.x + 16, t.y + t.h / 2 + TITLE_SIZE / 3);
    }
    labelCtx.globalAlpha = 1;
    last = { nodes: placed, titles: titles.length, overlaps };
  }

  let currentFont = '';
  function drawLabel(x: number, y: number, _w: number, h: number, text: string, isSuper: boolean, theme: GraphTheme) {
    const font = isSuper ? fontOf(TITLE_SIZE, '650') : fontOf(LABEL_SIZE, '500');
    if (font !== currentFont) {
      labelCtx.font = font;
      currentFont = font;
    }
    const ty = y + h / 2 + (isSuper ? TITLE_SIZE : LABEL_SIZE) / 3;
    labelCtx.lineWidth = isSuper ? 4 : 3;
    labelCtx.strokeStyle = theme.bg;
    labelCtx.strokeText(text, x + 2, ty);
    labelCtx.fillStyle = isSuper ? theme.text : mix(theme.text, theme.bg, 0.08);
    labelCtx.fillText(text, x + 2, ty);
  }

  sigma.on('afterRender', () => {
    currentFont = '';
    drawLayer();
  });

  sigma.on('clickNode', ({ node }) => events.clickNode(node));
  sigma.on('clickStage', ({ event }) => {
    const t = titles.find((b) => event.x >= b.x && event.x <= b.x + b.w && event.y >= b.y && event.y <= b.y + b.h);
    if (t && events.clickClusterTitle) events.clickClusterTitle(t.id);
    else events.clickStage();
  });
  sigma.on('enterNode', ({ node, event }) => {
    hovered = node;
    events.enterNode(node, event.x, event.y);
  });
  sigma.on('leaveNode', ({ node }) => {
    hovered = null;
    events.leaveNode(node);
  });

  const api: SceneRenderer = {
    moving,
    edgesHidden: () => internal.settings.hideEdgesOnMove,
    viewRect() {
      const { width, height } = sigma.getDimensions();
      const a = sigma.viewportToGraph({ x: 0, y: 0 });
      const b = sigma.viewportToGraph({ x: width, y: height });
      return { minX: Math.min(a.x, b.x), maxX: Math.max(a.x, b.x), minY: Math.min(a.y, b.y), maxY: Math.max(a.y, b.y) };
    },
    batch(change) {
      // sigma re-indexes the whole graph for every node or edge dropped: unhooked, the
      // change is made, then one refresh takes it all in.
      internal.unbindGraphHandlers();
      try {
        change();
      } finally {
        internal.bindGraphHandlers();
        if (internal.hoveredNode && !graph.hasNode(internal.hoveredNode)) internal.hoveredNode = null;
        sigma.refresh({ schedule: true });
      }
    },
    setExtent(extent) {
      sigma.setCustomBBox(extent);
      sigma.refresh({ schedule: true });
    },
    refreshItems(nodes, edges) {
      // Items that joined the graph since the last frame have no place in the programs yet: the
      // next frame processes everything then anyway, so these need not be placed now.
      sigma.refresh({ partialGraph: { nodes, edges }, skipIndexation: !internal.needToProcess, schedule: true });
    },
    ratio: () => camera.getState().ratio,
    size: () => sigma.getDimensions(),
    fit(keys, duration = 500) {
      // Positions written since the last frame are not framed yet: fit once they are.
      if (internal.needToProcess) sigma.once('afterRender', () => fitNodes(sigma, keys, duration));
      else fitNodes(sigma, keys, duration);
    },
    redraw: () => sigma.scheduleRender(),
  };

  return {
    sigma,
    api,
    lastLabels: () => last,
    kill() {
      if (restTimer) clearTimeout(restTimer);
      sigma.kill();
    },
  };
}

/** Moves the camera to a node, keeping the zoom unless it is far out. */
export function focusNode(sigma: LoomSigma, id: string, duration = 500): void {
  const d = sigma.getNodeDisplayData(id);
  if (!d) return;
  const ratio = Math.min(sigma.getCamera().getState().ratio, 0.5);
  void sigma.getCamera().animate({ x: d.x, y: d.y, ratio }, { duration });
}

/** Fits the camera around the given nodes (framed-graph coordinates). */
export function fitNodes(sigma: LoomSigma, ids: Iterable<string>, duration = 500): boolean {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const id of ids) {
    const d = sigma.getNodeDisplayData(id);
    if (!d) continue;
    minX = Math.min(minX, d.x);
    maxX = Math.max(maxX, d.x);
    minY = Math.min(minY, d.y);
    maxY = Math.max(maxY, d.y);
  }
  if (minX === Infinity) return false;
  const span = Math.max(maxX - minX, maxY - minY, 0.02);
  void sigma
    .getCamera()
    .animate({ x: (minX + maxX) / 2, y: (minY + maxY) / 2, ratio: Math.min(1.2, span * 1.3) }, { duration });
  return true;
}
