// Node ids in text (an answer, a tool call) turned into links: the engine
// names content nodes n-<16 hex> and concepts c-<16 hex>; models quote them
// in brackets, several to a bracket ("[n-…, n-…]"), and sometimes shorten
// them. An id whose cite the page knows (the engine's human-readable
// reference: "notes/a.md#b L12–30", "paper.pdf p. 4–5 §3.2.1") becomes a
// citation, labelled with it, that opens the source.

/** A run of plain text, a node id to link, or one to cite (an id with its cite). */
export type Piece = { text: string; id?: undefined; cite?: undefined } | { text: string; id: string; cite?: string };

const idLike = /\b[nc]-[0-9a-f]{4,16}\b/g;

/**
 * The full id a mention means: one of the known ids, the one known id it
 * is a prefix of, or itself when it is a full 16-digit id (it may be
 * anywhere in the graph); undefined for an id nothing says is one.
 */
export function resolveNodeId(raw: string, known: readonly string[]): string | undefined {
  if (known.includes(raw)) return raw;
  const matches = known.filter((k) => k.startsWith(raw));
  if (matches.length === 1) return matches[0];
  if (raw.length === 18) return raw;
  return undefined;
}

/**
 * Splits text into plain runs and node ids (see resolveNodeId); an id with
 * a cite in cites carries it. The ids of cites count as known. The pieces'
 * texts put together are the text.
 */
export function splitNodeIds(text: string, known: Iterable<string> = [], cites: Readonly<Record<string, string>> = {}): Piece[] {
  const ids = [...new Set([...known, ...Object.keys(cites)])];
  const pieces: Piece[] = [];
  let last = 0;
  for (const m of text.matchAll(idLike)) {
    const raw = m[0];
    const id = resolveNodeId(raw, ids);
    if (!id) continue;
    const at = m.index ?? 0;
    if (at > last) pieces.push({ text: text.slice(last, at) });
    const cite = cites[id];
    pieces.push(cite ? { text: raw, id, cite } : { text: raw, id });
    last = at + raw.length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}
