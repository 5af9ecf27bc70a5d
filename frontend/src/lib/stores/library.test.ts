import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeWorkbench, golden } from '../../bridge/fake';
import { LibraryStore } from './library.svelte';
import type { IngestProgress } from '../../bridge/types';

// The machine may be busy: wait longer than the defaults before failing.
const slow = { timeout: 5000 };

const notes = golden.workspaces.notes;

describe('LibraryStore', { timeout: 30_000 }, () => {
  afterEach(() => vi.useRealTimers());

  it('follows the progress events of an ingest and keeps every file state', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    const stop = lib.start();
    const seen: IngestProgress[] = [];
    wb.onIngestProgress((p) => seen.push(p));

    const done = lib.ingestUploads(golden.uploads);
    expect(lib.ingesting).toBe(true);
    await done;

    expect(seen).toHaveLength(golden.ingests.uploads.events.length);
    expect(lib.ingesting).toBe(false);
    const last = golden.ingests.uploads.events.at(-1)!;
    expect(lib.progress).toMatchObject({ files_done: last.files_done, files_total: last.files_total, finished: true, current: '' });
    // Every file the engine named, with its state: the notes done, the
    // binary and the empty file failed.
    const states = Object.fromEntries(lib.files.map((f) => [f.path, f.state]));
    expect(states).toMatchObject({ 'budget.md': 'done', 'graphs.md': 'done', 'staleness.txt': 'done', 'empty.md': 'error', 'notes/diagram.md': 'error' });
    expect(lib.report?.added).toBe(golden.ingests.uploads.result.added);
    stop();
    expect(wb.listenerCounts).toMatchObject({ progress: 1, drop: 0 });
  });

  it('a progress event that arrives after its ingest returned does not reopen it', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    const stop = lib.start();
    const report = await lib.ingestUploads(golden.uploads);
    expect(lib.ingesting).toBe(false);
    const job = report?.job ?? '';
    expect(job).not.toBe('');
    // Wails delivers events apart from call results: a late one comes in.
    wb.emitProgress({ ...golden.ingests.uploads.events[0], job });
    expect(lib.ingesting).toBe(false);
    expect(lib.progress?.finished).toBe(true);
    // A new job's events still count.
    wb.emitProgress({ ...golden.ingests.uploads.events[0], job: job + '-next' });
    expect(lib.ingesting).toBe(true);
    stop();
  });

  it('shows each round of a large drop as soon as the engine has written it', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    const stop = lib.start();
    const asked = vi.spyOn(wb, 'documents');
    const event = { ...golden.ingests.uploads.events[0], job: 'ingest-9', finished: false };
    wb.emitProgress({ ...event, stage: 'embedding' });
    expect(asked).not.toHaveBeenCalled();
    wb.emitProgress({ ...event, stage: 'embedding', written: 4 }); // the first round is in the library
    await vi.waitFor(() => expect(asked).toHaveBeenCalledTimes(1), slow);
    wb.emitProgress({ ...event, stage: 'embedding', written: 4, files_done: 5 });
    wb.emitProgress({ ...event, stage: 'writing', written: 12 });
    await vi.waitFor(() => expect(asked).toHaveBeenCalledTimes(2), slow);
    wb.emitProgress({ ...event, job: 'ingest-10', stage: 'embedding' }); // another ingest starts at none
    expect(lib.ingesting).toBe(true);
    // No call of this page's own is running (the page was reloaded while the engine went on):
    // the last event ends the ingest and the library is read again.
    wb.emitProgress({ ...event, job: 'ingest-10', finished: true, written: 20 });
    await vi.waitFor(() => expect(asked).toHaveBeenCalledTimes(3), slow);
    expect(lib.ingesting).toBe(false);
    wb.emitProgress({ ...event, job: 'ingest-10', written: 20 }); // a late event does not reopen it
    expect(lib.ingesting).toBe(false);
    stop();
  });

  it('the end of the page’s own ingest is read through its call, not twice', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    const stop = lib.start();
    const asked = vi.spyOn(wb, 'documents');
    await lib.ingestUploads(golden.uploads); // its events include the finished one
    expect(asked).toHaveBeenCalledTimes(1);
    expect(lib.ingesting).toBe(false);
    stop();
  });

  it('knows which grammar the web edition is fetching, until it has it', () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    const stop = lib.start();
    expect(lib.fetchingGrammar).toBeNull();
    wb.emitGrammarFetch({ language: 'rust', name: 'Rust', phase: 'start' });
    expect(lib.fetchingGrammar?.name).toBe('Rust');
    wb.emitGrammarFetch({ language: 'cpp', name: 'C++', phase: 'start' });
    wb.emitGrammarFetch({ language: 'rust', name: 'Rust', phase: 'done' }); // another is still coming
    expect(lib.fetchingGrammar?.name).toBe('C++');
    wb.emitGrammarFetch({ language: 'cpp', name: 'C++', phase: 'failed' });
    expect(lib.fetchingGrammar).toBeNull();
    stop();
    wb.emitGrammarFetch({ language: 'java', name: 'Java', phase: 'start' });
    expect(lib.fetchingGrammar).toBeNull(); // unsubscribed
  });

  it('names the file and the problem for each file that failed, the page’s skipped ones first', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    lib.start();

    await lib.ingestUploads(golden.uploads, [{ path: 'photo.png', state: 'error', problem: 'photo.png was skipped: Loom reads papers (PDF), notes (Markdown, text), web pages (HTML), Word (.docx), EPUB, BibTeX and source files — not .png files.' }]);

    const errors = lib.files.filter((f) => f.state === 'error');
    expect(errors.map((f) => f.path)).toEqual(['photo.png', 'empty.md', 'notes/diagram.md']);
    expect(errors[1].problem).toContain('file is empty');
    expect(errors[2].problem).toContain('not UTF-8');
    expect(lib.files.find((f) => f.path === 'budget.md')?.state).toBe('done');
  });

  it('says what Loom reads when none of the files handed over can be read', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    const skipped = [{ path: 'photo.png', state: 'error' as const, problem: 'photo.png was skipped' }];
    expect(await lib.ingestUploads([], skipped)).toBeNull();
    expect(lib.ingestError?.message).toBe(
      'None of those files can be read: Loom reads papers (PDF), notes (Markdown, text), web pages (HTML), Word (.docx), EPUB, BibTeX and source files.',
    );
    expect(lib.files.map((f) => f.path)).toEqual(['photo.png']);
    expect(wb.uploads).toEqual([]);
  });

  it('refreshes documents, collections, stats and the graph after an ingest finishes', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    let changes = 0;
    lib.onchange = () => changes++;
    await lib.refresh();
    expect(lib.documents).toEqual([]);
    expect(lib.stats?.documents).toBe(0);

    await lib.ingestUploads(golden.uploads);

    expect(lib.documents.map((d) => d.path)).toEqual(notes.documents.map((d) => d.path));
    expect(lib.collections).toEqual(notes.collections);
    expect(lib.stats).toMatchObject({ documents: notes.documents.length, content_nodes: notes.workspace.stats.content_nodes });
    expect(lib.graph?.nodes.filter((n) => n.kind === 'content')).toHaveLength(notes.workspace.stats.content_nodes);
    expect(lib.groups).toMatchObject([{ name: 'notes', sections: notes.collections[0].sections }]);
    expect(changes).toBe(1);
  });

  it('ingests the paths of a native drop', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop' });
    const lib = new LibraryStore(wb);
    lib.start();
    wb.emitFileDrop(golden.paths);
    await vi.waitFor(() => expect(lib.documents.map((d) => d.source)).toEqual(golden.workspaces.paths.documents.map((d) => d.source)), slow);
    expect(wb.pathIngests).toEqual([golden.paths]);
  });

  it('on the desktop, ignores the HTML5 copy of a drop that also came natively', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop' });
    const lib = new LibraryStore(wb, { nativeDropWaitMs: 5 });
    lib.start();
    const read = Promise.resolve({ uploads: golden.uploads, skipped: [] });
    const html = lib.dropped(read);
    wb.emitFileDrop(golden.paths);
    expect(await html).toBeNull();
    await vi.waitFor(() => expect(lib.ingesting).toBe(false), slow);
    expect(wb.uploads).toEqual([]);
    expect(wb.pathIngests).toEqual([golden.paths]);
  });

  it('cancels a running ingest and says so, keeping what was done', async () => {
    const wb = new FakeWorkbench();
    let release!: () => void;
    wb.step = () => new Promise((r) => (release = r));
    const lib = new LibraryStore(wb);
    lib.start();
    const done = lib.ingestUploads(golden.uploads);
    await vi.waitFor(() => expect(lib.progress?.current).toBe('budget.md'), slow);
    await lib.cancelIngest();
    expect(lib.cancelling).toBe(true);
    wb.step = () => Promise.resolve();
    release();
    const report = await done;
    expect(wb.ingestCancels).toBe(1);
    expect(report?.canceled).toBe(true);
    const end = golden.ingests.cancelled.events.at(-1)!;
    expect(lib.progress).toMatchObject({ finished: true, canceled: true, files_done: end.files_done });
    expect(lib.documents.map((d) => d.path)).toEqual(golden.workspaces.cancelled.documents.map((d) => d.path));
  });

  it('refuses a second ingest while one runs', async () => {
    const wb = new FakeWorkbench();
    const lib = new LibraryStore(wb);
    const first = lib.ingestUploads(golden.uploads);
    await lib.ingestUploads(golden.uploads);
    expect(lib.ingestError?.code).toBe('busy');
    await first;
    expect(wb.uploads).toHaveLength(1);
  });

  it('removes, re-ingests and pins documents, then refreshes', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    const lib = new LibraryStore(wb);
    await lib.refresh();
    const [a, b] = lib.documents;

    expect(await lib.pin(a.id, true)).toBe(true);
    expect(wb.pins).toEqual([{ ids: [a.id], pinned: true }]);
    expect(lib.documents.find((d) => d.id === a.id)?.pinned).toBe(true);

    expect(await lib.reingestDocument(b.id)).toBe(true);
    expect(wb.reingested).toEqual([b.id]);

    expect(await lib.removeDocument(a.id)).toBe(true);
    expect(lib.documents.map((d) => d.id)).not.toContain(a.id);
    expect(lib.documents).toHaveLength(notes.documents.length - 1);
    expect(lib.busy).toEqual({});

    // The engine's remove names the id it does not have (not_found): the
    // page shows what came.
    expect(await lib.removeDocument('d-missing')).toBe(false);
    expect(lib.actionError?.code).toBe('not_found');
    expect(lib.actionError?.code).toBe(golden.rejection('remove_unknown').code);
    expect(lib.error).toBeNull();
  });

  it('a write the engine refuses as read-only is said in the banner’s words and reads the workspace again', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    const onReadOnly = vi.fn();
    const lib = new LibraryStore(wb, { onReadOnly });
    await lib.refresh();
    wb.readOnly = golden.readOnly; // went read-only after the page looked
    expect(await lib.pin(lib.documents[0].id, true)).toBe(false);
    expect(lib.actionError?.code).toBe('read_only');
    expect(lib.actionError?.message).toContain('this workspace is open read-only (the banner at the top says why');
    expect(lib.actionError?.detail).toBe(golden.rejection('read_only').message);
    expect(onReadOnly).toHaveBeenCalledTimes(1);

    await lib.ingestSample();
    expect(lib.ingestError?.code).toBe('read_only');
    expect(onReadOnly).toHaveBeenCalledTimes(2);
  });
});
