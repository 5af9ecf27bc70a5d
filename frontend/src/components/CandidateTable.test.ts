import { describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, within } from '@testing-library/svelte';
import CandidateTable from './CandidateTable.svelte';
import type { Candidate, Signals } from '../bridge/types';

const signals = (semantic: number): Signals => ({ semantic, hop: 0.5, staleness: 0.9, size: 0.4, provenance: 0.5, density: 0.2, trust: 0.7, novelty: 1 });
const weights = { semantic: 0.4, hop: 0.15, staleness: 0.05, size: 0.1, provenance: 0.05, density: 0.1, trust: 0.1, novelty: 0.05 };

const cand = (id: string, score: number, extra: Partial<Candidate>): Candidate => ({
  id, reference: `doc.md § ${id}`, title: id, document: 'doc.md', collection: 'c', source: 'input', tokens: 100,
  keyword: 0.5, cosine: 0.5, hops: 1, signals: signals(score), score, relevant: true, loaded: false, reason: '', ...extra,
});

const candidates = [
  cand('n-loaded', 0.8, { loaded: true, level: 'detailed', loaded_tokens: 100, reason: 'loaded in full: it fits the budget' }),
  cand('n-big', 0.9, { tokens: 5000, reason: 'not loaded: 5000 tokens do not fit the 400 left' }),
  cand('n-off', 0.1, { relevant: false, hops: -1, reason: 'not relevant to the question' }),
];

// The machine may be busy: wait longer than the defaults before failing.
configure({ asyncUtilTimeout: 5000 });

describe('CandidateTable', { timeout: 30_000 }, () => {
  it('shows each candidate with its status and the reason in words', () => {
    render(CandidateTable, { candidates, weights });
    const rows = screen.getAllByTestId('candidate-row');
    const byId = Object.fromEntries(rows.map((r) => [r.dataset.id, r]));
    expect(byId['n-loaded'].dataset.status).toBe('loaded');
    expect(byId['n-big'].dataset.status).toBe('relevant');
    expect(byId['n-off'].dataset.status).toBe('irrelevant');
    expect(within(byId['n-big']).getByTestId('candidate-reason').textContent).toBe('not loaded: 5000 tokens do not fit the 400 left');
    expect(within(byId['n-off']).getByTestId('candidate-reason').textContent).toBe('not relevant to the question');
    expect(byId['n-off'].textContent).toContain('—'); // unreachable hops
    const bars = within(byId['n-loaded']).getByTestId('signal-bars');
    expect(bars.querySelectorAll('[data-signal]')).toHaveLength(8);
    expect(bars.getAttribute('aria-label')).toContain('semantic 0.80 × 0.40');
  });

  it('sorts by score, highest first, and flips on a second click', async () => {
    render(CandidateTable, { candidates, weights });
    const ids = () => screen.getAllByTestId('candidate-row').map((r) => r.dataset.id);
    expect(ids()).toEqual(['n-big', 'n-loaded', 'n-off']);
    await fireEvent.click(screen.getByTestId('sort-score'));
    expect(ids()).toEqual(['n-off', 'n-loaded', 'n-big']);
  });

  it('filters by status, marks entered and left rows, and selects on click', async () => {
    const onselect = vi.fn();
    render(CandidateTable, { candidates, weights, entered: new Set(['n-loaded']), left: new Set(['n-big']), onselect });
    const rows = screen.getAllByTestId('candidate-row');
    expect(rows.find((r) => r.dataset.id === 'n-loaded')!.classList.contains('entered')).toBe(true);
    expect(rows.find((r) => r.dataset.id === 'n-big')!.textContent).toContain('left');
    await fireEvent.click(rows[0]);
    expect(onselect).toHaveBeenCalledWith('n-big');
    await fireEvent.click(screen.getByRole('button', { name: /^Loaded/ }));
    expect(screen.getAllByTestId('candidate-row').map((r) => r.dataset.id)).toEqual(['n-loaded']);
  });

  it('shows 50 rows of a long list until asked for all', async () => {
    const many = Array.from({ length: 100 }, (_, i) => cand(`n-${i}`, i / 100, { reason: 'x' }));
    render(CandidateTable, { candidates: many, weights });
    expect(screen.getAllByTestId('candidate-row')).toHaveLength(50);
    await fireEvent.click(screen.getByText('Show all 100 candidates'));
    expect(screen.getAllByTestId('candidate-row')).toHaveLength(100);
  });

  it('names each candidate’s source by its cite, which opens it without selecting the row', async () => {
    const onselect = vi.fn();
    const oncite = vi.fn();
    const cited = [cand('n-cited', 0.8, { cite: 'papers/flash.pdf p. 4–5 §3.2.1' }), cand('n-plain', 0.5, {})];
    render(CandidateTable, { candidates: cited, weights, onselect, oncite });
    const rows = Object.fromEntries(screen.getAllByTestId('candidate-row').map((r) => [r.dataset.id, r]));
    const chip = within(rows['n-cited']).getByTestId('cite-link');
    expect(chip.textContent).toBe('papers/flash.pdf p. 4–5 §3.2.1');
    await fireEvent.click(chip);
    expect(oncite).toHaveBeenCalledWith('n-cited');
    expect(onselect).not.toHaveBeenCalled();
    expect(within(rows['n-plain']).queryByTestId('cite-link'), 'no cite: the reference').toBeNull();
    expect(rows['n-plain'].textContent).toContain('doc.md § n-plain');
  });
});
