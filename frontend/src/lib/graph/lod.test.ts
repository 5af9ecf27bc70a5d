// Clusters, levels of detail, the question's focus, label placement and the
// scene that ties them together (without a renderer: jsdom has no WebGL).
import { describe, expect, it } from 'vitest';
import { buildGraph, type LoomGraph } from './build';
import {
  CLUSTER_PALETTE_SIZE,
  clusterColour,
  clusterDiscs,
  clusterLayout,
  clusterPalette,
  clusterScope,
  documentsOfClusters,
  indexClusters,
  isSuperKey,
  memberPositions,
  scopeCluster,
  strongestLinks,
  superKey,
  superNodeSize,
} from './clusters';
import { luminance } from './colour';
import { defaultFilters, documentPasses, documentsIn } from './filter';
import { makeFocus, nodesUpTo, ringLayout } from './focus';
import { makeQueryView } from './hops';
import { densityParams, LabelGrid, WidthCache } from './labels';
import {
  budgetFor,
  changed,
  clusterMode,
  computeVisibility,
  countDrawn,
  HOLD,
  KIND_CONCEPT,
  KIND_SECTION,
  KIND_SUPER,
  levelFor,
  ratioFor,
  visibleShare,
} from './lod';
import { GraphScene, Pending, PROGRESSIVE_NODES, VIEW_CAP, type SceneInput, type SceneRenderer } from './scene';
import { makeStyleState, nodeStyle } from './style';
import { addTopicClusters, syntheticGraph } from './synthetic';
import { DARK_DEFAULTS, LIGHT_DEFAULTS, makeTheme } from './theme';
import { candidate, queryFor, small, smallClustered, smallQuery } from './fixtures.test-helpers';
import type { GraphData } from '../../bridge/workbench';

const light = makeTheme(LIGHT_DEFAULTS);
const dark = makeTheme(DARK_DEFAULTS);

/** WCAG contrast ratio of two colours. */
function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

describe('synthetic clusters', () => {
  const data = syntheticGraph({ nodes: 3000, edges: 9000 });

  it('are consistent with the nodes: every cluster named by a node is listed, and the counts add up', () => {
    const ids = new Set(data.clusters.map((c) => c.id));
    expect(data.clusters.length).toBeGreaterThan(5);
    for (const n of data.nodes) if (n.cluster) expect(ids.has(n.cluster)).toBe(true);
    for (const c of data.clusters) {
      const members = data.nodes.filter((n) => n.cluster === c.id);
      expect(members.filter((n) => n.kind === 'concept').length).toBe(c.concepts);
      expect(members.filter((n) => n.kind === 'content').length).toBe(c.sections);
      expect(new Set(members.filter((n) => n.kind === 'content').map((n) => n.document)).size).toBe(c.documents);
      expect(c.id).toBe(`c:${c.top[0]}`);
      expect(c.colour).toBeGreaterThanOrEqual(0);
      expect(c.colour).toBeLessThan(CLUSTER_PALETTE_SIZE);
      expect(c.name.length).toBeGreaterThan(0);
    }
    // Largest first.
    const size = (c: (typeof data.clusters)[number]) => c.concepts + c.sections;
    for (let i = 1; i < data.clusters.length; i++) expect(size(data.clusters[i])).toBeLessThanOrEqual(size(data.clusters[i - 1]));
  });

  it('link clusters by the summed weight of the edges between their members', () => {
    const of = new Map(data.nodes.map((n) => [n.id, n.cluster]));
    const l = data.clusterLinks[0];
    let w = 0,
      n = 0;
    for (const e of data.edges) {
      const a = of.get(e.source);
      const b = of.get(e.target);
      if (a && b && ((a === l.source && b === l.target) || (a === l.target && b === l.source))) {
        w += e.weight;
        n++;
      }
    }
    expect(l.weight).toBeCloseTo(w, 6);
    expect(l.edges).toBe(n);
    for (let i = 1; i < data.clusterLinks.length; i++) expect(data.clusterLinks[i].weight).toBeLessThanOrEqual(data.clusterLinks[i - 1].weight);
  });

  it('can be left out, as an engine without community detection sends', () => {
    const none = syntheticGraph({ nodes: 500, edges: 1500, noClusters: true });
    expect(none.clusters).toEqual([]);
    expect(none.nodes.every((n) => !n.cluster)).toBe(true);
  });

  it('addTopicClusters puts a section in the cluster most of its concepts are in, and leaves one about none out', () => {
    const d: GraphData = {
      generation: 1,
      clusters: [],
      clusterLinks: [],
      nodes: [
        { id: 'x', kind: 'concept', label: 'x' },
        { id: 'y', kind: 'concept', label: 'y' },
        { id: 's', kind: 'content', label: 's', document: 'd' },
        { id: 't', kind: 'content', label: 't', document: 'd' },
      ],
      edges: [
        { source: 's', target: 'x', kind: 'about', weight: 0.9 },
        { source: 's', target: 'y', kind: 'about', weight: 0.2 },
      ],
    };
    addTopicClusters(d, new Map([['x', 0], ['y', 1]]));
    expect(d.nodes.find((n) => n.id === 's')!.cluster).toBe('c:x');
    expect(d.nodes.find((n) => n.id === 't')!.cluster).toBeUndefined();
    expect(d.clusterLinks).toEqual([{ source: 'c:x', target: 'c:y', weight: 0.2, edges: 1 }]);
  });
});

