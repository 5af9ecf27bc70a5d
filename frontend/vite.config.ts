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

export default defineConfig({
  plugins: [svelte(), svelteTesting(), keepDistGitkeep],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts'],
  },
});
