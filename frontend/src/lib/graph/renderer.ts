// The sigma renderer over a Loom graph. Loaded with a dynamic import, only
// where WebGL exists: sigma touches WebGLRenderingContext when it loads.
import Sigma from 'sigma';
import { EdgeLineProgram } from 'sigma/rendering';
import type { LoomGraph, EdgeAttrs, NodeAttrs } from './build';
import { makeDrawHover, makeDrawLabel } from './draw';
import NodeRingProgram from './ring-program';
import { edgeStyle, nodeStyle, NODE_TYPE, type StyleState } from './style';

export type LoomSigma = Sigma<NodeAttrs, EdgeAttrs>;

export interface RendererEvents {
  clickNode(id: string): void;
  clickStage(): void;
  enterNode(id: string, x: number, y: number): void;
  leaveNode(id: string): void;
}

export function createRenderer(
  container: HTMLElement,
  graph: LoomGraph,
  getState: () => StyleState,
  events: RendererEvents,
): LoomSigma {
  const getTheme = () => getState().theme;
  const big = graph.size > 20000;
  const sigma = new Sigma<NodeAttrs, EdgeAttrs>(graph, container, {
    defaultNodeType: NODE_TYPE,
    defaultEdgeType: 'line',
    nodeProgramClasses: { [NODE_TYPE]: NodeRingProgram },
    edgeProgramClasses: { line: EdgeLineProgram },
    // EdgeLineProgram draws 1px lines cheaply; fine for tens of thousands.
    hideEdgesOnMove: big,
    hideLabelsOnMove: big,
    renderEdgeLabels: false,
    enableEdgeEvents: false,
    zIndex: true,
    labelFont: 'system-ui, -apple-system, "Segoe UI", Cantarell, "DejaVu Sans", sans-serif',
    labelSize: 12,
    labelWeight: '500',
    labelDensity: 0.5,
    labelGridCellSize: 90,
    labelRenderedSizeThreshold: 4.5,
    defaultDrawNodeLabel: makeDrawLabel(getTheme),
    defaultDrawNodeHover: makeDrawHover(getTheme),
    minCameraRatio: 0.01,
    maxCameraRatio: 10,
    stagePadding: 24,
    nodeReducer: (id, a) => nodeStyle(id, a as NodeAttrs, getState()),
    edgeReducer: (_edge, a) => edgeStyle(a as EdgeAttrs, a.from as string, a.to as string, getState()),
  });

  sigma.on('clickNode', ({ node }) => events.clickNode(node));
  sigma.on('clickStage', () => events.clickStage());
  sigma.on('enterNode', ({ node, event }) => events.enterNode(node, event.x, event.y));
  sigma.on('leaveNode', ({ node }) => events.leaveNode(node));
  return sigma;
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
