import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { tick } from 'svelte';
import GraphView from './GraphView.svelte';
import { small, smallQuery } from '../lib/graph/fixtures.test-helpers';
import { syntheticGraph } from '../lib/graph/synthetic';

const root = () => screen.getByTestId('graph-view');

describe('GraphView (jsdom: no WebGL)', () => {
  it('shows loading while the graph is null', () => {
    render(GraphView, { graph: null });
    expect(root().dataset.state).toBe('layout');
    expect(root().dataset.nodes).toBe('0');
    expect(screen.getByTestId('graph-loading')).toBeTruthy();
    expect(screen.queryByTestId('graph-search')).toBeNull();
  });

  it('shows the empty state for a graph without nodes', () => {
    render(GraphView, { graph: { nodes: [], edges: [], generation: 1, clusters: [], clusterLinks: [] } });
    expect(root().dataset.state).toBe('empty');
    expect(root().dataset.nodes).toBe('0');
    expect(root().dataset.edges).toBe('0');
    expect(screen.getByTestId('graph-empty').textContent).toContain('Ingest documents');
  });

  it('counts the nodes and edges, and says it needs WebGL', () => {
    render(GraphView, { graph: small });
    expect(root().dataset.nodes).toBe('10');
    expect(root().dataset.edges).toBe('9');
    expect(root().dataset.visible).toBe('10');
    expect(root().dataset.state).toBe('ready');
    expect(root().dataset.webgl).toBe('no');
    expect(screen.getByTestId('graph-no-webgl').textContent).toContain('This view needs WebGL');
  });

  it('counts a big graph', () => {
    render(GraphView, { graph: syntheticGraph({ nodes: 2000, edges: 6000 }) });
    expect(root().dataset.nodes).toBe('2000');
    expect(root().dataset.edges).toBe('6000');
  });

  it('the search matches labels, case-insensitively, and can filter the rest out', async () => {
    render(GraphView, { graph: small });
    const input = screen.getByTestId('graph-search') as HTMLInputElement;
    await fireEvent.input(input, { target: { value: 'BUDGET' } });
    expect(root().dataset.matches).toBe('3');
    expect(screen.getByTestId('graph-match-count').textContent).toContain('3 matches');
    expect(root().dataset.visible).toBe('10');
    await fireEvent.click(screen.getByTestId('graph-only-matches'));
    expect(root().dataset.visible).toBe('3');
    await fireEvent.input(input, { target: { value: '' } });
    expect(root().dataset.matches).toBeUndefined();
    expect(screen.queryByTestId('graph-match-count')).toBeNull();
    expect(root().dataset.visible).toBe('10');
  });

  it('kind toggles filter concepts and content', async () => {
    render(GraphView, { graph: small });
    await fireEvent.click(screen.getByTestId('graph-filter-concepts'));
    expect(root().dataset.visible).toBe('7');
    await fireEvent.click(screen.getByTestId('graph-filter-content'));
    expect(root().dataset.visible).toBe('0');
    await fireEvent.click(screen.getByTestId('graph-filter-concepts'));
    expect(root().dataset.visible).toBe('3');
    // Edge kinds toggle too (and keep the counts).
    const related = screen.getByTestId('graph-filter-edge-related') as HTMLInputElement;
    expect(related.checked).toBe(true);
    await fireEvent.click(related);
    expect(related.checked).toBe(false);
    expect(root().dataset.edges).toBe('9');
  });

  it('legend for node kinds without a query; hop legend and summary with one', async () => {
    const view = render(GraphView, { graph: small, query: null });
    expect(screen.getByTestId('graph-legend').textContent).toContain('concept');
    expect(screen.queryByTestId('graph-query-summary')).toBeNull();

    await view.rerender({ graph: small, query: smallQuery });
    const summary = screen.getByTestId('graph-query-summary');
    expect(summary.dataset.loaded).toBe('1');
    expect(summary.dataset.relevant).toBe('1');
    expect(summary.dataset.reached).toBe('6');
    expect(summary.getAttribute('data-hop-0')).toBe('1');
    expect(summary.getAttribute('data-hop-1')).toBe('3');
    expect(summary.getAttribute('data-hop-2')).toBe('2');
    expect(summary.getAttribute('data-hop-4')).toBe('0');
    const legend = screen.getByTestId('graph-legend').textContent ?? '';
    for (const label of ['hops', '0', '1', '2', '3', '4+', 'loaded', 'relevant, not loaded']) expect(legend).toContain(label);
  });

  it('rebuilds when the parent hands a new graph', async () => {
    const view = render(GraphView, { graph: small });
    expect(root().dataset.nodes).toBe('10');
    await view.rerender({ graph: { ...small, nodes: small.nodes.slice(0, 4), generation: 4 } });
    await tick();
    expect(root().dataset.nodes).toBe('4');
    await view.rerender({ graph: null });
    expect(root().dataset.state).toBe('layout');
  });

  it('Escape on the stage clears the selection', async () => {
    const onselect = vi.fn();
    render(GraphView, { graph: small, selected: 'A', onselect });
    const stage = screen.getByRole('application');
    await fireEvent.keyDown(stage, { key: 'Escape' });
    expect(onselect).toHaveBeenCalledWith(null);
  });
});
