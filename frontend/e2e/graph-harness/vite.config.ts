// Builds the graph harness page (e2e/graph-perf.mjs builds and serves it).
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  plugins: [svelte()],
  logLevel: 'warn',
  build: {
    outDir: process.env.LOOM_GRAPH_HARNESS_OUT ?? '/tmp/loom-graph-harness',
    emptyOutDir: true,
    sourcemap: false,
    // LOOM_GRAPH_HARNESS_MINIFY=0 keeps names readable in a profile.
    minify: process.env.LOOM_GRAPH_HARNESS_MINIFY !== '0',
  },
});
