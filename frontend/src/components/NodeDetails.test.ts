import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import NodeDetails from './NodeDetails.svelte';
import type { NodeDetail } from '../bridge/workbench';

const section: NodeDetail = {
  id: 'n42',
  kind: 'content',
  label: '6.2 Loading Decision Tree',
  reference: 'loom-concept.md §6.2 Loading Decision Tree',
  document: 'loom-concept.md',
  collection: 'design',
  source: 'input',
  tokens: 1234,
  pinned: false,
  text: 'First line\n\n  indented second line',
  concepts: [
    { id: 'c1', name: 'loading', similarity: 0.91 },
    { id: 'c2', name: 'budget', similarity: 0.7 },
  ],
  neighbours: [
    { id: 'c1', label: 'loading', kind: 'concept', edge: 'about', weight: 0.91 },
    { id: 'n41', label: '6.1 Budget', kind: 'content', edge: 'parent', weight: 1 },
    { id: 'n77', label: 'Answer about loading', kind: 'content', edge: 'derived', weight: 1 },
  ],
};

describe('NodeDetails', () => {
  it('invites a selection when there is none', () => {
    render(NodeDetails, { detail: null });
    expect(screen.getByTestId('node-details').textContent).toContain(
      'Select a node in the graph to see its text, concepts and neighbours',
    );
  });

  it('shows label, kind, reference, place, tokens and the text as written', () => {
    render(NodeDetails, { detail: section });
    expect(screen.getByTestId('node-label').textContent).toBe('6.2 Loading Decision Tree');
    expect(screen.getByTestId('node-kind').textContent).toBe('content');
    expect(screen.getByTestId('node-reference').textContent).toBe('loom-concept.md §6.2 Loading Decision Tree');
    expect(screen.getByTestId('node-place').textContent).toBe('loom-concept.md · design');
    expect(screen.getByTestId('node-tokens').textContent?.replace(/\D/g, '')).toBe('1234');
    expect(screen.getByTestId('node-text').textContent).toBe('First line\n\n  indented second line');
    expect(screen.getByTestId('node-text').tagName).toBe('PRE');
  });

  it('concepts and neighbours select their node', async () => {
    const onselect = vi.fn();
    render(NodeDetails, { detail: section, onselect });
    await fireEvent.click(within(screen.getByTestId('node-concepts')).getByText('budget'));
    expect(onselect).toHaveBeenLastCalledWith('c2');
    const neighbours = within(screen.getByTestId('node-neighbours'));
    expect(neighbours.getAllByRole('button')).toHaveLength(3);
    expect(neighbours.getByText('derived')).toBeTruthy();
    await fireEvent.click(neighbours.getByText('6.1 Budget'));
    expect(onselect).toHaveBeenLastCalledWith('n41');
  });

  it('the pin button asks for the other state', async () => {
    const onpin = vi.fn();
    const view = render(NodeDetails, { detail: section, onpin });
    const pin = screen.getByTestId('node-pin');
    expect(pin.getAttribute('aria-pressed')).toBe('false');
    await fireEvent.click(pin);
    expect(onpin).toHaveBeenLastCalledWith('n42', true);

    await view.rerender({ detail: { ...section, pinned: true }, onpin });
    expect(screen.getByTestId('node-pin').getAttribute('aria-pressed')).toBe('true');
    await fireEvent.click(screen.getByTestId('node-pin'));
    expect(onpin).toHaveBeenLastCalledWith('n42', false);
  });

  it('a concept shows its description and related concepts', () => {
    render(NodeDetails, {
      detail: {
        id: 'c1',
        kind: 'concept',
        label: 'loading',
        text: 'How Loom decides what to load.',
        concepts: [{ id: 'c2', name: 'budget', similarity: 0.5 }],
        neighbours: [],
      },
    });
    expect(screen.getByTestId('node-kind').textContent).toBe('concept');
    expect(screen.getByText('Related concepts')).toBeTruthy();
    expect(screen.getByText('Description')).toBeTruthy();
    expect(screen.queryByTestId('node-neighbours')).toBeNull();
    expect(screen.queryByTestId('node-reference')).toBeNull();
  });

  it('names the node’s source by its cite, which opens it', async () => {
    const oncite = vi.fn();
    render(NodeDetails, { detail: { ...section, cite: 'loom-concept.md#6-2 L120–170' }, oncite });
    const chip = within(screen.getByTestId('node-cite')).getByTestId('cite-link');
    expect(chip.textContent).toBe('loom-concept.md#6-2 L120–170');
    await fireEvent.click(chip);
    expect(oncite).toHaveBeenCalledWith('n42');
  });
});
