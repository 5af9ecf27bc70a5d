import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import WorkspaceStats from './WorkspaceStats.svelte';
import type { Stats } from '../bridge/workbench';
import { FakeWorkbench, golden } from '../bridge/fake';
import { EmbedderStore } from '../lib/stores/embedder.svelte';

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
    expect(screen.getByTestId('empty-state').textContent).toContain('drop papers (PDF), notes and vaults (Markdown, Org), web pages, Word files, references (BibTeX, RIS) or code (files or folders)');
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

  it('says the embedder with its dimensions, and offers a re-embed with each embedding model the server has', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop', library: 'notes' });
    let done = 0;
    const embedder = new EmbedderStore(wb, () => done++);
    const stop = embedder.start();
    const notes = await wb.stats();
    const { rerender } = render(WorkspaceStats, { dir: notes.workspace, stats: notes, embedder, models: golden.modelServer.status.models, server: 'LM Studio' });
    expect(screen.getByTestId('stat-embedder').textContent).toBe(notes.embedder_in_use);
    expect(screen.getByTestId('stat-embedder-dims').textContent).toBe(` · ${notes.embedder_dims} dimensions`);
    const offer = screen.getByTestId('reembed-text-embedding-nomic-embed-text-v1.5');
    expect(offer.textContent?.trim()).toBe('Re-embed with text-embedding-nomic-embed-text-v1.5');
    expect(offer.getAttribute('title')).toContain("LM Studio's text-embedding-nomic-embed-text-v1.5");
    expect(screen.getByTestId('reembed-offline').textContent?.trim()).toBe('Re-embed with the offline embedder');
    expect(screen.queryByTestId('reembed-qwen/qwen3-4b')).toBeNull();

    // The progress of the engine's own re-embed, one event at a time.
    const held: (() => void)[] = [];
    wb.step = () => new Promise<void>((r) => held.push(r));
    const next = async () => {
      await waitFor(() => expect(held).toHaveLength(1));
      held.shift()?.();
    };
    await fireEvent.click(offer);
    expect(wb.reembeds).toEqual(['text-embedding-nomic-embed-text-v1.5']);
    expect(screen.getByTestId('reembed-progress').textContent).toContain('Re-embedding with text-embedding-nomic-embed-text-v1.5');
    expect(screen.queryByTestId('reembed-offers')).toBeNull();
    const [, started, halfway] = golden.modelServer.reembed.events;
    await next();
    await next();
    await waitFor(() => expect(screen.getByTestId('reembed-progress').textContent).toContain(`0 of ${started.total} nodes`));
    await next();
    await waitFor(() => expect(screen.getByTestId('reembed-progress').textContent).toContain(`${halfway.done} of ${halfway.total} nodes`));
    await next();
    await waitFor(() => expect(done).toBe(1));
    await waitFor(() => expect(screen.queryByTestId('reembed-progress')).toBeNull());

    // The page reads the workspace again: the server's model is now its.
    await rerender({ stats: await wb.stats() });
    expect(screen.getByTestId('stat-embedder').textContent).toBe(golden.modelServer.reembed.stats.embedder_in_use);
    expect(screen.getByTestId('stat-embedder-dims').textContent).toBe(' · 16 dimensions');
    expect(screen.getByTestId('embedder-choice').textContent).toContain('re-embedded with it');
    expect(screen.queryByTestId('reembed-text-embedding-nomic-embed-text-v1.5')).toBeNull();
    stop();
  });

  it('cancels a re-embed, and says the workspace keeps its embedder', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop', library: 'notes' });
    const embedder = new EmbedderStore(wb);
    const stop = embedder.start();
    const notes = await wb.stats();
    render(WorkspaceStats, { dir: notes.workspace, stats: notes, embedder, models: golden.modelServer.status.models });
    const held: (() => void)[] = [];
    wb.step = () => new Promise<void>((r) => held.push(r));
    await fireEvent.click(screen.getByTestId('reembed-text-embedding-nomic-embed-text-v1.5'));
    await fireEvent.click(screen.getByTestId('reembed-cancel'));
    expect(wb.reembedCancels).toBe(1);
    await waitFor(() => expect(held).toHaveLength(1));
    held.shift()?.();
    await waitFor(() => expect(screen.getByTestId('reembed-cancelled').textContent).toBe(`The re-embed was cancelled: the workspace keeps ${notes.embedder}.`));
    expect(screen.queryByTestId('reembed-error')).toBeNull();
    expect((await wb.stats()).embedder).toBe(notes.embedder);
    stop();
  });

  it("follows the engine's background re-embed: its progress, a stop for an ingest, Keep the table, and the end", async () => {
    const wb = new FakeWorkbench({ edition: 'desktop', library: 'notes' });
    let done = 0;
    const embedder = new EmbedderStore(wb, () => done++);
    const stop = embedder.start();
    const withWeights: Stats = { ...stats, full_encoder: true };
    render(WorkspaceStats, { dir: stats.workspace, stats: withWeights, embedder });
    expect(screen.getByTestId('reembed-minilm')).toBeTruthy();
    const auto = { target: 'minilm', automatic: true, finished: false, done: 0, total: 345, elapsed_ns: 0 };

    wb.emitReembed({ ...auto, done: 120 });
    await waitFor(() => expect(screen.getByTestId('reembed-progress').textContent).toContain('Improving search in the background: re-embedding with the full MiniLM encoder: 120 of 345 nodes'));
    expect(screen.getByTestId('reembed-progress').textContent).toContain('Questions use the offline table until it is done');
    expect(screen.queryByTestId('reembed-offers')).toBeNull();
    expect(screen.getByTestId('reembed-cancel').textContent?.trim()).toBe('Keep the table');

    // Stopped for an ingest: nothing to say, it starts again after.
    wb.emitReembed({ ...auto, finished: true, canceled: true });
    await waitFor(() => expect(screen.queryByTestId('reembed-progress')).toBeNull());
    expect(screen.queryByTestId('reembed-cancelled')).toBeNull();
    expect(done).toBe(0);
    wb.emitReembed({ ...auto, done: 200, total: 360 });
    await waitFor(() => expect(screen.getByTestId('reembed-progress').textContent).toContain('200 of 360 nodes'));

    // Keep the table: the engine stops it for good; the page says so.
    await fireEvent.click(screen.getByTestId('reembed-cancel'));
    expect(wb.reembedCancels).toBe(1);
    wb.emitReembed({ ...auto, finished: true, canceled: true });
    await waitFor(() => expect(screen.getByTestId('reembed-cancelled')).toBeTruthy());
    expect(screen.getByTestId('reembed-minilm')).toBeTruthy();

    // Another start, to the end: the page reads the workspace again.
    wb.emitReembed({ ...auto, done: 10 });
    await waitFor(() => expect(screen.getByTestId('reembed-progress')).toBeTruthy());
    expect(screen.queryByTestId('reembed-cancelled')).toBeNull();
    wb.emitReembed({ ...auto, finished: true, done: 360, total: 360 });
    await waitFor(() => expect(done).toBe(1));
    expect(screen.queryByTestId('reembed-progress')).toBeNull();

    // A failure says what went wrong.
    wb.emitReembed({ ...auto, done: 10 });
    wb.emitReembed({ ...auto, finished: true, error: 'The disk is full.' });
    await waitFor(() => expect(screen.getByTestId('reembed-error').textContent).toBe('The background re-embed with the full MiniLM encoder failed: The disk is full.'));
    expect(done).toBe(1);
    stop();
  });

  it('offers the full MiniLM encoder when its weights are installed, with what it costs, and not again once the vectors are its', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop', library: 'notes' });
    const embedder = new EmbedderStore(wb);
    const stop = embedder.start();
    const { unmount } = render(WorkspaceStats, { dir: stats.workspace, stats, embedder });
    expect(screen.queryByTestId('reembed-minilm')).toBeNull(); // weights not installed
    unmount();

    const withWeights: Stats = { ...stats, full_encoder: true };
    const { rerender } = render(WorkspaceStats, { dir: stats.workspace, stats: withWeights, embedder });
    expect(screen.queryByTestId('reembed-offline')).toBeNull(); // the vectors are the offline embedder's
    const offer = screen.getByTestId('reembed-minilm');
    expect(offer.textContent?.trim()).toBe('Re-embed with the full MiniLM encoder');
    // 345 sections at about 30 ms each: about 10 seconds.
    expect(offer.getAttribute('title')).toContain('about 10 s for 345 sections');

    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    wb.step = () => gate; // every step waits until the progress has been seen
    await fireEvent.click(offer);
    expect(wb.reembeds).toEqual(['minilm']);
    await waitFor(() => expect(screen.getByTestId('reembed-progress').textContent).toContain('Re-embedding with the full MiniLM encoder'));
    release();
    await waitFor(() => expect(embedder.running).toBe(''));

    // 4,000 sections: about 2 minutes.
    await rerender({ dir: stats.workspace, stats: { ...withWeights, content_nodes: 4000 }, embedder });
    expect(screen.getByTestId('reembed-minilm').getAttribute('title')).toContain('about 2 min for 4,000 sections');

    await rerender({ dir: stats.workspace, stats: { ...withWeights, embedder: 'minilm/all-MiniLM-L6-v2-fp16' }, embedder });
    expect(screen.queryByTestId('reembed-minilm')).toBeNull();
    expect(screen.getByTestId('reembed-offline').textContent?.trim()).toBe('Re-embed with the offline embedder');
    stop();
  });

  it('offers no re-embed on a read-only workspace, nor while an ingest runs', () => {
    const wb = new FakeWorkbench({ edition: 'desktop', library: 'notes' });
    const embedder = new EmbedderStore(wb);
    const models = golden.modelServer.status.models;
    const { unmount } = render(WorkspaceStats, { dir: stats.workspace, stats, embedder, models, locked: true });
    expect(screen.queryByTestId('reembed-offers')).toBeNull();
    unmount();
    render(WorkspaceStats, { dir: stats.workspace, stats, embedder, models, reembedBlocked: 'Wait for the ingest to finish, then re-embed.' });
    const offer = screen.getByTestId('reembed-text-embedding-nomic-embed-text-v1.5') as HTMLButtonElement;
    expect(offer.disabled).toBe(true);
    expect(offer.title).toBe('Wait for the ingest to finish, then re-embed.');
  });
});
