import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import DropZone from './DropZone.svelte';
import type { ReadFiles } from '../lib/upload';

function entryFile(name: string, text: string) {
  return { isFile: true, isDirectory: false, name, file: (ok: (f: File) => void) => ok(new File([text], name)) };
}

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
  it('reads dropped files and hands them over', async () => {
    const onfiles = vi.fn<(read: Promise<ReadFiles>) => void>();
    render(DropZone, { edition: 'web', onfiles, onpick: vi.fn() });
    const files = [new File(['# A'], 'a.md'), new File(['plain'], 'b.txt')];
    await fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files, types: ['Files'] } });
    expect(onfiles).toHaveBeenCalledTimes(1);
    const read = await onfiles.mock.calls[0][0];
    expect(read.uploads).toEqual([
      { name: 'a.md', text: '# A' },
      { name: 'b.txt', text: 'plain' },
    ]);
  });

  it('walks dropped folders, keeping relative names and leaving out what Loom cannot read', async () => {
    const onfiles = vi.fn<(read: Promise<ReadFiles>) => void>();
    render(DropZone, { edition: 'web', onfiles, onpick: vi.fn() });
    const folder = entryDir('notes', [
      entryFile('one.md', '# One'),
      entryDir('deep', [entryFile('two.markdown', '# Two'), entryFile('pic.png', 'x')]),
      entryDir('.git', [entryFile('HEAD.txt', 'ref')]),
    ]);
    const items = [{ kind: 'file', webkitGetAsEntry: () => folder }, { kind: 'file', webkitGetAsEntry: () => entryFile('loose.pdf', '%PDF') }];
    await fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { items, files: [], types: ['Files'] } });
    const read = await onfiles.mock.calls[0][0];
    expect(read.uploads.map((u) => u.name)).toEqual(['notes/one.md', 'notes/deep/two.markdown']);
    // A file dropped on its own is named when it is skipped; a folder's images are not.
    expect(read.skipped.map((s) => s.path)).toEqual(['loose.pdf']);
  });

  it('reads what the file input chose', async () => {
    const onfiles = vi.fn<(read: Promise<ReadFiles>) => void>();
    render(DropZone, { edition: 'desktop', onfiles, onpick: vi.fn() });
    const input = screen.getByTestId('file-input') as HTMLInputElement;
    expect(input.accept).toBe('.md,.markdown,.txt,.text');
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