describe('clusters', () => {
  it('index the members present, tolerate unknown and empty clusters, and name the unnamed', () => {
    const data: GraphData = {
      ...smallClustered,
      nodes: [...smallClustered.nodes, { id: 'Z', kind: 'concept', label: 'Stray', cluster: 'c:nowhere' }],
      clusters: [...smallClustered.clusters, { id: 'c:empty', name: 'Empty', colour: 1, concepts: 0, sections: 0, documents: 0, top: [] }],
      clusterLinks: [...smallClustered.clusterLinks, { source: 'c:A', target: 'c:gone', weight: 9, edges: 1 }],
    };
    const idx = indexClusters(data);
    expect(idx.list.map((c) => c.id)).toEqual(['c:A', 'c:B']);
    expect(idx.list[0].members).toEqual(['A', 's1', 's3', 's6']); // concepts first
    expect(idx.list[0].concepts).toBe(1);
    expect(idx.list[0].sections).toBe(3);
    expect([...idx.list[0].documents].sort()).toEqual(['a.md', 'b.md', 'c.md']);
    expect(idx.list[1].name).toBe('Token budget'); // from its top concept
    expect(idx.of.get('s4')).toBe(1);
    expect(idx.of.has('Z')).toBe(false);
    expect(idx.unclustered).toBe(4); // C s5 s7 Z
    expect(idx.links).toEqual([smallClustered.clusterLinks[0]]); // the link to a missing cluster is dropped
    expect(indexClusters(small).list).toEqual([]);
  });

  it('keeps each cluster’s strongest links and the strongest overall', () => {
    const links = [
      { source: 'a', target: 'b', weight: 10, edges: 1 },
      { source: 'a', target: 'c', weight: 9, edges: 1 },
      { source: 'a', target: 'd', weight: 8, edges: 1 },
      { source: 'b', target: 'c', weight: 1, edges: 1 },
      { source: 'e', target: 'a', weight: 0.5, edges: 1 },
    ];
    // Each end's strongest: a–b (a's, b's), a–c (c's), a–d (d's), e–a (e's); b–c is no one's first.
    expect(strongestLinks(links, 1, 1).map((l) => l.weight)).toEqual([10, 9, 8, 0.5]);
    expect(strongestLinks(links, 1, 4).map((l) => l.weight)).toEqual([10, 9, 8, 1, 0.5]);
    expect(strongestLinks(links, 5, 0)).toHaveLength(5);
  });

  it('lays clusters out deterministically, apart from one another', () => {
    const data = syntheticGraph({ nodes: 4000, edges: 12000 });
    const idx = indexClusters(data);
    const a = clusterLayout(idx);
    expect([...a.entries()]).toEqual([...clusterLayout(idx).entries()]);
    const discs = [...a.values()];
    for (let i = 0; i < discs.length; i++)
      for (let j = i + 1; j < discs.length; j++) {
        const d = Math.hypot(discs[i].x - discs[j].x, discs[i].y - discs[j].y);
        expect(d).toBeGreaterThan((discs[i].r + discs[j].r) * 0.98);
      }
  });

  it('places members inside their disc, concepts in the middle, a document’s sections together', () => {
    const out = new Map<string, { x: number; y: number }>();
    const disc = { x: 10, y: -5, r: 20 };
    const sections = Array.from({ length: 40 }, (_, k) => ({ id: `s${k}`, document: k < 20 ? 'a' : 'b' }));
    memberPositions(disc, ['c1', 'c2', 'c3'], sections, out);
    const dist = (id: string) => Math.hypot(out.get(id)!.x - disc.x, out.get(id)!.y - disc.y);
    for (const id of out.keys()) expect(dist(id)).toBeLessThanOrEqual(disc.r + 1e-9);
    const maxConcept = Math.max(...['c1', 'c2', 'c3'].map(dist));
    const minSection = Math.min(...sections.map((s) => dist(s.id)));
    expect(maxConcept).toBeLessThan(minSection);
    // Document a's sections share a sector: their angles span about half the circle, not all of it.
    const angles = sections.slice(0, 20).map((s) => Math.atan2(out.get(s.id)!.y - disc.y, out.get(s.id)!.x - disc.x));
    const spread = Math.max(...angles) - Math.min(...angles);
    expect(spread).toBeLessThan(Math.PI * 1.1);
  });

  it('measures a cluster’s centre and reach from its members', () => {
    const g = buildGraph(smallClustered, undefined, indexClusters(smallClustered));
    const idx = indexClusters(smallClustered);
    const discs = clusterDiscs(idx, (id) => g.getNodeAttributes(id));
    const a = discs.get('c:A')!;
    const xs = ['A', 's1', 's3', 's6'].map((id) => g.getNodeAttribute(id, 'x'));
    expect(a.x).toBeCloseTo(xs.reduce((p, q) => p + q, 0) / 4);
    expect(a.r).toBeGreaterThanOrEqual(0);
  });

  it('super-nodes grow with the square root of their members', () => {
    expect(superNodeSize(400) - superNodeSize(100)).toBeCloseTo(superNodeSize(100) - superNodeSize(0), 5);
    expect(superNodeSize(1e9)).toBe(40);
    expect(isSuperKey(superKey('c:x'))).toBe(true);
    expect(isSuperKey('c-123')).toBe(false);
  });

  it('scopes a question to a cluster', () => {
    expect(clusterScope('c:abc')).toBe('cluster:c:abc');
    expect(scopeCluster('cluster:c:abc')).toBe('c:abc');
    expect(scopeCluster('notes')).toBeNull();
    expect(scopeCluster('')).toBeNull();
  });

  it('has twelve distinct colours per theme, each readable against its background', () => {
    for (const [t, bg] of [
      [false, LIGHT_DEFAULTS.bg],
      [true, DARK_DEFAULTS.bg],
    ] as const) {
      const p = clusterPalette(t);
      expect(p).toHaveLength(CLUSTER_PALETTE_SIZE);
      expect(new Set(p).size).toBe(CLUSTER_PALETTE_SIZE);
      for (const c of p) expect(contrast(c, bg)).toBeGreaterThanOrEqual(3);
    }
    expect(clusterColour(13, false)).toBe(clusterPalette(false)[1]);
    expect(clusterColour(-1, true)).toBe(clusterPalette(true)[11]);
    expect(clusterColour(NaN, true)).toBe(clusterPalette(true)[0]);
  });

  it('finds the documents of clusters (for the document list)', () => {
    const idx = indexClusters(smallClustered);
    expect([...documentsOfClusters(idx, ['c:B'])].sort()).toEqual(['a.md', 'b.md']);
    expect(documentsOfClusters(idx, ['nope']).size).toBe(0);
  });
});

