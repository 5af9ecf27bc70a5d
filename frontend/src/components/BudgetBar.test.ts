import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import BudgetBar from './BudgetBar.svelte';
import { FakeWorkbench, golden } from '../bridge/fake';
import { budgetSegments } from '../lib/budget';

const wb = new FakeWorkbench({ library: 'notes' });
const question = golden.questions.linked;

describe('BudgetBar', () => {
  it('splits the whole window: the segments sum to it, one per loaded node', () => {
    const result = wb.assemble({ question, budget: 2000 });
    const loaded = result.candidates.filter((c) => c.loaded);
    expect(loaded.length).toBe(3);
    render(BudgetBar, { result });

    const view = screen.getByTestId('budget-view');
    expect(Number(view.dataset.window)).toBe(result.split.window);
    expect(Number(view.dataset.loadedTokens)).toBe(result.split.loaded);
    expect(Number(view.dataset.loadedCount)).toBe(3);
    const segments = screen.getAllByTestId('budget-segment');
    const sum = segments.reduce((n, s) => n + Number(s.dataset.tokens), 0);
    expect(sum).toBe(result.split.window);
    const nodes = segments.filter((s) => s.dataset.kind === 'node');
    expect(nodes.map((s) => s.dataset.id)).toEqual(loaded.map((c) => c.id));
    expect(segments.map((s) => s.dataset.kind).slice(0, 3)).toEqual(['system', 'question', 'output']);
    expect(nodes[0].getAttribute('aria-label')).toContain(loaded[0].reference);
    expect(nodes[0].getAttribute('aria-label')).toContain('detailed');
    // The engine's manifest figure holds the blocks' headers too: the legend says so.
    const manifest = segments.find((s) => s.dataset.kind === 'manifest');
    expect(Number(manifest?.dataset.tokens)).toBe(result.split.manifest);
    expect(screen.getByText(/Manifest and headers/)).toBeTruthy();
  });

  it('still sums to the window when fewer nodes fit, and a node segment selects its node', async () => {
    const result = wb.assemble({ question, budget: 70 });
    const onselect = vi.fn();
    render(BudgetBar, { result, onselect });
    const segments = screen.getAllByTestId('budget-segment');
    expect(segments.reduce((n, s) => n + Number(s.dataset.tokens), 0)).toBe(result.split.window);
    const nodes = segments.filter((s) => s.dataset.kind === 'node');
    expect(nodes.length).toBe(result.loaded);
    expect(nodes.length).toBeLessThan(3);
    await fireEvent.click(nodes[0]);
    expect(onselect).toHaveBeenCalledWith(nodes[0].dataset.id);
  });

  it('counts the framing the engine adds around nodes, so the bar never loses tokens', () => {
    const result = wb.assemble({ question, budget: 2000 });
    const framed = { ...result, split: { ...result.split, loaded: result.split.loaded + 30, free: result.split.free - 30 } };
    const segs = budgetSegments(framed);
    expect(segs.find((s) => s.kind === 'wrapping')?.tokens).toBe(30);
    expect(segs.reduce((n, s) => n + s.tokens, 0)).toBe(result.split.window);
  });
});
