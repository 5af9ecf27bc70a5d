import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeWorkbench } from '../../bridge/fake';
import { LibraryStore } from './library.svelte';
import type { IngestProgress } from '../../bridge/types';

// The machine may be busy: wait longer than the defaults before failing.
const slow = { timeout: 5000 };

describe('LibraryStore', { timeout: 30_000 }, () => {
  afterEach(() => vi.useRealTimers());

  it('follows the progress events of an ingest and keeps every file state', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    const stop = lib.start();
    const seen: IngestProgress[] = [];
    wb.onIngestProgress((p) => seen.push(p));

    const done = lib.ingestUploads([
      { name: 'notes/a.md', text: '# Alpha\n\nStaleness decays.' },
      { name: 'b.md', text: '# Beta\n\nBudgets split.' },
    ]);
    expect(lib.ingesting).toBe(true);
    await done;

    expect(seen.length).toBeGreaterThan(2);
    expect(lib.ingesting).toBe(false);
    expect(lib.progress).toMatchObject({ files_done: 2, files_total: 2, finished: true, current: '' });
    expect(lib.files.map((f) => [f.path, f.state])).toEqual([
      ['notes/a.md', 'done'],
      ['b.md', 'done'],
    ]);
    expect(lib.report?.added).toBe(2);
    stop();
    expect(wb.listenerCounts).toMatchObject({ progress: 1, drop: 0 });
  });

  it('a progress event that arrives after its ingest returned does not reopen it', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    const stop = lib.start();
    const report = await lib.ingestUploads([{ name: 'a.md', text: '# Alpha\n\nStaleness decays.' }]);
    expect(lib.ingesting).toBe(false);
    const job = report?.job ?? lib.progress?.job ?? '';
    expect(job).not.toBe('');
    // Wails delivers events apart from call results: a late one comes in.
    wb.emitProgress({ job, files_done: 0, files_total: 1, bytes_done: 0, bytes_total: 10, current: 'a.md', files: [{ path: 'a.md', state: 'reading' }], finished: false });
    expect(lib.ingesting).toBe(false);
    expect(lib.progress?.finished).toBe(true);
    // A new job's events still count.
    wb.emitProgress({ job: job + '-next', files_done: 0, files_total: 1, bytes_done: 0, bytes_total: 10, current: 'b.md', files: [], finished: false });
    expect(lib.ingesting).toBe(true);
    stop();
  });

  it('names the file and the problem for each file that failed', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    lib.start();

    await lib.ingestUploads(
      [
        { name: 'good.md', text: '# Good\n\ntext' },
        { name: 'empty.md', text: '   ' },
      ],
      [{ path: 'photo.png', state: 'error', problem: 'photo.png was skipped: Loom reads Markdown and plain text.' }],
    );

    const errors = lib.files.filter((f) => f.state === 'error');
    expect(errors.map((f) => f.path)).toEqual(['photo.png', 'empty.md']);
    expect(errors[1].problem).toContain('empty.md is empty');
    expect(lib.files.find((f) => f.path === 'good.md')?.state).toBe('done');
  });

  it('refreshes documents, collections, stats and the graph after an ingest finishes', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    let changes = 0;
    lib.onchange = () => changes++;
    await lib.refresh();
    expect(lib.documents).toEqual([]);
    expect(lib.stats?.documents).toBe(0);

    await lib.ingestUploads([{ name: 'a.md', text: '# Alpha\n\none\n\n## Two\n\ntwo' }]);

    expect(lib.documents.map((d) => d.path)).toEqual(['a.md']);
    expect(lib.collections).toEqual([{ name: 'uploads', documents: 1, sections: 2 }]);
    expect(lib.stats).toMatchObject({ documents: 1, contentNodes: 2 });
    expect(lib.graph?.nodes.filter((n) => n.kind === 'content')).toHaveLength(2);
    expect(lib.groups).toMatchObject([{ name: 'uploads', sections: 2 }]);
    expect(changes).toBe(1);
  });

  it('ingests the paths of a native drop', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop' });
    const lib = new LibraryStore(wb);
    lib.start();
    wb.emitFileDrop(['/home/ada/notes/x.md']);
    await vi.waitFor(() => expect(lib.documents.map((d) => d.path)).toEqual(['/home/ada/notes/x.md']), slow);
    expect(wb.pathIngests).toEqual([['/home/ada/notes/x.md']]);
  });

  it('on the desktop, ignores the HTML5 copy of a drop that also came natively', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop' });
    const lib = new LibraryStore(wb, { nativeDropWaitMs: 5 });
    lib.start();
    const read = Promise.resolve({ uploads: [{ name: 'x.md', text: '# X' }], skipped: [] });
    const html = lib.dropped(read);
    wb.emitFileDrop(['/home/ada/x.md']);
    expect(await html).toBeNull();
    await vi.waitFor(() => expect(lib.ingesting).toBe(false), slow);
    expect(wb.uploads).toEqual([]);
    expect(wb.pathIngests).toEqual([['/home/ada/x.md']]);
  });

  it('cancels a running ingest and says so', async () => {
    const wb = new FakeWorkbench();
    let release!: () => void;
    wb.step = () => new Promise((r) => (release = r));
    const lib = new LibraryStore(wb);
    lib.start();
    const done = lib.ingestUploads([
      { name: 'a.md', text: '# A' },
      { name: 'b.md', text: '# B' },
    ]);
    await vi.waitFor(() => expect(lib.progress?.current).toBe('a.md'), slow);
    await lib.cancelIngest();
    expect(lib.cancelling).toBe(true);
    wb.step = () => Promise.resolve();
    release();
    const report = await done;
    expect(wb.ingestCancels).toBe(1);
    expect(report?.canceled).toBe(true);
    expect(lib.progress).toMatchObject({ finished: true, canceled: true, files_done: 1 });
  });

  it('refuses a second ingest while one runs', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    const first = lib.ingestUploads([{ name: 'a.md', text: '# A' }]);
    await lib.ingestUploads([{ name: 'b.md', text: '# B' }]);
    expect(lib.ingestError?.code).toBe('busy');
    await first;
    expect(wb.uploads).toHaveLength(1);
  });

  it('removes, re-ingests and pins documents, then refreshes', async () => {
    const wb = new FakeWorkbench({ documents: [{ name: 'a.md', text: '# A\n\nx' }, { name: 'b.md', text: '# B\n\ny' }] });
    const lib = new LibraryStore(wb);
    await lib.refresh();
    const [a, b] = lib.documents;

    expect(await lib.pin(a.id, true)).toBe(true);
    expect(wb.pins).toEqual([{ ids: [a.id], pinned: true }]);
    expect(lib.documents.find((d) => d.id === a.id)?.pinned).toBe(true);

    expect(await lib.reingestDocument(b.id)).toBe(true);
    expect(wb.reingested).toEqual([b.id]);

    expect(await lib.removeDocument(a.id)).toBe(true);
    expect(lib.documents.map((d) => d.id)).toEqual([b.id]);
    expect(lib.busy).toEqual({});

    expect(await lib.removeDocument('d-missing')).toBe(false);
    expect(lib.actionError?.code).toBe('not_found');
    expect(lib.error).toBeNull();
  });
});