describe('levels of detail', () => {
  const budget = { concepts: 150, sections: 300 };
  const library = { concepts: 1000, sections: 2000, clusters: 40 };

  it('a zoomed-out 180-document library shows its clusters; zooming in brings concepts, then sections', () => {
    expect(visibleShare(1)).toBe(1);
    expect(visibleShare(4)).toBe(1);
    expect(visibleShare(0.5)).toBe(0.25);
    expect(levelFor(1, library, budget)).toBe(0);
    expect(levelFor(0.3, library, budget)).toBe(2);
    const big = { concepts: 800, sections: 9200, clusters: 42 };
    expect(levelFor(1, big, budget)).toBe(0);
    expect(levelFor(0.4, big, budget)).toBe(1);
    expect(levelFor(0.15, big, budget)).toBe(2);
    // ratioFor gives the threshold levelFor uses.
    const r1 = ratioFor(1, big, budget);
    expect(levelFor(r1 * 0.99, big, budget)).toBe(1);
    expect(levelFor(r1 * 1.01, big, budget)).toBe(0);
  });

  it('a small library shows everything at once; without clusters there is no level 0', () => {
    expect(levelFor(1, { concepts: 33, sections: 38, clusters: 4 }, budget)).toBe(2);
    expect(levelFor(1, { concepts: 1000, sections: 2000, clusters: 0 }, budget)).toBe(1);
    expect(levelFor(10, { concepts: 0, sections: 0, clusters: 0 }, budget)).toBe(2);
  });

  it('holds a level a little past its threshold (no flicker at the edge)', () => {
    const big = { concepts: 800, sections: 9200, clusters: 42 };
    const r1 = ratioFor(1, big, budget);
    const past = r1 * Math.sqrt((1 + HOLD) / 2); // over the threshold, within the hold
    expect(levelFor(past, big, budget, null)).toBe(0);
    expect(levelFor(past, big, budget, 1)).toBe(1);
    expect(levelFor(r1 * Math.sqrt(HOLD) * 1.01, big, budget, 1)).toBe(0);
  });

  it('budgets follow the stage’s area and the detail setting', () => {
    const base = budgetFor(1000, 700);
    expect(base).toEqual({ concepts: 150, sections: 300 });
    expect(budgetFor(2000, 1400).concepts).toBe(600);
    expect(budgetFor(100, 100).concepts).toBe(150); // a small stage keeps the base budget
    expect(budgetFor(1000, 700, 1).concepts).toBe(600);
    expect(budgetFor(1000, 700, 0).concepts).toBeLessThan(base.concepts);
  });

  it('a cluster’s mode follows the level unless expanded or collapsed by hand', () => {
    expect(clusterMode(0)).toBe('collapsed');
    expect(clusterMode(1)).toBe('concepts');
    expect(clusterMode(2)).toBe('full');
    expect(clusterMode(0, 'expanded')).toBe('full');
    expect(clusterMode(2, 'collapsed')).toBe('collapsed');
  });

  // Nodes: 0 concept (cluster 0), 1 section (cluster 0), 2 super (cluster 0),
  // 3 concept (cluster 1), 4 section (cluster 1), 5 super (cluster 1),
  // 6 concept (none), 7 section (none).
  const kind = Uint8Array.from([KIND_CONCEPT, KIND_SECTION, KIND_SUPER, KIND_CONCEPT, KIND_SECTION, KIND_SUPER, KIND_CONCEPT, KIND_SECTION]);
  const cluster = Int32Array.from([0, 0, 0, 1, 1, 1, -1, -1]);
  const all = new Uint8Array(8).fill(1);
  const vis = (over: Partial<Parameters<typeof computeVisibility>[0]>) =>
    [...computeVisibility({ kind, cluster, passes: all, modes: ['collapsed', 'collapsed'], level: 0, ...over })];

  it('draws a collapsed cluster as its super-node, an open one as its members', () => {
    expect(vis({})).toEqual([0, 0, 1, 0, 0, 1, 0, 0]);
    expect(vis({ modes: ['full', 'collapsed'] })).toEqual([1, 1, 0, 0, 0, 1, 0, 0]);
    expect(vis({ modes: ['concepts', 'concepts'], level: 1 })).toEqual([1, 0, 0, 1, 0, 0, 1, 0]);
    expect(vis({ modes: ['full', 'full'], level: 2 })).toEqual([1, 1, 0, 1, 1, 0, 1, 1]);
  });

  it('without clusters, concepts always and sections from level 2', () => {
    const k = Uint8Array.from([KIND_CONCEPT, KIND_SECTION]);
    const c = Int32Array.from([-1, -1]);
    const one = new Uint8Array(2).fill(1);
    expect([...computeVisibility({ kind: k, cluster: c, passes: one, modes: [], level: 1 })]).toEqual([1, 0]);
    expect([...computeVisibility({ kind: k, cluster: c, passes: one, modes: [], level: 2 })]).toEqual([1, 1]);
  });

  it('filters apply first; forced nodes show at any level; `only` shows just those', () => {
    const passes = Uint8Array.from([1, 0, 1, 1, 1, 1, 1, 1]);
    expect(vis({ passes, forced: [1, 4] })).toEqual([0, 0, 1, 0, 1, 1, 0, 0]); // 1 fails the filters
    const only = Uint8Array.from([0, 1, 1, 0, 1, 0, 0, 0]);
    expect(vis({ only })).toEqual([0, 1, 0, 0, 1, 0, 0, 0]); // no super-nodes in a focus
  });

  it('finds what changed and counts what is drawn', () => {
    expect(changed(Uint8Array.from([1, 0, 1]), Uint8Array.from([1, 1, 0]))).toEqual([1, 2]);
    expect(changed(null, Uint8Array.from([0, 0]))).toEqual([0, 1]);
    expect(countDrawn(Uint8Array.from([1, 1, 1, 0, 0, 1, 0, 0]), kind)).toEqual({ nodes: 2, concepts: 1, sections: 1, clusters: 2 });
  });

  it('marks pending work in a bitmap, taking each once', () => {
    const p = new Pending(5);
    p.add(3);
    p.add(3);
    p.add(1);
    expect(p.size).toBe(2);
    expect([p.take(), p.take(), p.take()]).toEqual([1, 3, -1]);
    p.all();
    expect(p.size).toBe(5);
    const seen = new Set<number>();
    for (let i = p.take(); i >= 0; i = p.take()) seen.add(i);
    expect(seen.size).toBe(5);
  });
});

