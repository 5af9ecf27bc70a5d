/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';

// main.go embeds frontend/dist with `//go:embed all:frontend/dist`, which
// fails to compile on an empty folder. The committed dist/.gitkeep keeps it
// non-empty on a clone that was never built; put it back after vite empties
// the folder so the tree stays clean.
const keepDistGitkeep: Plugin = {
  name: 'loom-keep-dist-gitkeep',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: '.gitkeep', source: '' });
  },
};

// `vite build --mode web` (make web) builds the web edition instead: the
// static site in ../build/web with relative asset URLs, so it works from any
// static server and any sub-path. make web then adds loom.wasm,
// wasm_exec.js, offline.bin and assets.json next to index.html.
export default defineConfig(({ mode }) => {
  const web = mode === 'web';
  return {
    base: web ? './' : '/',
    plugins: [svelte(), svelteTesting(), ...(web ? [] : [keepDistGitkeep])],
    // The engine's worker (src/web/worker.ts) is a module worker.
    worker: { format: 'es' as const },
    build: {
      outDir: web ? '../build/web' : 'dist',
      emptyOutDir: true,
    },
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.ts'],
    },
  };
});
