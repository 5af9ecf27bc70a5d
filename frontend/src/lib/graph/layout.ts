// ForceAtlas2 in a Web Worker for a bounded time, then stop.
import FA2Layout from 'graphology-layout-forceatlas2/worker';
import { inferSettings } from 'graphology-layout-forceatlas2';
import type { ForceAtlas2Settings } from 'graphology-layout-forceatlas2';
import type { LoomGraph } from './build';

/** How long the layout runs before it stops by itself (ms). */
export function layoutDuration(order: number): number {
  if (order <= 1000) return 2000;
  if (order <= 5000) return 3000;
  return 4000;
}

/** FA2 settings for a graph of this size: Barnes-Hut above 1,000 nodes. */
export function layoutSettings(graph: LoomGraph): ForceAtlas2Settings {
  const inferred = inferSettings(graph);
  return {
    ...inferred,
    barnesHutOptimize: graph.order > 1000,
    barnesHutTheta: 0.6,
    edgeWeightInfluence: 0.5,
    adjustSizes: false,
  };
}

/** Runs the layout in a worker; reports when it starts and stops. */
export class LayoutRunner {
  private layout: FA2Layout | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly graph: LoomGraph,
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
