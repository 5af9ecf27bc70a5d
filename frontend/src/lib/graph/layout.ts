// ForceAtlas2 in a Web Worker for a bounded time, then stop.
import FA2Layout from 'graphology-layout-forceatlas2/worker';
import { inferSettings } from 'graphology-layout-forceatlas2';
import type { ForceAtlas2Settings } from 'graphology-layout-forceatlas2';
import Graph from 'graphology';
import type { LoomGraph } from './build';

/** What the layout moves: x and y, and the edges' weights. */
export type LayoutGraph = Graph<{ x: number; y: number }, { weight: number }>;

/**
 * The graph the layout runs on: the engine's nodes and edges with their
 * positions, without super-nodes and the links between them (those follow
 * their clusters' members, scene.setHome). Kept apart from the drawn graph
 * so the layout's every step does not repaint it; the view copies the
 * positions over a few times a second.
 */
export function layoutGraphOf(graph: LoomGraph): LayoutGraph {
  const out: LayoutGraph = new Graph({ multi: true, type: 'mixed', allowSelfLoops: false });
  graph.forEachNode((key, a) => {
    if (a.kind !== 'cluster') out.addNode(key, { x: a.x, y: a.y });
  });
  // Edges within a cluster pull harder and those between clusters less, so
  // the clusters the engine found come apart on the stage.
  graph.forEachEdge((_key, a, source, target, sa, ta) => {
    if (a.kind === 'cluster') return;
    const k = sa.cluster < 0 || ta.cluster < 0 ? 1 : sa.cluster === ta.cluster ? 2 : 0.3;
    out.addEdge(source, target, { weight: a.weight * k });
  });
  return out;
}

/** Graphs above this many nodes are not laid out by themselves (clusters place them; the person can still run it). */
export const AUTO_LAYOUT_LIMIT = 20000;

/** How long the layout runs before it stops by itself (ms). */
export function layoutDuration(order: number): number {
  if (order <= 1000) return 2000;
  if (order <= 5000) return 3000;
  return 4000;
}

/** FA2 settings for a graph of this size: Barnes-Hut above 1,000 nodes. */
export function layoutSettings(graph: LoomGraph | LayoutGraph): ForceAtlas2Settings {
  const inferred = inferSettings(graph);
  // The layout gets a few seconds, not thousands of iterations: a low
  // slowDown lets nodes travel in that time (FA2's own inference, 1 + ln n,
  // barely moves 10,000 nodes in 40 iterations), and a coarser Barnes-Hut
  // above 5,000 nodes doubles the iterations per second. LinLog was tried:
  // it spreads the graph first and needs far more iterations than it gets.
  return {
    ...inferred,
    slowDown: Math.max(1, Math.log10(Math.max(1, graph.order)) - 2),
    barnesHutOptimize: graph.order > 1000,
    barnesHutTheta: graph.order > 5000 ? 1 : 0.6,
    linLogMode: false,
    edgeWeightInfluence: 0.5,
    adjustSizes: false,
  };
}

/** Runs the layout in a worker; reports when it starts and stops. */
export class LayoutRunner {
  private layout: FA2Layout | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly graph: LayoutGraph,
    private readonly onchange: (running: boolean) => void,
  ) {}

  get running(): boolean {
    return this.layout?.isRunning() ?? false;
  }

  start(duration = layoutDuration(this.graph.order)): void {
    this.stop();
    this.layout ??= new FA2Layout(this.graph, { settings: layoutSettings(this.graph), getEdgeWeight: 'weight' });
    this.layout.start();
    this.onchange(true);
    this.timer = setTimeout(() => this.stop(), duration);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.layout?.isRunning()) {
      this.layout.stop();
      this.onchange(false);
    }
  }

  kill(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.layout?.kill();
    this.layout = null;
  }
}
