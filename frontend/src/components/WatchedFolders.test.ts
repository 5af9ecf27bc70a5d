import { describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, within } from '@testing-library/svelte';
import LibraryPanel from './LibraryPanel.svelte';
import { FakeWorkbench, golden } from '../bridge/fake';
import type { WatchedFolder } from '../bridge/workbench';
import { LibraryStore } from '../lib/stores/library.svelte';

configure({ asyncUtilTimeout: 20_000 }); // a guard against a state that never comes, not a timing
const slow = { timeout: 20_000 };

const notes = '/home/ada/notes';

function folder(over: Partial<WatchedFolder> = {}): WatchedFolder {
  return { path: notes, state: 'watching', since: '2026-11-24T09:30:00Z', added: 0, changed: 0, removed: 0, unchanged: 0, errors: 0, ...over };
}

async function setup(edition: 'desktop' | 'web', watched: WatchedFolder[] = []) {
  const wb = new FakeWorkbench({ edition, library: 'notes' });
  wb.watched = watched;
  const library = new LibraryStore(wb);
  library.start();
  await library.refresh();
  render(LibraryPanel, { library, workbench: wb, edition });
  return { wb, library };
}

function row(path = notes) {
  return screen.getAllByTestId('watched-folder').find((el) => el.dataset.path === path)!;
}

