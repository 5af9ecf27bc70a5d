import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import IngestPanel from './IngestPanel.svelte';
import type { IngestProgress } from '../bridge/types';

const progress: IngestProgress = {
  job: 'j1', files_done: 2, files_total: 5, bytes_done: 2048, bytes_total: 1536000, current: 'notes/c.md', sections_embedded: 0, sections_to_embed: 0,
  files: [
    { path: 'notes/a.md', state: 'done' },
    { path: 'notes/b.png', state: 'error', problem: 'notes/b.png was skipped: Loom reads papers (PDF), notes (Markdown, text), web pages (HTML), Word (.docx), EPUB, BibTeX and source files — not .png files.' },
    { path: 'notes/c.md', state: 'reading' },
  ],
  finished: false,
};

describe('IngestPanel', () => {
  it('lists the files left out on purpose after the failures, each with its reason', () => {
    const files = [
      { path: 'notes/a.md', state: 'done' as const },
      { path: 'vendor/lib.js', state: 'skipped' as const, problem: 'in a vendored folder (vendor/): Loom indexes your code, not its dependencies' },
      { path: 'notes/b.md', state: 'error' as const, problem: 'the file is empty' },
    ];
    render(IngestPanel, { progress: null, files, ingesting: false, cancelling: false, report: null, error: null, oncancel: vi.fn(), ondismiss: vi.fn() });
    const shown = screen.getAllByTestId('ingest-file');
    expect(shown.map((f) => f.dataset.state)).toEqual(['error', 'skipped', 'done']);
    expect(shown[1].textContent).toContain('in a vendored folder');
    expect(shown[1].querySelector('.icon')?.getAttribute('aria-label')).toBe('left out');
    expect(screen.getByTestId('ingest-left-out').textContent).toBe('1 file left out on purpose (the reason is beside each):');
  });

  it('lists the files added with a note after those left out, the note beside each', () => {
    const files = [
      { path: 'types.ts', state: 'done' as const },
      { path: 'types (2).ts', state: 'done' as const, problem: 'another file of this drop is also named types.ts; this one is added as types (2).ts' },
      { path: 'notes.md (a second copy)', state: 'skipped' as const, problem: 'the same file is in this drop twice: it is added once' },
    ];
    render(IngestPanel, { progress: null, files, ingesting: false, cancelling: false, report: null, error: null, oncancel: vi.fn(), ondismiss: vi.fn() });
    const shown = screen.getAllByTestId('ingest-file');
    expect(shown.map((f) => f.dataset.state)).toEqual(['skipped', 'done', 'done']);
    expect(shown[1].textContent).toContain('this one is added as types (2).ts');
    expect(shown[1].querySelector('.icon')?.getAttribute('aria-label')).toBe('added');
    expect(shown[2].querySelector('[data-testid="ingest-file-problem"]')).toBeNull();
    expect(screen.getByTestId('ingest-noted').textContent).toBe('1 file added with a note (beside each):');
  });

  it('shows overall progress, the file in hand, each file\u2019s state and failures first', async () => {
    const oncancel = vi.fn();
    render(IngestPanel, {
      progress, files: progress.files, ingesting: true, cancelling: false, report: null, error: null, oncancel, ondismiss: vi.fn(),
    });
    const bar = screen.getByTestId('ingest-progress');
    expect(bar.getAttribute('role')).toBe('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('2');
    expect(bar.getAttribute('aria-valuemax')).toBe('5');
    expect(bar.textContent).toContain('2 / 5 files');
    expect(bar.textContent).toContain('2 KB of 1.5 MB');
    expect(bar.textContent).toContain('Reading notes/c.md');
    expect(screen.getByTestId('ingest-panel').textContent).toContain('2 / 5 files');
    expect(screen.getByTestId('ingest-panel').textContent).toContain('1.5 MB');
    expect(screen.getByTestId('ingest-panel').textContent).toContain('notes/c.md');
    const files = screen.getAllByTestId('ingest-file');
    expect(files.map((f) => f.dataset.state)).toEqual(['error', 'done', 'reading']);
    expect(files[0].textContent).toContain('notes/b.png was skipped: Loom reads papers (PDF)');
    expect(screen.queryByTestId('ingest-embedding')).toBeNull(); // nothing inside the file to show
    expect(screen.queryByTestId('ingest-stage')).toBeNull(); // one stage: nothing to name
    await fireEvent.click(screen.getByTestId('ingest-cancel'));
    expect(oncancel).toHaveBeenCalled();
  });

  it('shows a long file\u2019s sections as they are embedded, and counts them on the bar', () => {
    const inside = { ...progress, sections_embedded: 320, sections_to_embed: 1280 };
    render(IngestPanel, {
      progress: inside, files: inside.files, ingesting: true, cancelling: false, report: null, error: null, oncancel: vi.fn(), ondismiss: vi.fn(),
    });
    expect(screen.getByTestId('ingest-embedding').textContent).toContain('Embedding 320 of 1,280 sections');
    const fill = screen.getByTestId('ingest-progress').querySelector<HTMLElement>('.fill');
    expect(fill?.style.width).toBe('45%'); // (2 files + a quarter of the third) of 5
    expect(screen.getByTestId('ingest-progress').getAttribute('aria-valuenow')).toBe('2'); // whole files
  });

  it('names the stage of a two-stage ingest: embedding while questions go on, then writing', () => {
    const embedding: IngestProgress = {
      ...progress, stage: 'embedding', files_done: 1, files_total: 3, current: 'papers/b.pdf', sections_embedded: 64, sections_to_embed: 256,
      files: [{ path: 'papers/a.pdf', state: 'embedded' }, { path: 'papers/b.pdf', state: 'reading' }, { path: 'papers/c.pdf', state: 'queued' }],
    };
    const { unmount } = render(IngestPanel, {
      progress: embedding, files: embedding.files, ingesting: true, cancelling: false, report: null, error: null, oncancel: vi.fn(), ondismiss: vi.fn(),
    });
    expect(screen.getByTestId('ingest-stage').textContent).toContain('Embedding the files');
    expect(screen.getByTestId('ingest-stage').textContent).toContain('questions still work');
    expect(screen.getByTestId('ingest-progress').textContent).toContain('Embedding papers/b.pdf');
    expect(screen.getByTestId('ingest-embedding').textContent).toContain('Embedding 64 of 256 sections');
    const first = screen.getAllByTestId('ingest-file')[0];
    expect(first.dataset.state).toBe('embedded');
    expect(first.querySelector('.icon')?.getAttribute('aria-label')).toBe('embedded, to be written');
    unmount();

    const writing: IngestProgress = { ...embedding, stage: 'writing', files_done: 0, current: 'papers/a.pdf', sections_embedded: 0, sections_to_embed: 0 };
    render(IngestPanel, {
      progress: writing, files: writing.files, ingesting: true, cancelling: false, report: null, error: null, oncancel: vi.fn(), ondismiss: vi.fn(),
    });
    expect(screen.getByTestId('ingest-stage').textContent).toBe('Writing them to the library');
    expect(screen.getByTestId('ingest-progress').textContent).toContain('Writing papers/a.pdf');
  });

  it('says how much of a large drop written in rounds can already be asked about', () => {
    const next: IngestProgress = {
      ...progress, stage: 'embedding', written: 12, files_done: 12, files_total: 40, current: 'papers/m.pdf',
      files: [{ path: 'papers/a.pdf', state: 'done' }, { path: 'papers/m.pdf', state: 'reading' }],
    };
    const { unmount } = render(IngestPanel, {
      progress: next, files: next.files, ingesting: true, cancelling: false, report: null, error: null, oncancel: vi.fn(), ondismiss: vi.fn(),
    });
    expect(screen.getByTestId('ingest-stage').textContent).toBe('Embedding the next files · 12 documents are in the library and can be asked about');
    expect(screen.getByTestId('ingest-files').textContent).toContain('12 / 40 files');
    unmount();
    render(IngestPanel, {
      progress: { ...next, stage: 'writing', written: 1 }, files: next.files, ingesting: true, cancelling: false, report: null, error: null, oncancel: vi.fn(), ondismiss: vi.fn(),
    });
    expect(screen.getByTestId('ingest-stage').textContent).toBe('Writing the next files to the library · 1 document is in the library and can be asked about');
  });

  it('says when the web edition fetches a language\u2019s grammar for its first file', () => {
    const reading: IngestProgress = { ...progress, current: 'src/lib.rs', files: [{ path: 'src/lib.rs', state: 'reading' }] };
    const { unmount } = render(IngestPanel, {
      progress: reading, files: reading.files, ingesting: true, cancelling: false, report: null, error: null, oncancel: vi.fn(), ondismiss: vi.fn(),
      grammar: 'Rust',
    });
    expect(screen.getByTestId('ingest-grammar').textContent?.trim()).toBe('Fetching the Rust grammar: once, for the first Rust file');
    unmount();
    render(IngestPanel, {
      progress: reading, files: reading.files, ingesting: true, cancelling: false, report: null, error: null, oncancel: vi.fn(), ondismiss: vi.fn(),
    });
    expect(screen.queryByTestId('ingest-grammar')).toBeNull();
  });

  it('names no stage once the ingest is over', () => {
    const last: IngestProgress = { ...progress, stage: 'writing', files_done: 5, files_total: 5, current: '', finished: true };
    render(IngestPanel, {
      progress: last, files: [], ingesting: false, cancelling: false, report: null, error: null, oncancel: vi.fn(), ondismiss: vi.fn(),
    });
    expect(screen.getByTestId('ingest-panel').textContent).toContain('Ingest finished');
    expect(screen.queryByTestId('ingest-stage')).toBeNull();
  });

  it('summarises a finished ingest', () => {
    render(IngestPanel, {
      progress: { ...progress, files_done: 5, current: '', finished: true }, files: [], ingesting: false, cancelling: false,
      report: { files: 5, added: 3, updated: 1, unchanged: 1, removed: 0, nodes: 40, concepts_created: 7, bytes: 1, unread: 0, embedder: 'e', duration_ns: 2.5e9, canceled: false, hidden: 0, job: 'ingest-1', errors: [], skipped: [], warnings: [] },
      error: null, oncancel: vi.fn(), ondismiss: vi.fn(),
    });
    const summary = screen.getByTestId('ingest-summary').textContent;
    expect(summary).toContain('3 added');
    expect(summary).toContain('40 sections');
    expect(summary).toContain('7 new concepts');
    expect(summary).toContain('2.5 s');
    expect(screen.queryByTestId('ingest-cancel')).toBeNull();
    expect(screen.queryByTestId('ingest-reread')).toBeNull();
  });
  it('says when unchanged files were read again by a better reader', () => {
    render(IngestPanel, {
      progress: null, files: [], ingesting: false, cancelling: false,
      report: { files: 5, added: 0, updated: 3, unchanged: 2, removed: 0, nodes: 40, concepts_created: 0, bytes: 1, unread: 0, reread: 3, embedder: 'e', duration_ns: 1e9, canceled: false, hidden: 0, job: 'ingest-1', errors: [], skipped: [], warnings: [] },
      error: null, oncancel: vi.fn(), ondismiss: vi.fn(),
    });
    expect(screen.getByTestId('ingest-summary').textContent).toContain('3 updated (3 unchanged, read again: this Loom reads their format better) · 2 unchanged');
  });
  it('offers to watch the folders of a finished ingest, when it can watch', async () => {
    const report = { files: 2, added: 2, updated: 0, unchanged: 0, removed: 0, nodes: 4, concepts_created: 1, bytes: 1, unread: 0, embedder: 'e', duration_ns: 1e9, canceled: false, hidden: 0, job: 'ingest-1', errors: [], skipped: [], warnings: [], watchable: ['/home/ada/notes', '/home/ada/papers'] };
    const base = { progress: null, files: [], ingesting: false, cancelling: false, report, error: null, oncancel: vi.fn(), ondismiss: vi.fn() };
    const onwatch = vi.fn();
    const { unmount } = render(IngestPanel, { ...base, onwatch, watched: ['/home/ada/papers'] });
    const folders = screen.getAllByTestId('watch-offer-folder');
    expect(folders.map((f) => f.dataset.path)).toEqual(['/home/ada/notes', '/home/ada/papers']);
    expect(folders[0].textContent).toContain('notes');
    expect(folders[1].querySelector('[data-testid="watch-offer-done"]')).toBeTruthy();
    expect(folders[1].querySelector('[data-testid="watch-offer-button"]')).toBeNull();
    await fireEvent.click(screen.getByTestId('watch-offer-button'));
    expect(onwatch).toHaveBeenCalledWith('/home/ada/notes');
    unmount();

    // The web edition (no onwatch), a cancelled ingest, a read-only workspace.
    const { unmount: u2 } = render(IngestPanel, base);
    expect(screen.queryByTestId('watch-offer')).toBeNull();
    u2();
    const { unmount: u3 } = render(IngestPanel, { ...base, report: { ...report, canceled: true }, onwatch });
    expect(screen.queryByTestId('watch-offer')).toBeNull();
    u3();
    render(IngestPanel, { ...base, onwatch, locked: 'Read-only: another Loom process holds it' });
    expect((screen.getAllByTestId('watch-offer-button')[0] as HTMLButtonElement).disabled).toBe(true);
  });
});
