// The budget bar's segments: the whole window, in the order the window is
// spent, one segment per loaded node, and what is left free.
import type { QueryResult } from '../bridge/types';

export type SegmentKind = 'system' | 'question' | 'output' | 'manifest' | 'catalog' | 'node' | 'wrapping' | 'free';

export interface Segment {
  kind: SegmentKind;
  tokens: number;
  label: string;
  /** Node segments: the node's id, reference and level. */
  id?: string;
  reference?: string;
  level?: string;
}

export const segmentNames: Record<SegmentKind, string> = {
  system: 'System prompt',
  question: 'Question',
  output: 'Output reservation',
  // The engine counts the blocks' headers and separators with the manifest.
  manifest: 'Manifest and headers',
  catalog: 'Catalog',
  node: 'Loaded nodes',
  wrapping: 'Node framing',
  free: 'Free',
};

/**
 * The segments of the window. Their tokens sum to the window: the loaded
 * nodes' own counts come from the candidates; whatever the engine counted
 * as loaded beyond them (each node's framing) is one "wrapping" segment,
 * and free is the rest.
 */
export function budgetSegments(result: QueryResult): Segment[] {
  const b = result.split;
  const fixed: Segment[] = [
    { kind: 'system', tokens: b.system, label: segmentNames.system },
    { kind: 'question', tokens: b.question, label: segmentNames.question },
    { kind: 'output', tokens: b.output, label: segmentNames.output },
    { kind: 'manifest', tokens: b.manifest, label: segmentNames.manifest },
    { kind: 'catalog', tokens: b.catalog, label: segmentNames.catalog },
  ];
  const nodes: Segment[] = result.candidates
    .filter((c) => c.loaded)
    .map((c) => ({
      kind: 'node',
      tokens: c.loaded_tokens ?? c.tokens,
      label: c.title || c.reference,
      id: c.id,
      reference: c.reference,
      level: c.level ?? 'detailed',
    }));
  const nodeTokens = nodes.reduce((n, s) => n + s.tokens, 0);
  const segments = [...fixed, ...nodes];
  if (b.loaded > nodeTokens) segments.push({ kind: 'wrapping', tokens: b.loaded - nodeTokens, label: segmentNames.wrapping });
  const used = segments.reduce((n, s) => n + s.tokens, 0);
  segments.push({ kind: 'free', tokens: Math.max(0, b.window - used), label: segmentNames.free });
  return segments;
}
