import { describe, expect, it } from 'vitest';
import { buildGraph, conceptSize, contentSize, neighbourSet, positionsOf, seededRandom } from './build';
import { mix, parseColour, toHex, withAlpha, luminance } from './colour';
import { boundsOf, countVisible, defaultFilters, edgeVisible, matchNodes, nodeVisible, normaliseTerm, passingNodes } from './filter';
import { computeHops, hopBucket, makeQueryView, summarise } from './hops';
import { baseColour, edgeAlphaFor, edgeStyle, hopColour, makeStyleState, nodeStyle, NODE_TYPE } from './style';
import { DARK_DEFAULTS, EDGE_KINDS, LIGHT_DEFAULTS, makeTheme, readThemeVars } from './theme';
import { clipLabel } from './draw';
import { layoutDuration, layoutSettings } from './layout';
import { syntheticGraph } from './synthetic';
import { small, smallQuery, queryFor, candidate } from './fixtures.test-helpers';

const light = makeTheme(LIGHT_DEFAULTS);
const dark = makeTheme(DARK_DEFAULTS);

describe('colour', () => {
  it('parses hex, short hex and rgb()', () => {
    expect(parseColour('#3b3f9e')).toEqual({ r: 0x3b, g: 0x3f, b: 0x9e });
    expect(parseColour('#fff')).toEqual({ r: 255, g: 255, b: 255 });
    expect(parseColour(' rgb(1, 2, 3) ')).toEqual({ r: 1, g: 2, b: 3 });
    expect(parseColour('rgba(10,20,30,0.5)')).toEqual({ r: 10, g: 20, b: 30 });
    expect(parseColour('tomato')).toBeNull();
  });

  it('mixes and adds alpha', () => {
    expect(mix('#000000', '#ffffff', 0)).toBe('#000000');
    expect(mix('#000000', '#ffffff', 1)).toBe('#ffffff');
    expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
    expect(withAlpha('#ff0000', 0.25)).toBe('rgba(255,0,0,0.25)');
    expect(withAlpha('#ff0000', 3)).toBe('rgba(255,0,0,1)');
    expect(toHex({ r: 300, g: -4, b: 15 })).toBe('#ff000f');
  });

  it('tells light from dark', () => {
    expect(luminance('#ffffff')).toBeCloseTo(1);
    expect(luminance('#000000')).toBeCloseTo(0);
  });
});

describe('theme', () => {
  it('knows dark from light by the background', () => {
    expect(light.dark).toBe(false);
    expect(dark.dark).toBe(true);
    expect(light.accent).toBe(LIGHT_DEFAULTS.accent);
    expect(dark.bg).toBe(DARK_DEFAULTS.bg);
  });

  it('has a sequential hop palette, strongest first', () => {
    for (const t of [light, dark]) {
      const distance = t.hops.map((c) => {
        const a = parseColour(c)!;
        const b = parseColour(t.bg)!;
        return Math.abs(a.r - b.r) + Math.abs(a.g - b.g) + Math.abs(a.b - b.b);
      });
      for (let i = 1; i < distance.length; i++) expect(distance[i]).toBeLessThan(distance[i - 1]);
    }
  });

  it('every edge kind has its own colour', () => {
    for (const t of [light, dark]) expect(new Set(Object.values(t.edges)).size).toBe(EDGE_KINDS.length);
  });

  it('reads the CSS variables, falling back to the light defaults', () => {
    const el = document.createElement('div');
    el.style.setProperty('--accent', '#123456');
    document.body.appendChild(el);
    const vars = readThemeVars(el);
    expect(vars.accent).toBe('#123456');
    expect(vars.bg).toBe(LIGHT_DEFAULTS.bg);
    el.remove();
  });
});