describe('the question’s focus', () => {
  const g = buildGraph(small);
  const view = makeQueryView(small, smallQuery);

  it('rings by steps from the seeds, with the paths to what was loaded or found relevant', () => {
    // s1 loaded (A–s1), s2 relevant (A–B–s2 or A–s1–s2), s6 a candidate neither loaded nor relevant.
    const f = makeFocus(g, view, ['A']);
    expect(f.seeds).toEqual(['A']);
    expect(f.loaded).toEqual(['s1']);
    expect(f.relevant).toEqual(['s2']);
    expect(f.ring.get('A')).toBe(0);
    expect(f.ring.get('s1')).toBe(1);
    expect(f.ring.get('s2')).toBe(2);
    expect(f.ring.has('s6')).toBe(false);
    expect(f.maxRing).toBe(2);
    expect(f.perRing.reduce((a, b) => a + b, 0)).toBe(f.ring.size);
    // Every node but a seed came in through a parent one ring nearer.
    for (const [id, r] of f.ring) if (r > 0) expect(f.ring.get(f.parent.get(id)!)).toBe(r - 1);
    expect(nodesUpTo(f, 0)).toEqual(new Set(['A']));
    expect(nodesUpTo(f, 1).has('s1')).toBe(true);
  });

  it('puts what no path reaches in an outer ring of its own', () => {
    const q = makeQueryView(small, queryFor([candidate('s7', -1, true, true), candidate('s1', 1, true, false)], { C: 0 }));
    const f = makeFocus(g, q, ['C']);
    expect(f.seeds).toEqual(['C']);
    expect(f.unlinked.sort()).toEqual(['s1', 's7']);
    expect(f.ring.get('s7')).toBe(f.maxRing);
    expect(f.maxRing).toBe(1);
  });

  it('lays the rings out concentrically, nodes never closer than the unit', () => {
    const data = syntheticGraph({ nodes: 3000, edges: 9000 });
    const big = buildGraph(data);
    const seeds = ['c0', 'c5'];
    const cands = data.nodes.filter((n) => n.kind === 'content').slice(0, 120).map((n, k) => candidate(n.id, 2, true, k < 40));
    const f = makeFocus(big, makeQueryView(data, queryFor(cands, { c0: 0, c5: 0 })), seeds);
    expect(f.ring.size).toBeGreaterThan(120);
    const layout = ringLayout(f, { x: 5, y: 5 }, 1);
    const pts = [...layout.positions.values()];
    expect(pts).toHaveLength(f.ring.size);
    for (let i = 0; i < pts.length; i++)
      for (let j = i + 1; j < pts.length; j++) expect(Math.hypot(pts[i].x - pts[j].x, pts[i].y - pts[j].y)).toBeGreaterThan(0.3);
    // Outer rings lie further out.
    const radius = (id: string) => Math.hypot(layout.positions.get(id)!.x - 5, layout.positions.get(id)!.y - 5);
    let last = -1;
    for (let r = 0; r <= f.maxRing; r++) {
      const ids = [...f.ring].filter(([, x]) => x === r).map(([id]) => id);
      if (!ids.length) continue;
      const min = Math.min(...ids.map(radius));
      expect(min).toBeGreaterThan(last);
      last = Math.max(...ids.map(radius));
    }
    expect(layout.radii).toHaveLength(f.maxRing + 1);
  });
});

