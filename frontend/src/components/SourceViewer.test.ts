import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen, within } from '@testing-library/svelte';
import SourceViewer from './SourceViewer.svelte';
import { FakeWorkbench, golden } from '../bridge/fake';
import { SourceStore } from '../lib/stores/source.svelte';
import type { SourceSection, SourceView } from '../bridge/types';

configure({ asyncUtilTimeout: 5000 });

/** A node of the notes whose document has several sections, and one in the middle of them. */
const [cited, notes] = Object.entries(golden.sources).find(([id, v]) => v.sections.length === 3 && v.sections[1].id === id)!;

function section(id: string, extra: Partial<SourceSection>): SourceSection {
  return { id, heading_path: [], cite: '', page_start: 0, page_end: 0, line_start: 0, line_end: 0, part: 1, parts: 1, text: '', ...extra };
}

/** A paper as the engine would send it: pages, numbered headings, what it says of itself, a lost text, a long tail left out. */
const paper: SourceView = {
  document: {
    id: 'd-paper', path: 'papers/flash.pdf', collection: 'papers', format: 'pdf', title: 'FlashAttention', key: '/home/ada/papers/flash.pdf',
    meta: { authors: ['Tri Dao', 'Dan Fu'], year: '2022', doi: '10.48550/arxiv.2205.14135', arxiv: '2205.14135', tags: ['attention'], aliases: ['flash'], pages: 34 },
    file: true,
  },
  sections: [
    section('n-abs', { heading_path: ['Abstract'], cite: 'papers/flash.pdf p. 1 §Abstract', page_start: 1, page_end: 1, text: 'Transformers are slow.' }),
    section('n-tiling', { heading_path: ['3 Method', '3.2.1 Tiling'], cite: 'papers/flash.pdf p. 4–5 §3.2.1', page_start: 4, page_end: 5, text: 'We split the inputs into blocks.\nEach block fits in SRAM.' }),
    section('n-lost', { heading_path: ['4 Experiments'], cite: 'papers/flash.pdf p. 6 §4', page_start: 6, page_end: 6, unavailable: 'its stored text is missing' }),
    section('n-a', { cite: 'papers/flash.pdf p. 20', page_start: 20, omitted: true }),
    section('n-b', { cite: 'papers/flash.pdf p. 21', page_start: 21, omitted: true }),
  ],
  focus: 'n-tiling',
  cite: 'papers/flash.pdf p. 4–5 §3.2.1',
};

async function show(id: string, opts: { edition?: 'desktop' | 'web'; view?: SourceView; failing?: boolean } = {}) {
  const wb = new FakeWorkbench({ library: 'notes', edition: opts.edition ?? 'web' });
  if (opts.view) {
    const view = opts.view;
    wb.openSource = async (nodeID) => {
      wb.sourcesOpened.push(nodeID);
      return structuredClone(view);
    };
  }
  const source = new SourceStore(wb);
  const onclose = vi.fn(() => source.close());
  const onselect = vi.fn();
  void source.open(id);
  render(SourceViewer, { source, onclose, onselect });
  const viewer = screen.getByTestId('source-viewer');
  if (!opts.failing) await within(viewer).findByTestId('source-focus');
  return { wb, source, viewer, onclose, onselect };
}

