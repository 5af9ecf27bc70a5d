// Label placement without overlap: candidates in priority order, each
// placed to the right of its node (or left, above, below) where its box
// meets no box placed before, until the density's share of the stage is
// used. Runs every frame the renderer draws, so it allocates nothing per
// candidate: an occupancy grid of cells holding the boxes that touch them,
// reset by a generation counter.

export interface LabelBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** How much of the stage labels may cover and how far apart they stay, from the density setting (0 … 1). */
export function densityParams(density: number): { padding: number; coverage: number; minNodeSize: number } {
  const d = Math.min(1, Math.max(0, density));
  return {
    // Sparse: wide margins, a twelfth of the stage; dense: tight, a third.
    padding: Math.round(14 - 11 * d),
    coverage: 0.08 + 0.27 * d,
    // The smallest drawn node (px radius) whose label competes, unless forced.
    minNodeSize: 7 - 4.5 * d,
  };
}

/**
 * A grid of the stage's cells, each listing the boxes that touch it.
 * tryPlace() checks a box against the boxes in its cells and keeps it when
 * none overlaps.
 */
export class LabelGrid {
  private readonly cell: number;
  private cols = 0;
  private rows = 0;
  private cells: number[][] = [];
  private stamp: Uint32Array = new Uint32Array(0);
  private gen = 1;
  private boxes: Float64Array = new Float64Array(5 * 256);
  private count = 0;
  private width = 0;
  private height = 0;
  /** Area covered by the boxes placed so far. */
  covered = 0;

  constructor(cell = 32) {
    this.cell = cell;
  }

  /** Starts a frame on a stage of this size. */
  reset(width: number, height: number): void {
    this.width = width;
    this.height = height;
    const cols = Math.max(1, Math.ceil(width / this.cell) + 2);
    const rows = Math.max(1, Math.ceil(height / this.cell) + 2);
    if (cols !== this.cols || rows !== this.rows) {
      this.cols = cols;
      this.rows = rows;
      this.cells = Array.from({ length: cols * rows }, () => []);
      this.stamp = new Uint32Array(cols * rows);
      this.gen = 1;
    } else {
      this.gen++;
      if (this.gen === 0xffffffff) {
        this.stamp.fill(0);
        this.gen = 1;
      }
    }
    this.count = 0;
    this.covered = 0;
  }

  get placed(): number {
    return this.count;
  }

  /** The i-th placed box. */
  box(i: number): LabelBox {
    const b = this.boxes;
    return { x: b[5 * i], y: b[5 * i + 1], w: b[5 * i + 2], h: b[5 * i + 3] };
  }

  private range(x: number, y: number, w: number, h: number): [number, number, number, number] {
    const c = this.cell;
    const c0 = Math.max(0, Math.floor(x / c) + 1);
    const r0 = Math.max(0, Math.floor(y / c) + 1);
    const c1 = Math.min(this.cols - 1, Math.floor((x + w) / c) + 1);
    const r1 = Math.min(this.rows - 1, Math.floor((y + h) / c) + 1);
    return [c0, r0, c1, r1];
  }

  /** Whether the box (grown by pad on every side) meets no placed box (but those of `owner`, when given). */
  free(x: number, y: number, w: number, h: number, pad = 0, owner = -1): boolean {
    const [c0, r0, c1, r1] = this.range(x - pad, y - pad, w + 2 * pad, h + 2 * pad);
    const b = this.boxes;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const k = r * this.cols + c;
        if (this.stamp[k] !== this.gen) continue;
        for (const i of this.cells[k]) {
          if (owner >= 0 && b[5 * i + 4] === owner) continue;
          const bx = b[5 * i],
            by = b[5 * i + 1],
            bw = b[5 * i + 2],
            bh = b[5 * i + 3];
          if (x - pad < bx + bw && x + w + pad > bx && y - pad < by + bh && y + h + pad > by) return false;
        }
      }
    }
    return true;
  }

  /** Keeps the box (no check); owner: the node it belongs to (a label of that node may overlap it). */
  add(x: number, y: number, w: number, h: number, owner = -1): void {
    if (5 * (this.count + 1) > this.boxes.length) {
      const grown = new Float64Array(this.boxes.length * 2);
      grown.set(this.boxes);
      this.boxes = grown;
    }
    const i = this.count++;
    const b = this.boxes;
    b[5 * i] = x;
    b[5 * i + 1] = y;
    b[5 * i + 2] = w;
    b[5 * i + 3] = h;
    b[5 * i + 4] = owner;
    this.covered += w * h;
    const [c0, r0, c1, r1] = this.range(x, y, w, h);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const k = r * this.cols + c;
        if (this.stamp[k] !== this.gen) {
          this.stamp[k] = this.gen;
          this.cells[k].length = 0;
        }
        this.cells[k].push(i);
      }
    }
  }

  /** Whether the box lies on the stage (a label cut by its edge is not placed there). */
  inside(x: number, y: number, w: number, h: number): boolean {
    return x >= 1 && y >= 1 && x + w <= this.width - 1 && y + h <= this.height - 1;
  }

  /**
   * Places a label of size w×h beside a node at (nx, ny) of radius size:
   * right of it, else left, above, below, on the stage and clear of the
   * boxes placed before. Returns the box's corner in out (x, y) and true,
   * or false when every side is taken.
   */
  tryPlace(nx: number, ny: number, size: number, w: number, h: number, pad: number, out: { x: number; y: number }, owner = -1): boolean {
    const gap = size + 3;
    // right, left, above, below
    for (let side = 0; side < 4; side++) {
      const x = side === 0 ? nx + gap : side === 1 ? nx - gap - w : nx - w / 2;
      const y = side === 2 ? ny - gap - h : side === 3 ? ny + gap : ny - h / 2;
      if (this.inside(x, y, w, h) && this.free(x, y, w, h, pad, owner)) {
        this.add(x, y, w, h);
        out.x = x;
        out.y = y;
        return true;
      }
    }
    return false;
  }
}

/** Caches text widths per font (measureText is the slow part of drawing labels). */
export class WidthCache {
  private readonly map = new Map<string, number>();
  constructor(private readonly measure: (text: string) => number) {}
  width(text: string): number {
    let w = this.map.get(text);
    if (w === undefined) {
      if (this.map.size > 20000) this.map.clear();
      w = this.measure(text);
      this.map.set(text, w);
    }
    return w;
  }
}
