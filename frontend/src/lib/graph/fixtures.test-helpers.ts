// Small hand-made graph and query shared by the graph tests.
import type { Candidate, GraphData, QueryResult } from '../../bridge/workbench';

export const small: GraphData = {
  generation: 3,
  clusters: [],
  clusterLinks: [],
  nodes: [
    { id: 'A', kind: 'concept', label: 'Loading decision' },
    { id: 'B', kind: 'concept', label: 'Token budget' },
    { id: 'C', kind: 'concept', label: 'Unrelated idea' },
    { id: 's1', kind: 'content', label: 'Intro §1', source: 'input', document: 'a.md', collection: 'docs', tokens: 120 },
    { id: 's2', kind: 'content', label: 'Budget §2', source: 'input', document: 'a.md', collection: 'docs', tokens: 900 },
    { id: 's3', kind: 'content', label: 'Loading §3', source: 'input', document: 'b.md', collection: 'docs', tokens: 40, pinned: true },
    { id: 's4', kind: 'content', label: 'Budget notes', source: 'analysis', document: 'b.md', tokens: 10 },
    { id: 's5', kind: 'content', label: 'Stray', source: 'input', document: 'c.md', tokens: 5 },
    { id: 's6', kind: 'content', label: 'Far away', source: 'input', document: 'c.md', tokens: 5 },
    { id: 's7', kind: 'content', label: 'Answer', source: 'output', document: 'chat', tokens: 300 },
  ],
  edges: [
    { source: 's1', target: 'A', kind: 'about', weight: 0.9 },
    { source: 's2', target: 'B', kind: 'about', weight: 0.8 },
    { source: 'A', target: 's3', kind: 'about', weight: 0.7 }, // reversed direction on purpose
    { source: 's4', target: 'B', kind: 'about', weight: 0.6 },
    { source: 's6', target: 'A', kind: 'about', weight: 0.5 },
    { source: 'A', target: 'B', kind: 'related', weight: 0.5 },
    { source: 's1', target: 's2', kind: 'parent', weight: 1 },
    { source: 's3', target: 's5', kind: 'links', weight: 1 },
    { source: 's7', target: 's1', kind: 'derived', weight: 1 },
    { source: 's1', target: 'missing', kind: 'links', weight: 1 }, // dangling: dropped
    { source: 's5', target: 's5', kind: 'links', weight: 1 }, // self-loop: dropped
  ],
};

const signals = { semantic: 0, hop: 0, staleness: 0, size: 0, provenance: 0, density: 0, trust: 0, novelty: 0 };

export function candidate(id: string, hops: number, relevant: boolean, loaded: boolean): Candidate {
  return {
    id,
    reference: id,
    title: id,
    document: 'a.md',
    collection: 'docs',
    source: 'input',
    tokens: 10,
    keyword: 0,
    cosine: 0,
    hops,
    signals,
    score: 0,
    relevant,
    loaded,
    reason: '',
  };
}

export function queryFor(candidates: Candidate[], conceptHops: Record<string, number>): QueryResult {
  return {
    question: 'how does loading work',
    purpose: 'answer',
    level: 'adaptive',
    strategy: '',
    query_type: '',
    complexity: 0,
    embedder: 'offline',
    weights: signals,
    split: {
      window: 8000,
      window_source: '',
      system: 0,
      question: 0,
      output: 0,
      output_share: 0,
      context: 0,
      manifest: 0,
      catalog: 0,
      loaded: 0,
      free: 0,
    },
    branch: '',
    manifest: '',
    prompt: '',
    prompt_tokens: 0,
    loaded: candidates.filter((c) => c.loaded).length,
    relevant: candidates.filter((c) => c.relevant).length,
    not_loaded: 0,
    seed_concepts: [{ id: 'A', name: 'Loading decision', similarity: 0.9 }],
    candidates,
    concept_hops: conceptHops,
    limits: { min_budget: 48, max_budget: 32768 },
    timing: { classify_us: 0, candidates_us: 0, score_us: 0, select_us: 0, assemble_us: 0, total_us: 0 },
  };
}

/** s1 loaded (1 hop), s2 relevant not loaded (2 hops), s6 a candidate no seed reaches (−1). */
export const smallQuery: QueryResult = queryFor(
  [candidate('s1', 1, true, true), candidate('s2', 2, true, false), candidate('s6', -1, false, false)],
  { A: 0, B: 1 },
);

/**
 * The small graph with two clusters, as the engine sends them: "c:A"
 * (A and the sections about it: s1 s3 s6) and "c:B" (B, s2 s4); C, s5 and
 * s7 are in none. One link between the clusters.
 */
export const smallClustered: GraphData = {
  ...small,
  nodes: small.nodes.map((n) => ({
    ...n,
    cluster: ['A', 's1', 's3', 's6'].includes(n.id) ? 'c:A' : ['B', 's2', 's4'].includes(n.id) ? 'c:B' : undefined,
  })),
  clusters: [
    { id: 'c:A', name: 'Loading', colour: 0, concepts: 1, sections: 3, documents: 3, top: ['A'] },
    { id: 'c:B', name: '', colour: 5, concepts: 1, sections: 2, documents: 2, top: ['B'] },
  ],
  clusterLinks: [{ source: 'c:A', target: 'c:B', weight: 2.3, edges: 3 }],
};
