// Node ids in text (an answer, a tool call) turned into links: the engine
// names content nodes n-<16 hex> and concepts c-<16 hex>; a prompt writes a
// content node's id shortened and in letters, one for each hex digit
// ("[hpih]" for n-8f48…, two tokens fewer: the engine's model.PromptID);
// models quote ids in brackets, several to a bracket ("[hpih, tdac]"), in
// either form. An id whose cite the page knows (the engine's human-readable
// reference: "notes/a.md#b L12–30", "paper.pdf p. 4–5 §3.2.1") becomes a
// citation, labelled with it, that opens the source.

/** A run of plain text, a node id to link, or one to cite (an id with its cite). */
export type Piece = { text: string; id?: undefined; cite?: undefined } | { text: string; id: string; cite?: string };

const idLike = /\b[nc]-[0-9a-f]{4,16}\b/g;

/** The letters a prompt writes hex digits 0–f in (the engine's model.idLetters). */
const idLetters = 'etaoinsrhldcumkp';

/** A bracket's text, and in it the runs of letters that may be ids. */
const bracket = /\[([^[\]\n]{1,400})\]/g;
const lettersLike = /\b[a-zA-Z]{3,16}\b/g;

/** The id (or id prefix) a run of letters stands for: "hpih" → "n-8f48"; undefined for other letters. */
export function fromPromptId(letters: string): string | undefined {
  let hex = '';
  for (const ch of letters.toLowerCase()) {
    const v = idLetters.indexOf(ch);
    if (v < 0) return undefined;
    hex += v.toString(16);
  }
  return hex ? 'n-' + hex : undefined;
}

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
 * Splits text into plain runs and node ids (see resolveNodeId): ids in hex
 * anywhere, ids in letters inside brackets (a word outside is a word); an
 * id with a cite in cites carries it. The ids of cites count as known. The
 * pieces' texts put together are the text.
 */
export function splitNodeIds(text: string, known: Iterable<string> = [], cites: Readonly<Record<string, string>> = {}): Piece[] {
  const ids = [...new Set([...known, ...Object.keys(cites)])];
  const found: { at: number; raw: string; id: string }[] = [];
  for (const m of text.matchAll(idLike)) {
    const id = resolveNodeId(m[0], ids);
    if (id) found.push({ at: m.index ?? 0, raw: m[0], id });
  }
  for (const b of text.matchAll(bracket)) {
    const start = (b.index ?? 0) + 1;
    for (const m of b[1].matchAll(lettersLike)) {
      const hex = fromPromptId(m[0]);
      const id = hex && resolveNodeId(hex, ids);
      if (id) found.push({ at: start + (m.index ?? 0), raw: m[0], id });
    }
  }
  found.sort((a, b) => a.at - b.at);
  const pieces: Piece[] = [];
  let last = 0;
  for (const { at, raw, id } of found) {
    if (at < last) continue;
    if (at > last) pieces.push({ text: text.slice(last, at) });
    const cite = cites[id];
    pieces.push(cite ? { text: raw, id, cite } : { text: raw, id });
    last = at + raw.length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}
