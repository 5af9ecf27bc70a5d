// Mounts GraphView (and NodeDetails beside it) over a synthetic graph.
// URL: ?n=10000&m=40000&query=1&clusters=0 (clusters=0: the engine sent none)
import { mount } from 'svelte';
import '../../src/app.css';
import Harness from './Harness.svelte';
import { syntheticGraph } from '../../src/lib/graph/synthetic';
import { syntheticQuery } from './query';

const params = new URLSearchParams(location.search);
const data = syntheticGraph({
  nodes: Number(params.get('n') ?? 10000),
  edges: Number(params.get('m') ?? 40000),
  noClusters: params.get('clusters') === '0',
});
(window as unknown as { __tData: number }).__tData = performance.now();

mount(Harness, {
  target: document.getElementById('app')!,
  props: { data, query: syntheticQuery(data), withQuery: params.get('query') === '1' },
});
