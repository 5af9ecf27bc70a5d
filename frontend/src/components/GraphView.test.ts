import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { tick } from 'svelte';
import GraphView from './GraphView.svelte';
import { small, smallClustered, smallQuery } from '../lib/graph/fixtures.test-helpers';
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

  it('the search matches labels, case-insensitively, and shows only them unless told to dim the rest', async () => {
    render(GraphView, { graph: small });
    const input = screen.getByTestId('graph-search') as HTMLInputElement;
    await fireEvent.input(input, { target: { value: 'BUDGET' } });
    expect(root().dataset.matches).toBe('3');
    expect(screen.getByTestId('graph-match-count').textContent).toContain('3 matches');
    expect(root().dataset.visible).toBe('3');
    expect(root().dataset.drawnNodes).toBe('3');
    await fireEvent.click(screen.getByTestId('graph-only-matches'));
    expect(root().dataset.visible).toBe('10');
    await fireEvent.input(input, { target: { value: '' } });
    expect(root().dataset.matches).toBeUndefined();
    expect(screen.queryByTestId('graph-match-count')).toBeNull();
    expect(root().dataset.visible).toBe('10');
  });

  it('node kinds, edge kinds, collections and documents filter what is drawn', async () => {
    render(GraphView, { graph: small });
    await fireEvent.click(screen.getByTestId('graph-filters-toggle'));
    await fireEvent.click(screen.getByTestId('graph-filter-kind-concept'));
    expect(root().dataset.visible).toBe('7');
    expect(root().dataset.drawnConcepts).toBe('0');
    expect(screen.getByTestId('graph-filter-count').textContent).toBe('1');
    await fireEvent.click(screen.getByTestId('graph-filter-kind-input'));
    expect(root().dataset.visible).toBe('2'); // s4 (analysis), s7 (output)
    await fireEvent.click(screen.getByTestId('graph-filter-kind-concept'));
    await fireEvent.click(screen.getByTestId('graph-filter-kind-input'));
    expect(root().dataset.visible).toBe('10');
    // Edge kinds toggle too (and keep the counts).
    const related = screen.getByTestId('graph-filter-edge-related') as HTMLInputElement;
    expect(related.checked).toBe(true);
    await fireEvent.click(related);
    expect(related.checked).toBe(false);
    expect(root().dataset.edges).toBe('9');
    // A collection: its sections and the concepts they are about.
    const docs = screen.getAllByTestId('graph-filter-collection');
    expect(docs.map((b) => b.dataset.name)).toEqual(['docs']);
    await fireEvent.click(docs[0]);
    expect(root().dataset.visible).toBe('5'); // s1 s2 s3, A, B
    await fireEvent.click(docs[0]);
    // A document, found by name.
    await fireEvent.input(screen.getByTestId('graph-doc-search'), { target: { value: 'c.md' } });
    const choices = screen.getAllByTestId('graph-filter-document');
    expect(choices.map((c) => c.dataset.id)).toEqual(['c.md']);
    await fireEvent.click(choices[0]);
    expect(root().dataset.visible).toBe('3'); // s5 s6, and A (s6 is about it)
    await fireEvent.click(screen.getByTestId('graph-clear-filters'));
    expect(root().dataset.visible).toBe('10');
    expect(related.checked).toBe(true);
  });

  it('narrows to the scope the parent gives (the collection chips, the document filter)', async () => {
    let scope = { collections: ['docs'], documents: [], clusters: [] };
    const view = render(GraphView, { graph: small, scope });
    expect(root().dataset.visible).toBe('5');
    await view.rerender({ graph: small, scope: { collections: [], documents: ['a.md'], clusters: [] } });
    expect(root().dataset.visible).toBe('4'); // s1 s2, and A B they are about
    scope = { collections: [], documents: [], clusters: [] };
    await view.rerender({ graph: small, scope });
    expect(root().dataset.visible).toBe('10');
  });

  it('clusters: counted, drawn as super-nodes when there are many concepts, expanded and collapsed from the list', async () => {
    const data = syntheticGraph({ nodes: 3000, edges: 9000 });
    render(GraphView, { graph: data });
    expect(root().dataset.clusters).toBe(String(data.clusters.length));
    expect(root().dataset.level).toBe('0');
    expect(root().dataset.drawnClusters).toBe(String(data.clusters.length));
    await fireEvent.click(screen.getByTestId('graph-filters-toggle'));
    const items = screen.getAllByTestId('graph-cluster');
    expect(items).toHaveLength(data.clusters.length);
    const first = data.clusters[0];
    await fireEvent.click(items[0].querySelector('[data-testid="graph-cluster-toggle"]')!);
    expect(root().dataset.expanded).toBe('1');
    expect(root().dataset.drawnNodes).toBe(String(first.concepts + first.sections));
    expect(root().dataset.drawnClusters).toBe(String(data.clusters.length - 1));
    expect(screen.getByTestId('graph-cluster-card').dataset.id).toBe(first.id);
    await fireEvent.click(screen.getByTestId('graph-cluster-card-toggle'));
    expect(root().dataset.drawnNodes).toBe('0');
    // Show only this cluster: the filters leave its members.
    await fireEvent.click(screen.getByTestId('graph-cluster-card-only'));
    expect(root().dataset.visible).toBe(String(first.concepts + first.sections));
  });

  it('a small library with clusters draws its nodes, and a cluster card offers the cluster as a question’s scope', async () => {
    const onqueryscope = vi.fn();
    render(GraphView, { graph: smallClustered, onqueryscope });
    expect(root().dataset.clusters).toBe('2');
    expect(root().dataset.level).toBe('2');
    expect(root().dataset.drawnNodes).toBe('10');
    expect(root().dataset.drawnClusters).toBe('0');
    await fireEvent.click(screen.getByTestId('graph-filters-toggle'));
    await fireEvent.click(screen.getAllByTestId('graph-cluster-toggle')[0]);
    expect(screen.getByTestId('graph-cluster-card').textContent).toContain('Loading');
    expect(root().dataset.drawnClusters).toBe('1'); // collapsed by hand
    await fireEvent.click(screen.getByTestId('graph-cluster-card-scope'));
    expect(onqueryscope).toHaveBeenCalledWith('cluster:c:A');
  });

  it('without clusters there is no cluster list and no super-node', async () => {
    render(GraphView, { graph: syntheticGraph({ nodes: 1500, edges: 4000, noClusters: true }) });
    expect(root().dataset.clusters).toBe('0');
    expect(root().dataset.drawnClusters).toBe('0');
    expect(Number(root().dataset.drawnConcepts)).toBeGreaterThan(0);
    await fireEvent.click(screen.getByTestId('graph-filters-toggle'));
    expect(screen.queryByTestId('graph-cluster-list')).toBeNull();
  });

  it('after a question: focus on its neighbourhood, a ring at a time', async () => {
    const view = render(GraphView, { graph: small, query: null });
    expect(screen.queryByTestId('graph-focus')).toBeNull();
    await view.rerender({ graph: small, query: smallQuery });
    expect(root().dataset.focus).toBe('off');
    await fireEvent.click(screen.getByTestId('graph-focus'));
    expect(root().dataset.focus).toBe('on');
    const rings = () => screen.getByTestId('graph-rings');
    expect(rings().dataset.max).toBe('2');
    expect(rings().dataset.step).toBe('2');
    expect(root().dataset.drawnNodes).toBe(rings().dataset.shown);
    expect(Number(root().dataset.drawnNodes)).toBeLessThan(10); // the rest is hidden
    await fireEvent.click(screen.getByTestId('graph-ring-first'));
    expect(rings().dataset.step).toBe('0');
    expect(root().dataset.drawnNodes).toBe('1');
    await fireEvent.click(screen.getByTestId('graph-ring-next'));
    expect(rings().dataset.step).toBe('1');
    expect(Number(root().dataset.drawnNodes)).toBeGreaterThan(1);
    await fireEvent.click(screen.getByTestId('graph-focus-rest'));
    expect(root().dataset.drawnNodes).toBe('10'); // the rest, faded
    expect(screen.getByTestId('graph-lod').textContent).toContain('Focused on the question');
    await fireEvent.click(screen.getByTestId('graph-focus'));
    expect(root().dataset.focus).toBe('off');
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
