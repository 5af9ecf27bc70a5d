// A plausible query over a synthetic graph: seeds, hop distances by
// breadth-first search, candidates near the seeds, some loaded.
import type { Candidate, GraphData, NodeDetail, QueryResult } from '../../src/bridge/workbench';

export function syntheticQuery(data: GraphData): QueryResult {
  const adj = new Map<string, string[]>();
  const kind = new Map<string, string>();
  for (const n of data.nodes) {
    adj.set(n.id, []);
    kind.set(n.id, n.kind);
  }
  for (const e of data.edges) {
    adj.get(e.source)?.push(e.target);
    adj.get(e.target)?.push(e.source);
  }
  const seeds = ['c3', 'c17'].filter((id) => adj.has(id));
  const dist = new Map<string, number>(seeds.map((s) => [s, 0]));
  const queue = [...seeds];
  // Concept hops count concept-to-concept steps (via related or a shared section).
  while (queue.length) {
    const id = queue.shift()!;
    const d = dist.get(id)!;
    if (d >= 6) continue;
    for (const n of adj.get(id) ?? []) {
      if (dist.has(n)) continue;
      const step = kind.get(n) === 'concept' ? 1 : 0.5;
      dist.set(n, d + step);
      queue.push(n);
    }
  }
  const conceptHops: Record<string, number> = {};
  for (const [id, d] of dist) if (kind.get(id) === 'concept') conceptHops[id] = Math.ceil(d);

  const signals = { semantic: 0, hop: 0, staleness: 0, size: 0, provenance: 0, density: 0, trust: 0, novelty: 0 };
  const near = data.nodes.filter((n) => n.kind === 'content' && (dist.get(n.id) ?? 99) <= 1.5).slice(0, 160);
  const candidates: Candidate[] = near.map((n, i) => ({
    id: n.id,
    reference: n.label,
    title: n.label,
    document: n.document ?? '',
    collection: n.collection ?? '',
    source: n.source ?? 'input',
    tokens: n.tokens ?? 0,
    keyword: 0,
    cosine: 0,
    hops: Math.ceil(dist.get(n.id) ?? -1),
    signals,
    score: 1 - i / near.length,
    relevant: i < 100,
    loaded: i < 35,
    reason: i < 35 ? 'loaded' : i < 100 ? 'over budget' : 'below threshold',
  }));
  return {
    question: 'how is the context budget decided',
    purpose: 'answer',
    level: 'adaptive',
    strategy: 'graph',
    query_type: 'factual',
    complexity: 0.4,
    embedder: 'synthetic',
    weights: signals,
    split: { window: 8192, window_source: 'synthetic', system: 0, question: 0, output: 0, output_share: 0, context: 0, manifest: 0, catalog: 0, loaded: 0, free: 0 },
    branch: 'synthetic',
    manifest: '',
    prompt: '',
    prompt_tokens: 0,
    loaded: candidates.filter((c) => c.loaded).length,
    relevant: candidates.filter((c) => c.relevant).length,
    not_loaded: candidates.filter((c) => !c.loaded).length,
    seed_concepts: seeds.map((id) => ({ id, name: id, similarity: 0.9 })),
    candidates,
    concept_hops: conceptHops,
    limits: { min_budget: 48, max_budget: 32768 },
    timing: { classify_us: 0, candidates_us: 0, score_us: 0, select_us: 0, assemble_us: 0, total_us: 0 },
  };
}

export function detailFor(data: GraphData, id: string): NodeDetail | null {
  const node = data.nodes.find((n) => n.id === id);
  if (!node) return null;
  const label = new Map(data.nodes.map((n) => [n.id, n]));
  const neighbours: NodeDetail['neighbours'] = [];
  for (const e of data.edges) {
    const other = e.source === id ? e.target : e.target === id ? e.source : null;
    if (!other) continue;
    const o = label.get(other);
    if (o) neighbours.push({ id: other, label: o.label, kind: o.kind, edge: e.kind, weight: e.weight });
  }
  return {
    id,
    kind: node.kind,
    label: node.label,
    reference: node.kind === 'content' ? `${node.document} ${node.label}` : undefined,
    document: node.document,
    collection: node.collection,
    source: node.source,
    tokens: node.tokens,
    pinned: node.pinned,
    text: `Synthetic text of ${node.label}.\n\nA second paragraph.`,
    // One entry per concept (two edges to the same concept are one concept), as the engine lists them.
    concepts: [...new Map(neighbours.filter((n) => n.kind === 'concept').map((n) => [n.id, { id: n.id, name: n.label, similarity: n.weight }])).values()],
    neighbours,
  };
}
