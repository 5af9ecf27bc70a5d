import { describe, expect, it } from 'vitest';
import { items, marker, metaLines, numberedLines, span } from './source';
import type { SourceSection, SourceView } from '../bridge/types';

const sec = (id: string, extra: Partial<SourceSection> = {}): SourceSection => ({
  id, heading_path: [], cite: '', page_start: 0, page_end: 0, line_start: 0, line_end: 0, part: 1, parts: 1, text: '', ...extra,
});
const view = (format: string, sections: SourceSection[]): SourceView => ({
  document: { id: 'd', path: 'x', collection: 'c', format, title: '', key: '/x', meta: {}, file: true },
  sections, focus: sections[0]?.id ?? '', cite: '',
});

describe('source', () => {
  it('writes ranges as cites do', () => {
    expect([span(0, 4), span(4, 0), span(4, 4), span(4, 5)]).toEqual(['', '4', '4', '4–5']);
  });

  it('places a section by its pages in a paged document, by its lines in a file, not at all in converted text', () => {
    const s = sec('a', { line_start: 12, line_end: 30, page_start: 4, page_end: 5, text: 'one\ntwo' });
    expect(marker(view('pdf', [s]), s)).toBe('p. 4–5');
    expect(marker(view('markdown', [{ ...s, page_start: 0, page_end: 0 }]), { ...s, page_start: 0, page_end: 0 })).toBe('L12–30');
    expect(marker(view('html', [sec('h', { line_start: 3 })]), sec('h', { line_start: 3 }))).toBe('');
    const md = { ...s, page_start: 0, page_end: 0 };
    expect(numberedLines(view('markdown', [md]), md)).toEqual([{ n: 12, text: 'one' }, { n: 13, text: 'two' }]);
    expect(numberedLines(view('pdf', [s]), s)).toBeNull();
    expect(numberedLines(view('markdown', [sec('u', { line_start: 3 })]), sec('u', { line_start: 3 })), 'no text, no lines').toBeNull();
  });

  it('gathers runs of omitted sections into one item each', () => {
    const list = items(view('markdown', [sec('a', { omitted: true }), sec('b', { omitted: true }), sec('c'), sec('d', { omitted: true })]));
    expect(list.map((i) => (i.kind === 'omitted' ? `…${i.count}:${i.from.id}-${i.to.id}` : i.section.id))).toEqual(['…2:a-b', 'c', '…1:d-d']);
  });

  it('says what a document says of itself, leaving out what it does not', () => {
    expect(metaLines({})).toEqual([]);
    expect(metaLines({ authors: ['A', 'B'], year: '2022', tags: ['x', 'y'], aliases: ['z'] })).toEqual([
      { label: 'Authors', value: 'A, B' },
      { label: 'Year', value: '2022' },
      { label: 'Aliases', value: 'z' },
      { label: 'Tags', value: '#x #y' },
    ]);
  });
});
