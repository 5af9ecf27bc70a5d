// Node ids in text (an answer, a tool call) turned into links: the engine
// names content nodes n-<16 hex> and concepts c-<16 hex>; models often quote
// them in brackets and sometimes shorten them.

/** A run of plain text, or a node id to link. */
export type Piece = { text: string; id?: undefined } | { text: string; id: string };

const idLike = /\b[nc]-[0-9a-f]{4,16}\b/g;

/**
 * Splits text into plain runs and node ids. An id is linked when it is one
 * of the known ids, a prefix of exactly one known id (then the full id is
 * linked), or a full 16-digit id (it may be anywhere in the graph).
 */
export function splitNodeIds(text: string, known: Iterable<string> = []): Piece[] {
  const ids = [...new Set(known)];
  const pieces: Piece[] = [];
  let last = 0;
  for (const m of text.matchAll(idLike)) {
    const raw = m[0];
    let id: string | undefined;
    if (ids.includes(raw)) id = raw;
    else {
      const matches = ids.filter((k) => k.startsWith(raw));
      if (matches.length === 1) id = matches[0];
      else if (raw.length === 18) id = raw;
    }
    if (!id) continue;
    const at = m.index ?? 0;
    if (at > last) pieces.push({ text: text.slice(last, at) });
    pieces.push({ text: raw, id });
    last = at + raw.length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}
