// A synthetic workspace graph with Loom's shape (documents of sections,
// concepts they are about, concept–concept relations, a few links and
// derived outputs) for tests and the browser benchmark. Concepts fall into
// topics; a document is mostly about one topic; the clusters it reports are
// those topics, as the engine's community detection would find them
// (GraphData.clusters, clusterLinks and each node's cluster).
import type { ClusterLink, EdgeKind, GraphCluster, GraphData, GraphEdge, GraphNode } from '../../bridge/workbench';
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
  /** Report no clusters (as an engine without community detection would). */
  noClusters?: boolean;
}

/** How many topics a synthetic graph with this many concepts has. */
export function topicCount(concepts: number): number {
  return Math.max(1, Math.min(200, Math.round(1.5 * Math.sqrt(concepts))));
}

export function syntheticGraph({ nodes, edges, seed = 7, conceptShare = 0.08, noClusters = false }: SyntheticOptions): GraphData {
  const rand = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const nConcepts = Math.max(1, Math.round(nodes * conceptShare));
  const nTopics = topicCount(nConcepts);
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

  // Concept i is in topic i mod nTopics: the lowest index of a topic is its hub.
  const concepts: string[] = [];
  const topicConcepts: string[][] = Array.from({ length: nTopics }, () => []);
  const topicOf = new Map<string, number>();
  for (let i = 0; i < nConcepts; i++) {
    const id = `c${i}`;
    concepts.push(id);
    const t = i % nTopics;
    topicConcepts[t].push(id);
    topicOf.set(id, t);
    out.push({ id, kind: 'concept', label: `${pick(WORDS)} ${pick(WORDS)} ${i}` });
  }
  // Zipf-ish popularity: low indices are hubs, globally and within a topic.
  const popular = () => concepts[Math.floor(nConcepts * rand() ** 2.2)];
  const inTopic = (t: number) => {
    const cs = topicConcepts[t];
    return cs[Math.floor(cs.length * rand() ** 1.6)];
  };

  const nContent = nodes - nConcepts;
  let made = 0;
  let doc = 0;
  const contentIds: string[] = [];
  const docTopic: number[] = [];
  const expectedDocs = Math.max(1, nContent / 17.5);
  while (made < nContent) {
    const size = Math.min(nContent - made, 4 + Math.floor(rand() * 26));
    const docName = `doc-${doc}.md`;
    const collection = `col-${doc % 7}`;
    // Neighbouring documents share topics (as a folder of notes would).
    const topic = rand() < 0.8 ? Math.min(nTopics - 1, Math.floor((doc / expectedDocs) * nTopics)) : Math.floor(rand() * nTopics);
    docTopic.push(topic);
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

  // about: each section to a couple of its document's topic's concepts,
  // sometimes a neighbouring topic's, sometimes a hub anywhere.
  const docIndex = (i: number) => Number((out[nConcepts + i].document ?? 'doc-0.md').slice(4, -3));
  for (let i = 0; i < contentIds.length && list.length < edges; i++) {
    const t = docTopic[docIndex(i)];
    const n = 2 + Math.floor(rand() * 2);
    for (let j = 0; j < n; j++) {
      const r = rand();
      const c = r < 0.8 ? inTopic(t) : r < 0.93 ? inTopic((t + 1) % nTopics) : popular();
      add(contentIds[i], c, 'about', 0.3 + rand() * 0.6);
    }
  }
  // related: concepts to concepts, mostly within a topic.
  for (let i = 0; i < nConcepts * 3 && list.length < edges; i++) {
    const a = pick(concepts);
    const t = topicOf.get(a)!;
    const r = rand();
    add(a, r < 0.8 ? inTopic(t) : r < 0.9 ? inTopic((t + 1) % nTopics) : popular(), 'related');
  }
  // derived and links: mostly between nearby documents (same era, same
  // collection), some anywhere.
  for (let i = 0; list.length < edges && i < edges * 4; i++) {
    const ai = Math.floor(rand() * contentIds.length);
    const bi = rand() < 0.85 ? Math.min(contentIds.length - 1, Math.max(0, ai + Math.round((rand() - 0.5) * 300))) : Math.floor(rand() * contentIds.length);
    add(contentIds[ai], contentIds[bi], i % 5 === 0 ? 'derived' : 'links', 0.3);
  }
  const data: GraphData = { nodes: out, edges: list, generation: 1, clusters: [], clusterLinks: [] };
  if (!noClusters) addTopicClusters(data, topicOf);
  return data;
}

/**
 * Fills in clusters as the engine reports them: a concept is in its
 * topic's cluster; a section in the cluster most of its concepts are in
 * (none when it is about no concept); a cluster's id is "c:" and its most
 * connected concept, its name its top concepts' labels, its colour its
 * rank mod 12; links sum the weights of the edges between clusters.
 */
export function addTopicClusters(data: GraphData, topicOf: ReadonlyMap<string, number>): void {
  const byId = new Map(data.nodes.map((n) => [n.id, n]));
  const degree = new Map<string, number>();
  for (const e of data.edges) {
    degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
    degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
  }
  // Sections: the topic most of their about edges point into.
  const votes = new Map<string, Map<number, number>>();
  for (const e of data.edges) {
    if (e.kind !== 'about') continue;
    const [c, s] = topicOf.has(e.target) ? [e.target, e.source] : [e.source, e.target];
    const t = topicOf.get(c);
    if (t === undefined || byId.get(s)?.kind !== 'content') continue;
    let v = votes.get(s);
    if (!v) votes.set(s, (v = new Map()));
    v.set(t, (v.get(t) ?? 0) + e.weight);
  }
  const topicOfNode = new Map<string, number>(topicOf);
  for (const [s, v] of votes) {
    let best = -1;
    let w = -1;
    for (const [t, x] of v) if (x > w || (x === w && t < best)) [best, w] = [t, x];
    topicOfNode.set(s, best);
  }
  const members = new Map<number, GraphNode[]>();
  for (const n of data.nodes) {
    const t = topicOfNode.get(n.id);
    if (t === undefined) continue;
    let m = members.get(t);
    if (!m) members.set(t, (m = []));
    m.push(n);
  }
  const ranked = [...members.entries()].sort((a, b) => b[1].length - a[1].length || a[0] - b[0]);
  const idOf = new Map<number, string>();
  const clusters: GraphCluster[] = ranked.map(([t, ms], rank) => {
    const top = ms
      .filter((n) => n.kind === 'concept')
      .sort((a, b) => (degree.get(b.id) ?? 0) - (degree.get(a.id) ?? 0) || (a.id < b.id ? -1 : 1))
      .slice(0, 5);
    const id = `c:${top[0]?.id ?? ms[0].id}`;
    idOf.set(t, id);
    const docs = new Set(ms.filter((n) => n.kind === 'content').map((n) => n.document ?? ''));
    return {
      id,
      name: top
        .slice(0, 2)
        .map((n) => n.label.replace(/ \d+$/, ''))
        .join(' · '),
      colour: rank % 12,
      concepts: ms.filter((n) => n.kind === 'concept').length,
      sections: ms.filter((n) => n.kind === 'content').length,
      documents: docs.size,
      top: top.map((n) => n.id),
    };
  });
  for (const n of data.nodes) {
    const t = topicOfNode.get(n.id);
    if (t !== undefined) n.cluster = idOf.get(t);
  }
  const links = new Map<string, ClusterLink>();
  for (const e of data.edges) {
    const a = byId.get(e.source)?.cluster;
    const b = byId.get(e.target)?.cluster;
    if (!a || !b || a === b) continue;
    const [s, t] = a < b ? [a, b] : [b, a];
    const k = `${s}|${t}`;
    const l = links.get(k) ?? { source: s, target: t, weight: 0, edges: 0 };
    l.weight += e.weight;
    l.edges++;
    links.set(k, l);
  }
  data.clusters = clusters;
  data.clusterLinks = [...links.values()].sort((a, b) => b.weight - a.weight || (a.source + a.target < b.source + b.target ? -1 : 1));
}