describe('SourceViewer', { timeout: 30_000 }, () => {
  let scrolled: Element[];
  beforeEach(() => {
    scrolled = [];
    // jsdom lays nothing out and has no scrollIntoView: record who asked for it.
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
  });
  afterEach(() => {
    cleanup();
    delete (Element.prototype as Partial<Element>).scrollIntoView;
  });

  it('shows the note a citation names, its sections in order with their lines, the cited one highlighted and in view', async () => {
    const { viewer } = await show(cited);
    expect(viewer.getAttribute('role')).toBe('dialog');
    expect(viewer.getAttribute('aria-modal')).toBe('true');
    expect(within(viewer).getByTestId('source-title').textContent).toBe(notes.document.title);
    expect(within(viewer).getByTestId('source-place').textContent).toBe(`${notes.document.path} · ${notes.document.collection} · markdown`);
    expect(within(viewer).getByTestId('source-cite').textContent).toBe(notes.cite);

    const sections = [...viewer.querySelectorAll<HTMLElement>('[data-id]')].filter((el) => el.tagName === 'SECTION');
    expect(sections.map((s) => s.dataset.id)).toEqual(notes.sections.map((s) => s.id));
    const focus = within(viewer).getByTestId('source-focus');
    expect(focus.dataset.id).toBe(cited);
    expect(focus.getAttribute('aria-current')).toBe('true');
    expect(focus.classList.contains('focus')).toBe(true);
    expect(sections.filter((s) => s.getAttribute('aria-current')).length, 'one passage is highlighted').toBe(1);
    await vi.waitFor(() => expect(scrolled).toContain(focus));

    const s = notes.sections[1];
    expect(within(focus).getByTestId('source-marker').textContent).toBe(`L${s.line_start}–${s.line_end}`);
    const numbers = [...focus.querySelectorAll('.ln')].map((n) => Number(n.textContent));
    expect(numbers[0]).toBe(s.line_start);
    expect(numbers).toHaveLength(s.text.split('\n').length);
    expect(focus.querySelector('.text')?.textContent).toBe(s.text.split('\n').map((l, i) => `${s.line_start + i}${l}`).join(''));
  });

  it('shows a paper by its pages, with what it says of itself, a lost text marked and a long tail gathered', async () => {
    const { viewer } = await show('n-tiling', { view: paper });
    const meta = within(viewer).getByTestId('source-meta').textContent ?? '';
    for (const want of ['Tri Dao, Dan Fu', '2022', '10.48550/arxiv.2205.14135', '2205.14135', '#attention', 'flash', '34']) expect(meta).toContain(want);
    const focus = within(viewer).getByTestId('source-focus');
    expect(within(focus).getByTestId('source-marker').textContent).toBe('p. 4–5');
    expect(focus.querySelector('.ln'), 'a PDF is placed by page, not by line').toBeNull();
    expect(focus.textContent).toContain('3 Method › 3.2.1 Tiling');
    expect(within(viewer).getByTestId('source-unavailable').textContent).toBe('Text unavailable: its stored text is missing');
    const omitted = within(viewer).getAllByTestId('source-omitted');
    expect(omitted).toHaveLength(1);
    expect(omitted[0].textContent).toContain('2 sections not shown (p. 20 to p. 21)');
  });

  it('closes on Escape and on ✕, keeps Tab inside, and starts on the close button', async () => {
    const { viewer, onclose } = await show(cited);
    const close = within(viewer).getByTestId('source-close');
    expect(document.activeElement).toBe(close);
    const last = within(viewer).getByTestId('source-show-in-graph');
    last.focus();
    await fireEvent.keyDown(last, { key: 'Tab' });
    expect(document.activeElement, 'Tab from the last control comes back to the first').toBe(close);
    await fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    await fireEvent.keyDown(viewer, { key: 'Escape' });
    expect(onclose).toHaveBeenCalledTimes(1);
    await fireEvent.click(close);
    expect(onclose).toHaveBeenCalledTimes(2);
  });

  it('shows the cited node in the graph', async () => {
    const { viewer, onselect } = await show(cited);
    await fireEvent.click(within(viewer).getByTestId('source-show-in-graph'));
    expect(onselect).toHaveBeenCalledWith(cited);
  });

  it('opens the file in the system’s viewer on the desktop, and says why when that fails', async () => {
    const { wb, viewer } = await show('n-tiling', { edition: 'desktop', view: paper });
    await fireEvent.click(within(viewer).getByTestId('source-open-system'));
    await vi.waitFor(() => expect(wb.systemViewer).toEqual(['n-tiling']));
    wb.failNext.openInSystemViewer = golden.error('dialog_failed');
    await fireEvent.click(within(viewer).getByTestId('source-open-system'));
    expect((await within(viewer).findByTestId('source-system-error')).textContent).toBe(golden.rejection('dialog_failed').message);
  });

  it('has no system viewer in the web edition, nor for an answer kept in the workspace', async () => {
    const web = await show('n-tiling', { view: paper });
    expect(within(web.viewer).queryByTestId('source-open-system')).toBeNull();
    cleanup();
    const answer = await show('n-tiling', { edition: 'desktop', view: { ...paper, document: { ...paper.document, file: false } } });
    expect(within(answer.viewer).queryByTestId('source-open-system')).toBeNull();
  });

  it('says so when the node is not in the workspace', async () => {
    const { viewer } = await show('n-0000000000000000', { failing: true });
    expect((await within(viewer).findByTestId('source-error')).textContent).toBe(golden.rejection('source_not_found').message);
  });
});
