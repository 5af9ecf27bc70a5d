// What the source viewer shows of a document: each section's marker (its
// pages in a paged document, else its lines), its lines numbered where the
// file has lines worth citing, runs of sections left out of a long
// document, and what the document says of itself.
import type { DocMeta, SourceSection, SourceView } from '../bridge/types';

/** A 1-based range as cites write it: "4–5", "4" for one, "" when unknown. */
export function span(start: number, end: number): string {
  if (start <= 0) return '';
  if (end <= start) return String(start);
  return `${start}–${end}`;
}

/** Formats whose lines are of converted text nobody can open: cited by section, not line. */
const converted = new Set(['html', 'docx', 'epub', 'beir']);

/** A paged document (a PDF): sections are placed by page. */
export function paged(view: SourceView): boolean {
  return view.document.format === 'pdf' || view.sections.some((s) => s.page_start > 0);
}

/** Where a section is: "p. 4–5" in a paged document, else "L12–30"; "" when unknown. */
export function marker(view: SourceView, s: SourceSection): string {
  if (paged(view)) {
    const p = span(s.page_start, s.page_end);
    return p ? `p. ${p}` : '';
  }
  if (converted.has(view.document.format)) return '';
  const l = span(s.line_start, s.line_end);
  return l ? `L${l}` : '';
}

/** A section's text line by line with the file's line numbers, or null where lines are not cited. */
export function numberedLines(view: SourceView, s: SourceSection): { n: number; text: string }[] | null {
  if (paged(view) || converted.has(view.document.format) || s.line_start <= 0 || !s.text) return null;
  return s.text.split('\n').map((text, i) => ({ n: s.line_start + i, text }));
}

/** A section to show, or a run of sections a long document leaves out. */
export type Item = { kind: 'section'; section: SourceSection } | { kind: 'omitted'; count: number; from: SourceSection; to: SourceSection };

/** The sections in order, runs of omitted ones gathered into one item each. */
export function items(view: SourceView): Item[] {
  const out: Item[] = [];
  for (const s of view.sections) {
    const last = out[out.length - 1];
    if (!s.omitted) out.push({ kind: 'section', section: s });
    else if (last?.kind === 'omitted') {
      last.count++;
      last.to = s;
    } else out.push({ kind: 'omitted', count: 1, from: s, to: s });
  }
  return out;
}

/** What a document says of itself, as label and value lines (empty ones left out). */
export function metaLines(meta: DocMeta): { label: string; value: string }[] {
  const lines = [
    { label: 'Authors', value: (meta.authors ?? []).join(', ') },
    { label: 'Year', value: meta.year ?? '' },
    { label: 'Venue', value: meta.venue ?? '' },
    { label: 'DOI', value: meta.doi ?? '' },
    { label: 'arXiv', value: meta.arxiv ?? '' },
    { label: 'BibTeX key', value: meta.bibkey ?? '' },
    { label: 'Pages', value: meta.pages ? String(meta.pages) : '' },
    { label: 'Aliases', value: (meta.aliases ?? []).join(', ') },
    { label: 'Tags', value: (meta.tags ?? []).map((t) => `#${t}`).join(' ') },
  ];
  return lines.filter((l) => l.value !== '');
}