describe('label placement', () => {
  it('places a label beside its node where it meets no other, else on another side, else not at all', () => {
    const grid = new LabelGrid(32);
    grid.reset(400, 300);
    const at = { x: 0, y: 0 };
    expect(grid.tryPlace(100, 100, 5, 60, 14, 0, at)).toBe(true);
    expect(at.x).toBe(108); // right of the node
    // The same place again: the right is taken, so it goes left.
    expect(grid.tryPlace(100, 100, 5, 60, 14, 0, at)).toBe(true);
    expect(at.x).toBe(100 - 8 - 60);
    expect(grid.tryPlace(100, 100, 5, 60, 14, 0, at)).toBe(true); // above
    expect(grid.tryPlace(100, 100, 5, 60, 14, 0, at)).toBe(true); // below
    expect(grid.tryPlace(100, 100, 5, 60, 14, 0, at)).toBe(false);
    expect(grid.placed).toBe(4);
    // No two placed boxes overlap.
    for (let i = 0; i < grid.placed; i++)
      for (let j = i + 1; j < grid.placed; j++) {
        const a = grid.box(i);
        const b = grid.box(j);
        expect(a.x < b.x + b.w && a.x + a.w > b.x && a.y < b.y + b.h && a.y + a.h > b.y).toBe(false);
      }
  });

  it('keeps labels on the stage, clear of padding, and lets a node’s own obstacle be', () => {
    const grid = new LabelGrid(32);
    grid.reset(200, 100);
    const at = { x: 0, y: 0 };
    expect(grid.tryPlace(190, 50, 4, 60, 14, 0, at)).toBe(true);
    expect(at.x + 60).toBeLessThanOrEqual(200); // went left: the right side is off the stage
    grid.reset(200, 100);
    grid.add(95, 45, 10, 10, 7); // node 7's disc
    expect(grid.free(100, 40, 20, 20, 0)).toBe(false);
    expect(grid.free(100, 40, 20, 20, 0, 7)).toBe(true);
    expect(grid.free(110, 40, 20, 20, 0)).toBe(true);
    expect(grid.free(110, 40, 20, 20, 6)).toBe(false); // the padding reaches it
    // A new frame forgets the old boxes.
    grid.reset(200, 100);
    expect(grid.free(100, 40, 20, 20, 0)).toBe(true);
    expect(grid.covered).toBe(0);
  });

  it('denser settings pack labels closer and cover more', () => {
    const sparse = densityParams(0);
    const dense = densityParams(1);
    expect(dense.padding).toBeLessThan(sparse.padding);
    expect(dense.coverage).toBeGreaterThan(sparse.coverage);
    expect(dense.minNodeSize).toBeLessThan(sparse.minNodeSize);
    expect(densityParams(5)).toEqual(dense);
  });

  it('measures each text once', () => {
    let calls = 0;
    const w = new WidthCache((t) => (calls++, t.length * 7));
    expect(w.width('abc')).toBe(21);
    expect(w.width('abc')).toBe(21);
    expect(calls).toBe(1);
  });
});

