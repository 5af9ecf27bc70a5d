import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import DocumentList from './DocumentList.svelte';
import type { DocumentInfo } from '../bridge/types';
import type { DocumentGroup } from '../lib/stores/library.svelte';

const doc = (id: string, collection: string, extra: Partial<DocumentInfo> = {}): DocumentInfo => ({
  id, key: `/data/${id}.md`, path: `${id}.md`, source: `/data/${id}.md`, collection, format: 'markdown', title: `Title ${id}`, hash: `hash-${id}`,
  bytes: 100, nodes: 3, tokens: 1200, ingested: '2026-01-01T00:00:00Z', pinned: false, ...extra,
});

const group = (name: string, docs: DocumentInfo[]): DocumentGroup => ({
  name, documents: docs, sections: docs.reduce((n, d) => n + d.nodes, 0), tokens: docs.reduce((n, d) => n + d.tokens, 0),
});

function setup(groups: DocumentGroup[], busy = {}) {
  const handlers = { onremove: vi.fn(), onreingest: vi.fn(), onpin: vi.fn() };
  render(DocumentList, { groups, busy, ...handlers });
  return handlers;
}

describe('DocumentList', () => {
  it('groups documents by collection with their counts', () => {
    setup([group('papers', [doc('a', 'papers'), doc('b', 'papers')]), group('notes', [doc('c', 'notes')])]);
    const groups = screen.getAllByTestId('document-group');
    expect(groups.map((g) => g.dataset.collection)).toEqual(['papers', 'notes']);
    expect(groups[0].textContent).toContain('2 docs');
    expect(groups[0].textContent).toContain('6 sections');
    expect(groups[0].textContent).toContain('2,400 tok');
    expect(screen.getAllByTestId('document-item').map((d) => d.dataset.id)).toEqual(['a', 'b', 'c']);
  });

  it('shows only what the graph’s filters let through, says so, and offers to show all', async () => {
    const onclearfilter = vi.fn();
    render(DocumentList, {
      groups: [group('papers', [doc('a', 'papers'), doc('b', 'papers')]), group('notes', [doc('c', 'notes')])],
      busy: {},
      onremove: vi.fn(),
      onreingest: vi.fn(),
      onpin: vi.fn(),
      shown: (d: DocumentInfo) => d.collection === 'notes' || d.id === 'b',
      onclearfilter,
    });
    expect(screen.getAllByTestId('document-item').map((d) => d.dataset.id)).toEqual(['b', 'c']);
    const groups = screen.getAllByTestId('document-group');
    expect(groups[0].textContent).toContain('1 doc'); // the group's counts are of what is shown
    const note = screen.getByTestId('document-list-filtered');
    expect(note.textContent).toContain('2 of 3 documents');
    await fireEvent.click(screen.getByTestId('document-list-clear-filter'));
    expect(onclearfilter).toHaveBeenCalled();
  });

  it('removes only after the confirm step', async () => {
    const { onremove } = setup([group('papers', [doc('a', 'papers')])]);
    await fireEvent.click(screen.getByTestId('remove-document'));
    expect(onremove).not.toHaveBeenCalled();
    expect(screen.getByRole('group', { name: 'Confirm removal' }).textContent).toContain('Title a');
    await fireEvent.click(screen.getByText('Keep'));
    expect(screen.queryByTestId('confirm-remove')).toBeNull();
    await fireEvent.click(screen.getByTestId('remove-document'));
    await fireEvent.click(screen.getByTestId('confirm-remove'));
    expect(onremove).toHaveBeenCalledWith('a');
  });

  it('re-ingests and toggles the pin', async () => {
    const { onreingest, onpin } = setup([group('papers', [doc('a', 'papers'), doc('b', 'papers', { pinned: true })])]);
    const [a, b] = screen.getAllByTestId('document-item');
    await fireEvent.click(within(a).getByTestId('reingest-document'));
    expect(onreingest).toHaveBeenCalledWith('a');
    await fireEvent.click(within(a).getByTestId('pin-document'));
    expect(onpin).toHaveBeenCalledWith('a', true);
    await fireEvent.click(within(b).getByTestId('pin-document'));
    expect(onpin).toHaveBeenLastCalledWith('b', false);
  });

  it('disables a document\u2019s actions while one runs', () => {
    setup([group('papers', [doc('a', 'papers')])], { a: 'removing' });
    const item = screen.getByTestId('document-item');
    expect((within(item).getByTestId('pin-document') as HTMLButtonElement).disabled).toBe(true);
    expect(item.textContent).toContain('Removing…');
  });

  it('shows a page of a big collection at a time, and filters', async () => {
    const many = Array.from({ length: 130 }, (_, i) => doc(`d${i}`, 'big'));
    setup([group('big', many)]);
    expect(screen.getAllByTestId('document-item')).toHaveLength(100);
    await fireEvent.click(screen.getByText(/Show more/));
    expect(screen.getAllByTestId('document-item')).toHaveLength(130);
    await fireEvent.input(screen.getByLabelText('Filter documents'), { target: { value: 'title d12' } });
    expect(screen.getAllByTestId('document-item').map((d) => d.dataset.id)).toEqual(['d12', 'd120', 'd121', 'd122', 'd123', 'd124', 'd125', 'd126', 'd127', 'd128', 'd129']);
  }, 20_000);
});
