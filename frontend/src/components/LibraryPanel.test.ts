import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen } from '@testing-library/svelte';
import LibraryPanel from './LibraryPanel.svelte';
import { FakeWorkbench, golden, type Library } from '../bridge/fake';
import { LibraryStore } from '../lib/stores/library.svelte';
import { readText } from '../lib/upload';

configure({ asyncUtilTimeout: 5000 });
const slow = { timeout: 5000 };

async function setup(edition: 'desktop' | 'web', start: Library = 'notes') {
  const wb = new FakeWorkbench({ edition, library: start });
  const library = new LibraryStore(wb);
  library.start();
  await library.refresh();
  render(LibraryPanel, { library, workbench: wb, edition });
  return { wb, library };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('LibraryPanel workspace file', { timeout: 30_000 }, () => {
  it('web: exports the workspace as a downloaded .json', async () => {
    const created: Blob[] = [];
    // jsdom has no object URLs.
    vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: (b: Blob) => (created.push(b), 'blob:x'), revokeObjectURL: () => {} }));
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    await setup('web');
    expect((screen.getByTestId('import-workspace') as HTMLButtonElement).disabled).toBe(true); // not empty
    await fireEvent.click(screen.getByTestId('export-workspace'));
    await vi.waitFor(() => expect(clicks).toHaveLength(1), slow);
    expect(clicks[0]).toMatch(/^loom-workspace-\d{4}-\d\d-\d\d\.json$/);
    expect(await readText(created[0])).toBe(golden.export);
    expect(screen.getByTestId('workspace-file-status').textContent).toContain('Exported');
  });

  it('desktop: saves the export through the engine’s save dialog', async () => {
    const { wb } = await setup('desktop');
    await fireEvent.click(screen.getByTestId('export-workspace'));
    await vi.waitFor(() => expect(wb.saved).toHaveLength(1), slow);
    expect(wb.saved[0].text).toBe(golden.export);
  });

  it('imports a workspace file into an empty workspace and lists its documents', async () => {
    const text = await new FakeWorkbench({ library: 'notes' }).exportWorkspace();
    const { wb } = await setup('web', 'empty');
    const file = new File([text], 'loom-workspace.json', { type: 'application/json' });
    await fireEvent.change(screen.getByTestId('import-input'), { target: { files: [file] } });
    await vi.waitFor(() => expect(screen.getByTestId('workspace-file-status').textContent).toContain(`Imported ${golden.import.documents} documents`), slow);
    expect(wb.imported).toEqual([text]);
    await vi.waitFor(() => expect(screen.getAllByTestId('document-item')).toHaveLength(golden.workspaces.imported.documents.length), slow);
  });

  it('says why an import failed', async () => {
    await setup('web', 'empty');
    const file = new File(['not json'], 'notes.json');
    await fireEvent.change(screen.getByTestId('import-input'), { target: { files: [file] } });
    await vi.waitFor(() => expect(screen.getByRole('alert').textContent).toContain(golden.rejection('import_not_a_workspace').message), slow);
  });
});

describe('LibraryPanel sample library', { timeout: 30_000 }, () => {
  for (const edition of ['desktop', 'web'] as const) {
    it(`${edition}: the empty library offers a sample, which one click ingests with the usual progress`, async () => {
      const { wb } = await setup(edition, 'empty');
      const button = (await screen.findByTestId('try-sample')) as HTMLButtonElement;
      expect(screen.getByTestId('library-empty').textContent).toContain('retrieval-augmented generation');
      let release!: () => void;
      wb.step = () => new Promise((r) => (release = r));

      await fireEvent.click(button);
      // While it runs: the ingest panel shows it, and the button cannot start another.
      await vi.waitFor(() => expect(screen.getByTestId('ingest-progress')).toBeTruthy(), slow);
      expect(button.disabled).toBe(true);
      wb.step = () => Promise.resolve();
      release();

      await vi.waitFor(() => expect(screen.getAllByTestId('document-item')).toHaveLength(golden.workspaces.sample.documents.length), slow);
      expect(wb.sampleIngests).toBe(1);
      expect(screen.queryByTestId('try-sample')).toBeNull();
      expect(screen.getByTestId('collection-list').textContent).toContain('sample');
    });
  }

  it('is not offered once the library has documents', async () => {
    await setup('web');
    expect(screen.queryByTestId('try-sample')).toBeNull();
  });
});

describe('LibraryPanel counts', { timeout: 30_000 }, () => {
  it('counts the sections and tokens the documents hold, not the summaries answering made', async () => {
    const { library } = await setup('desktop');
    const docs = golden.workspaces.notes.documents;
    const sections = docs.reduce((n, d) => n + d.nodes, 0);
    const tokens = docs.reduce((n, d) => n + d.tokens, 0);
    // Questions made summaries and essences: the workspace's own counts
    // hold them (content nodes), the documents do not.
    library.stats = { ...library.stats!, content_nodes: sections + 12, tokens: tokens + 480 };
    await vi.waitFor(() => expect(screen.getByTestId('library-stat-sections').textContent).toBe(`${sections} sections`), slow);
    expect(screen.getByTestId('library-stat-tokens').textContent).toBe(`${tokens} tokens`);
    expect(screen.getByTestId('library-stat-documents').textContent).toBe(`${docs.length} documents`);
  });
});
