import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import DropZone from './DropZone.svelte';
import { readableExtensions, type ReadFiles } from '../lib/upload';

function entryFile(name: string, content: string | Uint8Array) {
  return { isFile: true, isDirectory: false, name, file: (ok: (f: File) => void) => ok(new File([content as BlobPart], name)) };
}

/** The start of a PDF, with the high bytes a PDF puts on its second line: not UTF-8. */
const pdfBytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x35, 0x0a, 0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a]);
const pdfBase64 = 'JVBERi0xLjUKJeLjz9MK';

function entryDir(name: string, children: unknown[]) {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader: () => {
      // Answers in two batches, then none, as browsers do for big folders.
      const batches = [children.slice(0, 1), children.slice(1), []];
      return { readEntries: (ok: (e: unknown[]) => void) => ok(batches.shift() ?? []) };
    },
  };
}

describe('DropZone', () => {
  it('says what it takes', () => {
    render(DropZone, { edition: 'web', onfiles: vi.fn(), onpick: vi.fn() });
    expect(screen.getByTestId('drop-zone').textContent).toContain('Drop papers (PDF), notes and vaults (Markdown, Org), web pages, Word files, references (BibTeX, RIS) or code');
  });

  it('reads dropped files and hands them over, texts as text and PDFs as their bytes', async () => {
    const onfiles = vi.fn<(read: Promise<ReadFiles>) => void>();
    render(DropZone, { edition: 'web', onfiles, onpick: vi.fn() });
    const files = [new File(['# A'], 'a.md'), new File(['plain'], 'b.txt'), new File([pdfBytes], 'paper.PDF'), new File(['@article{x,}'], 'refs.bib')];
    await fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files, types: ['Files'] } });
    expect(onfiles).toHaveBeenCalledTimes(1);
    const read = await onfiles.mock.calls[0][0];
    expect(read.uploads).toEqual([
      { name: 'a.md', text: '# A' },
      { name: 'b.txt', text: 'plain' },
      { name: 'paper.PDF', text: '', data: pdfBase64 },
      { name: 'refs.bib', text: '@article{x,}' },
    ]);
    expect(read.skipped).toEqual([]);
  });

  it('walks dropped folders, keeping relative names and leaving out what Loom cannot read', async () => {
    const onfiles = vi.fn<(read: Promise<ReadFiles>) => void>();
    render(DropZone, { edition: 'web', onfiles, onpick: vi.fn() });
    const folder = entryDir('notes', [
      entryFile('one.md', '# One'),
      entryDir('deep', [entryFile('two.markdown', '# Two'), entryFile('pic.png', 'x'), entryFile('paper.pdf', pdfBytes)]),
      entryDir('.git', [entryFile('HEAD.txt', 'ref')]),
    ]);
    const items = [{ kind: 'file', webkitGetAsEntry: () => folder }, { kind: 'file', webkitGetAsEntry: () => entryFile('loose.png', 'x') }];
    await fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { items, files: [], types: ['Files'] } });
    const read = await onfiles.mock.calls[0][0];
    expect(read.uploads).toEqual([
      { name: 'notes/one.md', text: '# One' },
      { name: 'notes/deep/two.markdown', text: '# Two' },
      { name: 'notes/deep/paper.pdf', text: '', data: pdfBase64 },
    ]);
    // A file dropped on its own is named when it is skipped; a folder's images are not.
    expect(read.skipped).toEqual([
      {
        path: 'loose.png',
        state: 'error',
        problem: 'loose.png was skipped: Loom reads papers (PDF), notes (Markdown, text), web pages (HTML), Word (.docx), EPUB, BibTeX and source files — not .png files.',
      },
    ]);
  });

  it('keeps every folder of a dropped tree in the names, so notes of the same name stay apart', async () => {
    const onfiles = vi.fn<(read: Promise<ReadFiles>) => void>();
    render(DropZone, { edition: 'web', onfiles, onpick: vi.fn() });
    const vault = entryDir('vault', [
      entryDir('daily', [entryFile('index.md', '# Daily')]),
      entryDir('projects', [entryDir('loom', [entryFile('index.md', '# Loom')])]),
      entryFile('index.md', '# Home'),
    ]);
    await fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { items: [{ kind: 'file', webkitGetAsEntry: () => vault }], files: [], types: ['Files'] } });
    const read = await onfiles.mock.calls[0][0];
    expect(read.uploads.map((u) => u.name)).toEqual(['vault/daily/index.md', 'vault/projects/loom/index.md', 'vault/index.md']);
  });

  it('keeps the folder a person picked in the names', async () => {
    const onfiles = vi.fn<(read: Promise<ReadFiles>) => void>();
    render(DropZone, { edition: 'web', onfiles, onpick: vi.fn() });
    const input = screen.getByLabelText('Choose a folder to add') as HTMLInputElement;
    expect(input.hasAttribute('webkitdirectory')).toBe(true);
    const picked = (path: string, text: string) => Object.assign(new File([text], path.split('/').pop()!), { webkitRelativePath: path });
    Object.defineProperty(input, 'files', { value: [picked('vault/daily/index.md', '# Daily'), picked('vault/projects/index.md', '# Projects')], configurable: true });
    await fireEvent.change(input);
    expect((await onfiles.mock.calls[0][0]).uploads).toEqual([
      { name: 'vault/daily/index.md', text: '# Daily' },
      { name: 'vault/projects/index.md', text: '# Projects' },
    ]);
  });

  it('reads what the file input chose', async () => {
    const onfiles = vi.fn<(read: Promise<ReadFiles>) => void>();
    render(DropZone, { edition: 'desktop', onfiles, onpick: vi.fn() });
    const input = screen.getByTestId('file-input') as HTMLInputElement;
    expect(input.accept).toBe(readableExtensions.join(','));
    expect(input.accept.split(',')).toEqual(expect.arrayContaining(['.md', '.txt', '.pdf', '.html', '.docx', '.epub', '.bib', '.py', '.go', '.ipynb', '.tex']));
    expect(input.multiple).toBe(true);
    Object.defineProperty(input, 'files', { value: [new File(['hello'], 'x.md')], configurable: true });
    await fireEvent.change(input);
    expect((await onfiles.mock.calls[0][0]).uploads).toEqual([{ name: 'x.md', text: 'hello' }]);
  });

  it('opens the desktop dialog on the desktop and the file input on the web', async () => {
    const onpick = vi.fn();
    const { unmount } = render(DropZone, { edition: 'desktop', onfiles: vi.fn(), onpick });
    await fireEvent.click(screen.getByTestId('pick-files'));
    expect(onpick).toHaveBeenCalledTimes(1);
    unmount();

    const web = vi.fn();
    render(DropZone, { edition: 'web', onfiles: vi.fn(), onpick: web });
    const input = screen.getByTestId('file-input') as HTMLInputElement;
    const click = vi.spyOn(input, 'click');
    await fireEvent.click(screen.getByTestId('pick-files'));
    expect(click).toHaveBeenCalled();
    expect(web).not.toHaveBeenCalled();
  });
});