describe('buildGraph', () => {
  it('adds every node and the edges whose ends exist', () => {
    const g = buildGraph(small);
    expect(g.order).toBe(10);
    expect(g.size).toBe(9); // dangling and self-loop left out
    expect(g.getNodeAttribute('s3', 'pinned')).toBe(true);
    expect(g.getNodeAttribute('s7', 'source')).toBe('output');
    expect(g.getNodeAttribute('A', 'search')).toBe('loading decision');
  });

  it('positions deterministically, every node finite', () => {
    const a = positionsOf(buildGraph(small));
    const b = positionsOf(buildGraph(small));
    expect([...a.entries()]).toEqual([...b.entries()]);
    for (const p of a.values()) {
      expect(Number.isFinite(p.x)).toBe(true);
      expect(Number.isFinite(p.y)).toBe(true);
    }
  });

  it('keeps earlier positions when rebuilt', () => {
    const prev = new Map([['A', { x: 123, y: -45 }]]);
    const g = buildGraph(small, prev);
    expect(g.getNodeAttributes('A')).toMatchObject({ x: 123, y: -45 });
  });

  it('groups a document’s sections together and starts concepts among them', () => {
    const data = syntheticGraph({ nodes: 600, edges: 2000 });
    const g = buildGraph(data);
    const centre = (ids: string[]) => {
      let x = 0,
        y = 0;
      for (const id of ids) {
        x += g.getNodeAttribute(id, 'x');
        y += g.getNodeAttribute(id, 'y');
      }
      return { x: x / ids.length, y: y / ids.length };
    };
    const spread = (ids: string[]) => {
      const c = centre(ids);
      return Math.max(...ids.map((id) => Math.hypot(g.getNodeAttribute(id, 'x') - c.x, g.getNodeAttribute(id, 'y') - c.y)));
    };
    const doc0 = data.nodes.filter((n) => n.document === 'doc-0.md').map((n) => n.id);
    const all = data.nodes.map((n) => n.id);
    expect(spread(doc0)).toBeLessThan(spread(all) / 3);
  });

  it('sizes concepts above content, content by tokens (log)', () => {
    expect(conceptSize(0)).toBeGreaterThan(contentSize(100000));
    expect(contentSize(1000)).toBeGreaterThan(contentSize(10));
    expect(contentSize(undefined)).toBeGreaterThan(0);
    expect(contentSize(1e9)).toBeLessThanOrEqual(6);
    expect(conceptSize(1e6)).toBeLessThanOrEqual(14);
  });

  it('finds neighbours in either direction', () => {
    const g = buildGraph(small);
    expect([...neighbourSet(g, 'A')].sort()).toEqual(['B', 's1', 's3', 's6']);
    expect(neighbourSet(g, 'nope').size).toBe(0);
    expect(neighbourSet(g, null).size).toBe(0);
  });

  it('seeded random is repeatable and in [0, 1)', () => {
    const a = seededRandom(1);
    const b = seededRandom(1);
    for (let i = 0; i < 100; i++) {
      const x = a();
      expect(x).toBe(b());
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });

  // How fast is measured by e2e/graph-perf.mjs, a benchmark; a time limit
  // here would fail on a busy machine, not on slow code.
  it('builds 10,000 nodes and 40,000 edges', () => {
    const data = syntheticGraph({ nodes: 10000, edges: 40000 });
    expect(data.nodes.length).toBe(10000);
    expect(data.edges.length).toBe(40000);
    const g = buildGraph(data);
    expect(g.order).toBe(10000);
    expect(g.size).toBe(40000);
  });
});

describe('hops', () => {
  const hops = computeHops(small, smallQuery);

  it('concepts from concept_hops, seeds at 0', () => {
    expect(hops.get('A')).toBe(0);
    expect(hops.get('B')).toBe(1);
    expect(hops.has('C')).toBe(false);
  });

  it('candidates use their own hops, −1 is unreachable', () => {
    expect(hops.get('s1')).toBe(1);
    expect(hops.get('s2')).toBe(2);
    expect(hops.has('s6')).toBe(false); // a candidate at −1, though it is about A
  });

  it('other content: one more than the nearest concept it is about, either direction', () => {
    expect(hops.get('s3')).toBe(1); // A → s3
    expect(hops.get('s4')).toBe(2); // s4 → B (1)
    expect(hops.has('s5')).toBe(false); // only links
    expect(hops.has('s7')).toBe(false); // only derived
  });

  it('takes the nearest concept when a section is about several', () => {
    const data = { ...small, edges: [...small.edges, { source: 's4', target: 'A', kind: 'about' as const, weight: 1 }] };
    expect(computeHops(data, smallQuery).get('s4')).toBe(1);
  });

  it('ignores hops for ids that are not concepts in the graph', () => {
    const q = queryFor([], { A: 0, s5: 0, ghost: 0 });
    const h = computeHops(small, q);
    expect(h.has('s5')).toBe(false);
    expect(h.has('ghost')).toBe(false);
  });

  it('buckets 4 and beyond together', () => {
    expect([0, 1, 2, 3, 4, 7].map(hopBucket)).toEqual([0, 1, 2, 3, 4, 4]);
    expect(hopBucket(undefined)).toBe(-1);
    expect(hopBucket(-1)).toBe(-1);
  });

  it('summarises loaded, relevant-not-loaded and reached', () => {
    const s = summarise(small, makeQueryView(small, smallQuery));
    // 0: A | 1: B s1 s3 | 2: s2 s4
    expect(s).toEqual({ loaded: 1, relevant: 1, reached: 6, byHop: [1, 3, 2, 0, 0] });
  });
});

describe('filter', () => {
  const g = buildGraph(small);

  it('matches labels case-insensitively; empty means no search', () => {
    expect(matchNodes(g, '')).toBeNull();
    expect(matchNodes(g, '   ')).toBeNull();
    expect([...matchNodes(g, 'BUDGET')!].sort()).toEqual(['B', 's2', 's4']);
    expect(matchNodes(g, 'zzz')!.size).toBe(0);
    expect(normaliseTerm('  MiXed ')).toBe('mixed');
  });

  it('kind toggles hide nodes; the search hides the rest unless told to dim it', () => {
    const f = defaultFilters();
    const off = (k: keyof typeof f.kinds) => ({ ...f, kinds: { ...f.kinds, [k]: false } });
    expect(countVisible(g, f, null)).toBe(10);
    expect(countVisible(g, off('concept'), null)).toBe(7);
    expect(countVisible(g, { ...f, kinds: { concept: true, input: false, output: false, analysis: false } }, null)).toBe(3);
    expect(countVisible(g, off('analysis'), null)).toBe(9); // s4
    expect(countVisible(g, off('output'), null)).toBe(9); // s7
    const m = matchNodes(g, 'budget');
    expect(countVisible(g, f, m)).toBe(3); // only matches, by default
    expect(countVisible(g, { ...f, onlyMatches: false }, m)).toBe(10); // dimmed, not hidden
    expect(nodeVisible('A', g.getNodeAttributes('A'), off('concept'), null)).toBe(false);
  });

  it('collections, documents and clusters narrow the sections, and the concepts to those about them', () => {
    const f = defaultFilters();
    const ids = (pass: Uint8Array) => g.nodes().filter((id) => pass[g.getNodeAttribute(id, 'i')]).sort();
    // docs: s1 s2 s3 (a.md, b.md); A is about s1 s3 s6, B about s2 s4.
    expect(ids(passingNodes(g, { ...f, collections: ['docs'] }, null))).toEqual(['A', 'B', 's1', 's2', 's3']);
    expect(ids(passingNodes(g, { ...f, documents: ['b.md'] }, null))).toEqual(['A', 'B', 's3', 's4']);
    expect(ids(passingNodes(g, { ...f, documents: ['c.md'] }, null))).toEqual(['A', 's5', 's6']);
    // A collection's documents can come from the page (groups made by hand).
    expect(ids(passingNodes(g, { ...f, collections: ['mine'] }, null, { documentsInCollections: new Set(['c.md']) }))).toEqual(['A', 's5', 's6']);
    // Without documents or collections narrowed, a concept shows whether or not anything is about it.
    expect(ids(passingNodes(g, f, null))).toContain('C');
  });

  it('edge kind toggles', () => {
    const f = defaultFilters();
    expect(edgeVisible({ kind: 'links' }, f)).toBe(true);
    expect(edgeVisible({ kind: 'links' }, { ...f, edges: { ...f.edges, links: false } })).toBe(false);
  });

  it('bounds of a set of nodes', () => {
    const b = boundsOf(g, ['A', 'B', 'ghost'])!;
    const a = g.getNodeAttributes('A');
    expect(b.minX).toBe(Math.min(a.x, g.getNodeAttribute('B', 'x')));
    expect(boundsOf(g, ['ghost'])).toBeNull();
  });
});

describe('style', () => {
  const g = buildGraph(small);
  const state = (over: Partial<Parameters<typeof makeStyleState>[0]> = {}) =>
    makeStyleState({
      graph: g,
      theme: light,
      filters: defaultFilters(),
      query: null,
      selected: null,
      hovered: null,
      matches: null,
      ...over,
    });
  const node = (id: string, s = state()) => nodeStyle(id, g.getNodeAttributes(id), s);
  const edge = (source: string, target: string, s = state()) => {
    const key = g.edges(source, target)[0] ?? g.edges(target, source)[0];
    const [a, b] = g.extremities(key);
    return edgeStyle(g.getEdgeAttributes(key), a, b, s);
  };

  it('concepts are larger and in the accent; content by source', () => {
    const a = node('A');
    const s1 = node('s1');
    expect(a.color).toBe(light.accent);
    expect(a.size).toBeGreaterThan(s1.size);
    expect(a.type).toBe(NODE_TYPE);
    expect(s1.color).toBe(light.content.input);
    expect(node('s7').color).toBe(light.content.output);
    expect(node('s4').color).toBe(light.content.analysis);
    expect(new Set([light.content.input, light.content.output, light.content.analysis, light.accent]).size).toBe(4);
    expect(baseColour(g.getNodeAttributes('s7'), dark)).toBe(dark.content.output);
  });

  it('pinned nodes get a ring', () => {
    expect(node('s3').ringWidth).toBeGreaterThan(0);
    expect(node('s3').ringColor).toBe(light.pinned);
    expect(node('s1').ringWidth).toBe(0);
  });

  it('edges coloured by kind, fainter in big graphs', () => {
    const e = edge('A', 'B');
    // Opaque, blended with the background by hand (sigma wants premultiplied alpha).
    expect(e.color).toBe(mix(light.bg, light.edges.related, edgeAlphaFor(g.size)));
    expect(edge('s7', 's1').color).toBe(mix(light.bg, light.edges.derived, edgeAlphaFor(g.size)));
    expect(edgeAlphaFor(40000)).toBeLessThan(edgeAlphaFor(500));
  });

  it('selection: the node and its neighbours stand out, the rest dims', () => {
    const s = state({ selected: 'A' });
    expect(node('A', s).highlighted).toBe(true);
    expect(node('A', s).forceLabel).toBe(true);
    expect(node('s1', s).forceLabel).toBe(true);
    expect(node('s1', s).color).toBe(light.content.input);
    const far = node('s5', s);
    expect(far.color).not.toBe(light.content.input);
    expect(far.label).toBeNull();
    expect(edge('s1', 'A', s).size).toBeGreaterThan(edge('s1', 's2', s).size);
    expect(edge('s1', 's2', s).color).toBe(mix(light.bg, light.edges.parent, 0.05));
  });

  it('hover lifts the node and its neighbours and changes nothing else', () => {
    const s = state({ hovered: 'B' });
    expect(node('B', s).highlighted).toBe(true);
    expect(node('s2', s).forceLabel).toBe(true);
    expect(node('s2', s).zIndex).toBeGreaterThan(node('s2').zIndex);
    expect(node('s5', s)).toEqual(node('s5')); // not a neighbour: as before
    expect(edge('s1', 's2', s)).toEqual(edge('s1', 's2'));
    expect(edge('s2', 'B', s).size).toBeGreaterThan(edge('s2', 'B').size);
    expect(state({ selected: 'ghost', hovered: 'ghost' }).focus).toBeNull();
    expect(state({ hovered: 'ghost' }).hoverNeighbours).toBeNull();
  });

  it('hover brings back a node the selection or the search dimmed', () => {
    const s = state({ selected: 'C', hovered: 'B', matches: matchNodes(g, 'zzz') });
    expect(node('s2', s).color).toBe(light.content.input);
    expect(node('s2', s).label).toBe('Budget §2');
    expect(node('s1', s).label).toBeNull(); // still dimmed
  });

  it('search: matches labelled, others dimmed without labels', () => {
    const s = state({ matches: matchNodes(g, 'budget') });
    expect(node('s2', s).forceLabel).toBe(true);
    expect(node('s1', s).label).toBeNull();
    expect(node('s1', s).color).not.toBe(light.content.input);
  });

  it('filters hide nodes and edges', () => {
    const f = defaultFilters();
    const s = state({ filters: { ...f, kinds: { ...f.kinds, input: false }, edges: { ...f.edges, related: false } } });
    expect(node('s1', s).hidden).toBe(true);
    expect(node('A', s).hidden).toBe(false);
    expect(edge('A', 'B', s).hidden).toBe(true);
  });

  it('query: hop colours, loaded ring, dashed relevant ring, the rest dimmed', () => {
    const query = makeQueryView(small, smallQuery);
    const s = state({ query });
    const seed = node('A', s);
    expect(seed.color).toBe(light.hops[0]);
    expect(seed.forceLabel).toBe(true);
    const loaded = node('s1', s);
    expect(loaded.state).toBe('loaded');
    expect(loaded.ringColor).toBe(light.loaded);
    expect(loaded.ringDashed).toBe(false);
    expect(loaded.size).toBeGreaterThan(node('s1').size);
    expect(loaded.color).toBe(hopColour(1, light));
    const relevant = node('s2', s);
    expect(relevant.state).toBe('relevant');
    expect(relevant.ringDashed).toBe(true);
    expect(relevant.ringColor).toBe(light.relevant);
    expect(relevant.color).toBe(light.hops[2]);
    const other = node('s3', s);
    expect(other.state).toBe('dimmed');
    expect(other.color).toBe(mix(light.hops[1], light.bg, 0.45));
    expect(node('C', s).color).toBe(mix(light.faint, light.bg, 0.45));
    expect(hopColour(9, light)).toBe(light.hops[4]);
    expect(hopColour(undefined, light)).toBe(light.faint);
  });

  it('query: edges away from the loaded, relevant and seed nodes fade', () => {
    const s = state({ query: makeQueryView(small, smallQuery) });
    const inside = edge('s1', 'A', s);
    const outside = edge('s3', 's5', s);
    // Fainter = closer to the background.
    const away = (c: string) => {
      const a = parseColour(c)!;
      const b = parseColour(light.bg)!;
      return Math.abs(a.r - b.r) + Math.abs(a.g - b.g) + Math.abs(a.b - b.b);
    };
    expect(away(outside.color)).toBeLessThan(away(inside.color));
    expect(away(edge('s4', 'B', s).color)).toBeLessThan(away(edge('s2', 'B', s).color)); // s2 relevant
    expect(edge('A', 'B', s).color).toBe(edge('A', 'B').color); // A is a seed: unchanged
  });

  it('a query with loaded candidates outside the graph does not break', () => {
    const q = makeQueryView(small, queryFor([candidate('ghost', 0, true, true)], { A: 0 }));
    expect(summarise(small, q).loaded).toBe(0);
  });
});

describe('labels and layout', () => {
  it('clips long labels', () => {
    expect(clipLabel('short')).toBe('short');
    const long = 'x'.repeat(100);
    expect(clipLabel(long).length).toBe(48);
    expect(clipLabel(long).endsWith('…')).toBe(true);
  });

  it('runs the layout for less time on small graphs, Barnes-Hut on big ones', () => {
    expect(layoutDuration(100)).toBeLessThan(layoutDuration(10000));
    expect(layoutDuration(10000)).toBeLessThanOrEqual(4000);
    expect(layoutSettings(buildGraph(small)).barnesHutOptimize).toBe(false);
    expect(layoutSettings(buildGraph(syntheticGraph({ nodes: 3000, edges: 6000 }))).barnesHutOptimize).toBe(true);
  });
});
