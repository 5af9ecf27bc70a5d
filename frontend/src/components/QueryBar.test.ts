import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/svelte';
import QueryBar from './QueryBar.svelte';
import { FakeWorkbench } from '../bridge/fake';
import { QueryStore } from '../lib/stores/query.svelte';
import { OllamaStore } from '../lib/stores/ollama.svelte';
import { ExportStore } from '../lib/stores/export.svelte';
import type { GraphCluster } from '../bridge/types';

const cluster = (id: string, name: string): GraphCluster => ({ id, name, colour: 0, concepts: 3, sections: 10, documents: 2, top: [] }) as GraphCluster;

describe('QueryBar', () => {
  afterEach(cleanup);

  it('says so when the question is scoped to a cluster the library no longer has, instead of a blank picker', () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    const ollama = new OllamaStore(wb);
    const query = new QueryStore(wb, ollama);
    query.scope = 'cluster:c:gone';
    const props = { query, ollama, exporter: new ExportStore(wb), collections: [], clusters: [cluster('c:a', 'Budgets, Tokens')] };
    const { unmount } = render(QueryBar, props);
    const select = screen.getByTestId('query-scope') as HTMLSelectElement;
    expect(select.value).toBe('cluster:c:gone');
    expect(select.selectedOptions[0].textContent).toContain('no longer has');
    unmount();

    // A cluster it still has: no such option.
    query.scope = 'cluster:c:a';
    render(QueryBar, props);
    expect((screen.getByTestId('query-scope') as HTMLSelectElement).value).toBe('cluster:c:a');
    expect(screen.queryByTestId('query-scope-gone')).toBeNull();
  });
});
