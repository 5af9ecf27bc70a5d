import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import WorkspaceStats from './WorkspaceStats.svelte';
import type { Stats } from '../bridge/workbench';

const digits = (testId: string) => screen.getByTestId(testId).textContent?.replace(/\D/g, '');

const stats: Stats = {
  workspace: '/home/ada/.local/share/loom/default',
  backend: 'bolt',
  documents: 12,
  content_nodes: 345,
  concept_nodes: 67,
  edges: 8901,
  tokens: 1234567,
  embedder: 'offline/minilm-l6-m2v-256',
  generation: 40,
};

describe('WorkspaceStats', () => {
  it('renders every count, the embedder and the path', () => {
    render(WorkspaceStats, { dir: stats.workspace, stats });

    expect(screen.getByTestId('workspace-path').textContent).toBe(stats.workspace);
    expect(digits('stat-documents')).toBe('12');
    expect(digits('stat-content-nodes')).toBe('345');
    expect(digits('stat-concept-nodes')).toBe('67');
    expect(digits('stat-edges')).toBe('8901');
    expect(digits('stat-tokens')).toBe('1234567');
    expect(screen.getByTestId('stat-embedder').textContent).toBe('offline/minilm-l6-m2v-256');
    expect(screen.queryByTestId('empty-state')).toBeNull();
  });

  it('says which embedder this session uses and why, and when the stored vectors are another’s', () => {
    const choice = 'using offline embedder: Ollama is not running at http://127.0.0.1:11434';
    render(WorkspaceStats, {
      dir: stats.workspace,
      stats: { ...stats, embedder: 'ollama/nomic-embed-text', embedder_in_use: 'offline/minilm-l6-m2v-256', embedder_choice: choice },
    });
    expect(screen.getByTestId('stat-embedder').textContent).toBe('offline/minilm-l6-m2v-256');
    expect(screen.getByTestId('stat-embedder').getAttribute('title')).toBe(choice);
    const said = screen.getByTestId('embedder-choice').textContent ?? '';
    expect(said).toContain(choice);
    expect(said).toContain('ollama/nomic-embed-text');
  });

  it('says nothing of a choice before one is made', () => {
    render(WorkspaceStats, { dir: stats.workspace, stats });
    expect(screen.queryByTestId('embedder-choice')).toBeNull();
  });

  it('invites the first ingest when the workspace is empty', () => {
    render(WorkspaceStats, {
      dir: '/tmp/empty',
      stats: { ...stats, documents: 0, content_nodes: 0, concept_nodes: 0, edges: 0, tokens: 0 },
    });

    expect(digits('stat-documents')).toBe('0');
    expect(screen.getByTestId('empty-state').textContent).toContain('drop papers (PDF), notes and vaults (Markdown), web pages, Word files, BibTeX or code (files or folders)');
    expect(screen.getByTestId('empty-state').textContent).toContain('loom ingest PATH');
    expect(screen.getByTestId('empty-state').textContent).toContain('Try a sample library');
  });

  it('suggests no ingest when the workspace is read-only', () => {
    render(WorkspaceStats, { dir: '/tmp/empty', stats: { ...stats, documents: 0 }, locked: true });
    expect(screen.queryByTestId('empty-state')).toBeNull();
  });

  it('offers Check workspace as a quiet link', async () => {
    let checked = 0;
    render(WorkspaceStats, { dir: stats.workspace, stats, oncheck: () => checked++ });
    const link = screen.getByTestId('workspace-check');
    expect(link.classList.contains('link')).toBe(true);
    await fireEvent.click(link);
    expect(checked).toBe(1);
  });
});
