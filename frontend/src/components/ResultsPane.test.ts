import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import ResultsPane from './ResultsPane.svelte';
import { FakeWorkbench, golden } from '../bridge/fake';

const wb = new FakeWorkbench({ library: 'notes' });

describe('ResultsPane', () => {
  it('counts the relevant loaded, and what is near the question apart', () => {
    const result = wb.assemble({ question: golden.questions.linked, budget: 2000 });
    render(ResultsPane, { result });
    const summary = screen.getByTestId('query-summary').textContent ?? '';
    expect(summary).toContain(`${result.loaded} of ${result.relevant} relevant loaded`);
    expect(screen.queryByTestId('query-near')).toBeNull();
  });

  it('a context beyond 4,096 tokens: the nodes near the question are not counted as relevant', () => {
    const result = { ...wb.assemble({ question: golden.questions.linked, budget: 2000 }), loaded: 7, relevant: 3, near: 4, relevance_budget: 4096 };
    render(ResultsPane, { result });
    expect(screen.getByTestId('query-summary').textContent).toContain('3 of 3 relevant loaded');
    const near = screen.getByTestId('query-near');
    expect(near.textContent).toBe('4 near the question');
    expect(near.title).toBe("Beyond 4,096 tokens the context also takes the next candidates that stand above the question's background");
  });

  it('the tooltip names the budget the engine judges relevance at', () => {
    const result = { ...wb.assemble({ question: golden.questions.linked, budget: 2000 }), loaded: 5, relevant: 2, near: 3, relevance_budget: 6000 };
    render(ResultsPane, { result });
    expect(screen.getByTestId('query-near').title).toContain('Beyond 6,000 tokens');
    const older = { ...result, relevance_budget: undefined };
    render(ResultsPane, { result: older });
    expect(screen.getAllByTestId('query-near')[1].title).toContain('Beyond the budget relevance is judged at');
  });
});