describe('WatchedFolders', { timeout: 30_000 }, () => {
  it('web: offers no live folders', async () => {
    const { wb } = await setup('web');
    expect(wb.watchFolder).toBeUndefined();
    expect(screen.queryByTestId('watched-folders')).toBeNull();
    expect(screen.queryByTestId('add-folder')).toBeNull();
  });

  it('lists the watched folders and shows each state the engine pushes', async () => {
    const { wb } = await setup('desktop', [folder()]);
    await vi.waitFor(() => expect(screen.getAllByTestId('watched-folder')).toHaveLength(1), slow);
    expect(within(row()).getByTestId('watch-state').textContent).toContain('watching');

    wb.emitWatchState(folder({ state: 'syncing' }));
    await vi.waitFor(() => expect(within(row()).getByTestId('watch-state').textContent).toContain('syncing…'), slow);
    expect((within(row()).getByTestId('sync-folder') as HTMLButtonElement).disabled).toBe(true);

    const at = new Date(Date.now() - 12_000).toISOString();
    wb.emitWatchState(folder({ state: 'synced', last_sync: at, changed: 1, unchanged: 2 }));
    await vi.waitFor(() => expect(row().dataset.state).toBe('synced'), slow);
    expect(within(row()).getByTestId('watch-state').textContent).toMatch(/synced 1[2-9] s ago/);
    expect(within(row()).getByTestId('watch-counts').textContent).toContain('1 changed, 0 added');

    wb.emitWatchState(folder({ state: 'error', error: 'ingest: permission denied' }));
    await vi.waitFor(() => expect(within(row()).getByTestId('watch-error').textContent).toBe('ingest: permission denied'), slow);
    expect(within(row()).getByTestId('watch-state').textContent).toContain('error');
  });

  it('shows how far a sync is: the files read of those to read, and the one being read', async () => {
    const { wb } = await setup('desktop', [folder()]);
    await vi.waitFor(() => expect(screen.getAllByTestId('watched-folder')).toHaveLength(1), slow);
    wb.emitWatchState(folder({ state: 'syncing' }));
    await vi.waitFor(() => expect(row().dataset.state).toBe('syncing'), slow);
    expect(within(row()).queryByTestId('watch-progress')).toBeNull(); // nothing counted yet

    wb.emitWatchState(folder({ state: 'syncing', files_done: 12, files_total: 300, current: 'papers/flash.pdf', stage: 'embedding' }));
    await vi.waitFor(() => expect(within(row()).getByTestId('watch-progress').textContent).toMatch(/reading and embedding\s+12 of 300 files: papers\/flash\.pdf/), slow);

    wb.emitWatchState(folder({ state: 'syncing', files_done: 3, files_total: 300, stage: 'writing' }));
    await vi.waitFor(() => expect(within(row()).getByTestId('watch-progress').textContent).toMatch(/writing\s+3 of 300 files\s*$/), slow);

    wb.emitWatchState(folder({ state: 'synced', last_sync: new Date().toISOString(), added: 300 }));
    await vi.waitFor(() => expect(row().dataset.state).toBe('synced'), slow);
    expect(within(row()).queryByTestId('watch-progress')).toBeNull();
    expect(within(row()).getByTestId('watch-counts').textContent).toContain('300 added');
  });

  it('names the files a sync could not read and those read with a warning, each with why', async () => {
    const { wb } = await setup('desktop', [folder()]);
    await vi.waitFor(() => expect(screen.getAllByTestId('watched-folder')).toHaveLength(1), slow);
    const at = new Date().toISOString();
    wb.emitWatchState(
      folder({
        state: 'synced',
        last_sync: at,
        added: 1,
        errors: 3,
        problems: [
          { path: 'empty.md', problem: 'file is empty: there is nothing to ingest' },
          { path: 'daily/broken.pdf', problem: 'not a PDF file' },
        ],
        warnings: [
          { path: 'front.md', problem: 'front matter is not valid YAML: it is kept as the note’s text' },
          { path: 'front.md', problem: 'a second warning of the same file' },
        ],
      }),
    );
    await vi.waitFor(() => expect(within(row()).getAllByTestId('watch-file-problem')).toHaveLength(2), slow);
    const problems = within(row()).getAllByTestId('watch-file-problem').map((el) => el.textContent);
    expect(problems).toEqual(['empty.md: file is empty: there is nothing to ingest', 'daily/broken.pdf: not a PDF file']);
    expect(within(row()).getAllByTestId('watch-file-warning').map((el) => el.textContent)).toEqual([
      'front.md: front matter is not valid YAML: it is kept as the note’s text',
      'front.md: a second warning of the same file',
    ]);
    expect(within(row()).getByTestId('watch-notes').textContent).toContain('and 1 more file that could not be read');
    expect(within(row()).getByTestId('watch-counts').textContent).toContain('3 errors');

    wb.emitWatchState(folder({ state: 'synced', last_sync: at, changed: 2 }));
    await vi.waitFor(() => expect(within(row()).queryByTestId('watch-notes')).toBeNull(), slow);
  });

  it('reads the library again after a sync that changed it', async () => {
    const { wb } = await setup('desktop', [folder()]);
    await vi.waitFor(() => expect(screen.getAllByTestId('watched-folder')).toHaveLength(1), slow);
    const documents = vi.spyOn(wb, 'documents');
    wb.emitWatchState(folder({ state: 'synced', last_sync: '2026-11-24T09:30:00Z', unchanged: 3 }));
    wb.emitWatchState(folder({ state: 'synced', last_sync: '2026-11-24T09:30:00Z', added: 1 }));
    await vi.waitFor(() => expect(documents).toHaveBeenCalledTimes(1), slow);
  });

  it('Sync now and Stop watching call the engine', async () => {
    const { wb } = await setup('desktop', [folder(), folder({ path: '/home/ada/papers' })]);
    await vi.waitFor(() => expect(screen.getAllByTestId('watched-folder')).toHaveLength(2), slow);

    await fireEvent.click(within(row()).getByTestId('sync-folder'));
    await vi.waitFor(() => expect(wb.syncCalls).toEqual([notes]), slow);
    await vi.waitFor(() => expect(row().dataset.state).toBe('synced'), slow);

    await fireEvent.click(within(row()).getByTestId('unwatch-folder'));
    await vi.waitFor(() => expect(wb.unwatchCalls).toEqual([notes]), slow);
    await vi.waitFor(() => expect(screen.getAllByTestId('watched-folder')).toHaveLength(1), slow);
    expect(row('/home/ada/papers')).toBeTruthy();
  });

  it('Add folder… watches the folder picked, by default', async () => {
    const { wb } = await setup('desktop');
    wb.pickedFolder = notes;
    expect((screen.getByTestId('watch-new-folder') as HTMLInputElement).checked).toBe(true);
    await fireEvent.click(screen.getByTestId('add-folder'));
    await vi.waitFor(() => expect(wb.watchCalls).toEqual([notes]), slow);
    await vi.waitFor(() => expect(row().dataset.state).toBe('synced'), slow);
    expect(wb.pathIngests).toEqual([]);
  });

  it('Add folder… without watching ingests it once', async () => {
    const { wb } = await setup('desktop');
    wb.pickedFolder = notes;
    await fireEvent.click(screen.getByTestId('watch-new-folder'));
    await fireEvent.click(screen.getByTestId('add-folder'));
    await vi.waitFor(() => expect(wb.pathIngests).toEqual([[notes]]), slow);
    expect(wb.watchCalls).toEqual([]);
    expect(screen.queryAllByTestId('watched-folder')).toHaveLength(0);
  });

  it('a cancelled dialog adds nothing; a refusal is shown', async () => {
    const { wb } = await setup('desktop');
    await fireEvent.click(screen.getByTestId('add-folder'));
    expect(wb.watchCalls).toEqual([]);
    wb.pickedFolder = notes;
    wb.readOnly = golden.readOnly;
    await fireEvent.click(screen.getByTestId('add-folder'));
    await vi.waitFor(() => expect(screen.getByTestId('watch-problem').textContent).toBe(golden.error('read_only').message), slow);
  });
  it('a folder dropped on the window is ingested, then offered for watching, as Add folder… would', async () => {
    const { wb } = await setup('desktop');
    wb.emitFileDrop(golden.paths);
    const offer = await screen.findByTestId('watch-offer');
    expect(wb.pathIngests).toEqual([golden.paths]);
    expect(screen.getByTestId('ingest-summary')).toBeTruthy();
    const item = within(offer).getByTestId('watch-offer-folder');
    expect(item.dataset.path).toBe(notes);
    expect(item.textContent).toContain('notes');
    expect(screen.queryAllByTestId('watched-folder')).toHaveLength(0);

    await fireEvent.click(within(item).getByTestId('watch-offer-button'));
    await vi.waitFor(() => expect(wb.watchCalls).toEqual([notes]), slow);
    expect((await within(offer).findByTestId('watch-offer-done')).textContent).toContain('watched');
    expect(within(offer).queryByTestId('watch-offer-button')).toBeNull();
    await vi.waitFor(() => expect(row().dataset.state).toBe('synced'), slow);
    expect(wb.pathIngests).toHaveLength(1);
  });

  it('a folder already watched is not offered again; the offer goes with the report', async () => {
    const { wb } = await setup('desktop', [folder()]);
    wb.emitFileDrop(golden.paths);
    await screen.findByTestId('ingest-summary');
    expect(screen.queryByTestId('watch-offer')).toBeNull();
    await vi.waitFor(() => expect(screen.getAllByTestId('watched-folder')).toHaveLength(1), slow);
  });

  it('Add folder… without watching ingests it once, and the result still offers to watch it', async () => {
    const { wb } = await setup('desktop');
    wb.pickedFolder = notes;
    await fireEvent.click(screen.getByTestId('watch-new-folder'));
    await fireEvent.click(screen.getByTestId('add-folder'));
    const offer = await screen.findByTestId('watch-offer');
    expect(wb.watchCalls).toEqual([]);
    await fireEvent.click(within(offer).getByTestId('watch-offer-button'));
    await vi.waitFor(() => expect(wb.watchCalls).toEqual([notes]), slow);
  });

  it('an offer refused (the workspace went read-only) says why, and the offer stays', async () => {
    const { wb } = await setup('desktop');
    wb.emitFileDrop(golden.paths);
    const offer = await screen.findByTestId('watch-offer');
    wb.readOnly = golden.readOnly;
    await fireEvent.click(within(offer).getByTestId('watch-offer-button'));
    expect((await screen.findByTestId('watch-offer-error')).textContent).toContain('this workspace is open read-only');
    expect(within(offer).getByTestId('watch-offer-button')).toBeTruthy();
    expect(wb.watchCalls).toEqual([]);
  });
});