describe('document list filters', () => {
  const docs = [
    { id: 'd1', collection: 'notes' },
    { id: 'd2', collection: 'papers', groups: ['reading'] },
    { id: 'd3', collection: 'papers' },
  ];

  it('collections (with hand-made groups), documents and clusters narrow the list', () => {
    const none = { collections: [], documents: [], clusters: [] };
    expect(docs.every((d) => documentPasses(d, none, null))).toBe(true);
    expect(docs.filter((d) => documentPasses(d, { ...none, collections: ['reading'] }, null)).map((d) => d.id)).toEqual(['d2']);
    expect(docs.filter((d) => documentPasses(d, { ...none, documents: ['d3'] }, null)).map((d) => d.id)).toEqual(['d3']);
    expect(docs.filter((d) => documentPasses(d, { ...none, clusters: ['c:x'] }, new Set(['d1']))).map((d) => d.id)).toEqual(['d1']);
    expect([...documentsIn(docs, ['papers'])]).toEqual(['d2', 'd3']);
  });
});

describe('the scene (no renderer)', () => {
  const input = (over: Partial<SceneInput> = {}): SceneInput => ({
    theme: light,
    filters: defaultFilters(),
    search: '',
    query: null,
    seeds: [],
    selected: null,
    focus: false,
    focusStep: Infinity,
    focusRest: 'hidden',
    detail: 0.5,
    scope: {},
    ...over,
  });

  it('draws a library with clusters as its clusters at first, and everything once zoomed in', () => {
    const data = syntheticGraph({ nodes: 3000, edges: 9000 });
    const scene = new GraphScene(data, undefined, { progressive: false });
    scene.update(input());
    let s = scene.status();
    expect(s.ready).toBe(true);
    expect(s.level).toBe(0);
    expect(s.drawnClusters).toBe(data.clusters.length);
    expect(s.drawnNodes).toBe(0);
    scene.cameraMoved(0.05);
    s = scene.status();
    expect(s.level).toBe(2);
    expect(s.drawnClusters).toBe(0);
    expect(s.drawnNodes).toBe(3000);
  });

  it('expands and collapses a cluster by hand', () => {
    const data = syntheticGraph({ nodes: 3000, edges: 9000 });
    const scene = new GraphScene(data, undefined, { progressive: false });
    scene.update(input());
    const c = data.clusters[0];
    expect(scene.toggleCluster(c.id)).toBe('full');
    let s = scene.status();
    expect(s.drawnNodes).toBe(c.concepts + c.sections);
    expect(s.drawnClusters).toBe(data.clusters.length - 1);
    expect(s.expanded).toEqual([c.id]);
    expect(scene.toggleCluster(c.id)).toBe('collapsed');
    s = scene.status();
    expect(s.drawnNodes).toBe(0);
    expect(s.collapsed).toEqual([c.id]);
    scene.resetClusters();
    expect(scene.status().collapsed).toEqual([]);
  });

  it('a small library without clusters draws every node, and no super-node', () => {
    const scene = new GraphScene(small);
    scene.update(input());
    const s = scene.status();
    expect(scene.hasClusters).toBe(false);
    expect(s.level).toBe(2);
    expect(s.drawnNodes).toBe(10);
    expect(s.drawnClusters).toBe(0);
  });

  it('filters restrict what is drawn; the selection and the search bring nodes in at any level', () => {
    const data = syntheticGraph({ nodes: 3000, edges: 9000 });
    const scene = new GraphScene(data, undefined, { progressive: false });
    scene.update(input({ filters: { ...defaultFilters(), collections: ['col-1'] } }));
    const s = scene.status();
    const inCol = data.nodes.filter((n) => n.collection === 'col-1').length;
    expect(s.visible).toBeGreaterThan(inCol); // its sections and the concepts they are about
    expect(s.visible).toBeLessThan(3000);
    scene.update(input({ selected: 'c3' }));
    expect(scene.isDrawn('c3')).toBe(true); // at level 0, through the selection
    scene.update(input({ search: 'doc-7.md' }));
    const m = scene.status();
    expect(m.matches).toBeGreaterThan(0);
    expect(m.visible).toBe(m.matches); // only the matches pass
    expect(m.drawnNodes).toBe(m.matches); // and they show at level 0
  });

  it('the focused view shows only the question’s neighbourhood, a ring at a time', () => {
    const scene = new GraphScene(smallClustered);
    const query = makeQueryView(smallClustered, smallQuery);
    scene.update(input({ query, seeds: ['A'], focus: true }));
    let s = scene.status();
    expect(s.focus).toMatchObject({ maxRing: 2, seeds: 1, loaded: 1, relevant: 1 });
    expect(s.drawnNodes).toBe(s.focus!.shown);
    expect(s.drawnClusters).toBe(0);
    scene.update(input({ query, seeds: ['A'], focus: true, focusStep: 0 }));
    s = scene.status();
    expect(s.focus!.step).toBe(0);
    expect(s.drawnNodes).toBe(1);
    expect(scene.ringGuides).not.toBeNull();
    // The rest, faded: the level's nodes come back (small library: all of them).
    scene.update(input({ query, seeds: ['A'], focus: true, focusRest: 'faded' }));
    expect(scene.status().drawnNodes).toBe(10);
    scene.update(input({ query, seeds: ['A'], focus: false }));
    expect(scene.status().focus).toBeNull();
    expect(scene.ringGuides).toBeNull();
  });

  it('styles concepts and super-nodes in their cluster’s colour, readable in both themes', () => {
    const g: LoomGraph = buildGraph(smallClustered, undefined, indexClusters(smallClustered));
    for (const theme of [light, dark]) {
      const st = makeStyleState({ graph: g, theme, filters: defaultFilters(), query: null, selected: null, hovered: null, matches: null, clusterColours: [0, 5] });
      const a = nodeStyle('A', g.getNodeAttributes('A'), st);
      const sup = nodeStyle(superKey('c:B'), g.getNodeAttributes(superKey('c:B')), st);
      expect(a.color).toBe(clusterColour(0, theme.dark));
      expect(sup.color).toBe(clusterColour(5, theme.dark));
      expect(sup.label).toBe('Token budget');
      expect(nodeStyle('C', g.getNodeAttributes('C'), st).color).toBe(theme.accent); // in no cluster
    }
  });

  it('a big library is progressive: clusters first, the rest built on request', () => {
    const data = syntheticGraph({ nodes: PROGRESSIVE_NODES + 1000, edges: (PROGRESSIVE_NODES + 1000) * 3 });
    const scene = new GraphScene(data);
    expect(scene.progressive).toBe(true);
    expect(scene.ready).toBe(false);
    expect(scene.view.order).toBe(data.clusters.length); // the super-nodes alone
    scene.update(input());
    expect(scene.status().drawnClusters).toBe(data.clusters.length);
    let steps = 0;
    while (!scene.build(performance.now() + 5)) steps++;
    expect(steps).toBeGreaterThan(0);
    expect(scene.ready).toBe(true);
    expect(scene.graph.order).toBe(data.nodes.length + data.clusters.length);
    expect(scene.status().ready).toBe(true);
    expect(scene.view.order).toBe(data.clusters.length); // members join the view only when wanted (a renderer asks)
  });

  it('progressive: a cluster’s members join the view when it is expanded, and those in sight when zoomed in', async () => {
    const data = syntheticGraph({ nodes: PROGRESSIVE_NODES + 1000, edges: (PROGRESSIVE_NODES + 1000) * 3 });
    const scene = new GraphScene(data);
    while (!scene.build(Infinity));
    let ratio = 1;
    let refreshed = 0;
    const renderer: SceneRenderer = {
      refreshItems: (n, e) => void (refreshed += n.length + e.length),
      moving: () => false,
      edgesHidden: () => false,
      ratio: () => ratio,
      size: () => ({ width: 1000, height: 700 }),
      viewRect: () => ({ minX: -1e9, minY: -1e9, maxX: 1e9, maxY: 1e9 }),
      setExtent: () => {},
      batch: (change) => change(),
      fit: () => {},
      redraw: () => {},
    };
    const idle = async () => {
      for (let k = 0; k < 2000 && scene.busy; k++) await new Promise((r) => requestAnimationFrame(r));
      expect(scene.busy).toBe(false);
    };
    scene.attach(renderer);
    scene.update(input());
    await idle();
    expect(scene.status().level).toBe(0);
    expect(scene.view.order).toBe(data.clusters.length); // nothing else is wanted yet
    const c = data.clusters[0];
    scene.toggleCluster(c.id);
    await idle();
    expect(scene.view.order).toBe(data.clusters.length + c.concepts + c.sections);
    for (const id of scene.membersOf(c.id)) expect(scene.isDrawn(id)).toBe(true);
    // Edges between members joined with them.
    const members = new Set(scene.membersOf(c.id));
    let inside = 0;
    scene.graph.forEachEdge((_e, _a, s2, t) => {
      if (members.has(s2) && members.has(t)) inside++;
    });
    expect(scene.view.size).toBeGreaterThanOrEqual(inside);
    // Zoomed in with everything in sight: everything joins.
    ratio = 0.02;
    scene.cameraMoved(ratio);
    scene.cameraRested();
    await idle();
    expect(scene.status().level).toBe(2);
    expect(scene.view.order).toBe(scene.graph.order);
    expect(scene.view.size).toBe(scene.graph.size);
    expect(refreshed).toBeGreaterThan(0);
    // Zoomed out again: the members draw nothing, and the view lets them go down to its cap.
    ratio = 1;
    scene.cameraMoved(ratio);
    scene.cameraRested();
    await idle();
    expect(scene.status().level).toBe(0);
    expect(scene.view.order).toBeLessThanOrEqual(VIEW_CAP);
    for (let i = 0; i < scene.keys.length; i++) if (scene.drawn[i] && !scene.view.hasNode(scene.keys[i])) throw new Error(`${scene.keys[i]} left but is still drawn`);
  });

  it('progressive: only what is drawn joins the view (clusters showing their concepts do not bring their sections)', async () => {
    // Few concepts, many sections (a 50,000-section library with 101 concepts looked like this):
    // the whole view fits the concepts level, so every cluster shows its concepts at once.
    const data = syntheticGraph({ nodes: PROGRESSIVE_NODES + 3000, edges: (PROGRESSIVE_NODES + 3000) * 2, conceptShare: 0.005 });
    const scene = new GraphScene(data);
    while (!scene.build(Infinity));
    const renderer: SceneRenderer = {
      refreshItems: () => {},
      moving: () => false,
      edgesHidden: () => false,
      ratio: () => 1,
      size: () => ({ width: 1000, height: 700 }),
      viewRect: () => ({ minX: -1e9, minY: -1e9, maxX: 1e9, maxY: 1e9 }),
      setExtent: () => {},
      batch: (change) => change(),
      fit: () => {},
      redraw: () => {},
    };
    scene.attach(renderer);
    scene.update(input());
    for (let k = 0; k < 2000 && scene.busy; k++) await new Promise((r) => requestAnimationFrame(r));
    expect(scene.busy).toBe(false);
    const s = scene.status();
    expect(s.drawnConcepts).toBeGreaterThan(0);
    expect(s.drawnSections).toBe(0);
    let sections = 0;
    scene.view.forEachNode((_k, a) => {
      if (a.kind === 'content') sections++;
    });
    expect(sections).toBe(0);
    expect(scene.view.order).toBeLessThanOrEqual(data.clusters.length + s.drawnConcepts);
  });
});
