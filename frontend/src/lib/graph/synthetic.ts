// A synthetic workspace graph with Loom's shape (documents of sections,
// concepts they are about, concept–concept relations, a few links and
// derived outputs) for tests and the browser benchmark.
import type { EdgeKind, GraphData, GraphEdge, GraphNode } from '../../bridge/workbench';
import { seededRandom } from './build';

const WORDS = [
  'loading', 'budget', 'context', 'window', 'token', 'summary', 'essence', 'concept', 'graph', 'hop', 'seed',
  'ranking', 'signal', 'novelty', 'trust', 'density', 'staleness', 'provenance', 'embedding', 'vector', 'index',
  'keyword', 'manifest', 'catalog', 'pinning', 'collection', 'ingest', 'parser', 'section', 'heading', 'chunk',
  'cache', 'model', 'prompt', 'answer', 'question', 'decision', 'tree', 'knapsack', 'scope', 'workspace',
];

export interface SyntheticOptions {
  nodes: number;
  edges: number;
  seed?: number;
  /** Share of nodes that are concepts (default 0.08). */
  conceptShare?: number;
}

export function syntheticGraph({ nodes, edges, seed = 7, conceptShare = 0.08 }: SyntheticOptions): GraphData {
  const rand = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const nConcepts = Math.max(1, Math.round(nodes * conceptShare));
  const out: GraphNode[] = [];
  const list: GraphEdge[] = [];
  const seen = new Set<string>();
  const add = (source: string, target: string, kind: EdgeKind, weight = 0.5 + rand() / 2) => {
    if (source === target || list.length >= edges) return;
    const k = `${source}|${target}|${kind}`;
    if (seen.has(k)) return;
    seen.add(k);
    list.push({ source, target, kind, weight });
  };

  const concepts: string[] = [];
  for (let i = 0; i < nConcepts; i++) {
    const id = `c${i}`;
    concepts.push(id);
    out.push({ id, kind: 'concept', label: `${pick(WORDS)} ${pick(WORDS)} ${i}` });
  }
  // Zipf-ish popularity: low indices are hubs.
  const popular = () => concepts[Math.floor(nConcepts * rand() ** 2.2)];

  const nContent = nodes - nConcepts;
  let made = 0;
  let doc = 0;
  const contentIds: string[] = [];
  while (made < nContent) {
    const size = Math.min(nContent - made, 4 + Math.floor(rand() * 26));
    const docName = `doc-${doc}.md`;
    const collection = `col-${doc % 7}`;
    const topics = [popular(), popular(), pick(concepts), pick(concepts)];
    const source = doc % 11 === 10 ? 'output' : doc % 13 === 12 ? 'analysis' : 'input';
    for (let k = 0; k < size; k++) {
      const id = `n${made}`;
      contentIds.push(id);
      out.push({
        id,
        kind: 'content',
        label: `${docName} §${k + 1} ${pick(WORDS)}`,
        source,
        document: docName,
        collection,
        tokens: Math.floor(20 + rand() ** 2 * 2000),
        pinned: rand() < 0.004,
      });
      if (k > 0) add(`n${made - 1 - Math.floor(rand() * Math.min(k, 3))}`, id, 'parent', 1);
      made++;
    }
    doc++;
  }

  // about: each section to a couple of its document's topics, sometimes a hub.
  for (let i = 0; i < contentIds.length && list.length < edges; i++) {
    const n = 2 + Math.floor(rand() * 2);
    for (let j = 0; j < n; j++) {
      const c = rand() < 0.75 ? `c${(hash(out[nConcepts + i].document ?? '') + j * 31) % nConcepts}` : popular();
      add(contentIds[i], c, 'about', 0.3 + rand() * 0.6);
    }
  }
  // related: concepts to concepts.
  for (let i = 0; i < nConcepts * 3 && list.length < edges; i++) add(pick(concepts), popular(), 'related');
  // derived and links: mostly between nearby documents (same era, same
  // collection), some anywhere.
  for (let i = 0; list.length < edges && i < edges * 4; i++) {
    const ai = Math.floor(rand() * contentIds.length);
    const bi = rand() < 0.85 ? Math.min(contentIds.length - 1, Math.max(0, ai + Math.round((rand() - 0.5) * 300))) : Math.floor(rand() * contentIds.length);
    add(contentIds[ai], contentIds[bi], i % 5 === 0 ? 'derived' : 'links', 0.3);
  }
  return { nodes: out, edges: list, generation: 1, clusters: [], clusterLinks: [] };
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}
