import { describe, expect, it } from 'vitest';
import { isBinary, isReadable, readBytes, readFileList, toBase64 } from './upload';

describe('upload', () => {
  it.each([
    ['notes/a.md', true, false],
    ['docs/Page.MDX', true, false],
    ['paper.pdf', true, true],
    ['Paper.PDF', true, true],
    ['thesis.docx', true, true],
    ['book.epub', true, true],
    ['page.html', true, false],
    ['refs.bib', true, false],
    ['analysis.R', true, false],
    ['main.go', true, false],
    ['notebook.ipynb', true, false],
    ['photo.png', false, false],
    ['slides.pptx', false, false],
    ['Makefile', false, false],
    ['.md', false, false],
  ])('%s: readable %s, sent as bytes %s', (name, readable, binary) => {
    expect(isReadable(name)).toBe(readable);
    expect(isBinary(name)).toBe(binary);
  });

  it('writes bytes as the base64 Go reads into a []byte, whatever their size', () => {
    // Bigger than one String.fromCharCode chunk, every byte value.
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 7) % 256);
    expect(toBase64(bytes)).toBe(btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join('')));
    expect(toBase64(new Uint8Array([0x25, 0xe2, 0xe3, 0xcf, 0xd3]))).toBe('JeLjz9M=');
    expect(toBase64(new Uint8Array())).toBe('');
  });

  it('reads bytes where Blob.arrayBuffer is missing', async () => {
    const blob = new Blob([new Uint8Array([0, 255, 37])]);
    Object.defineProperty(blob, 'arrayBuffer', { value: undefined });
    expect(Array.from(await readBytes(blob))).toEqual([0, 255, 37]);
  });

  it('names a skipped file without an extension plainly', async () => {
    const read = await readFileList([new File(['x'], 'LICENSE')]);
    expect(read.uploads).toEqual([]);
    expect(read.skipped[0].problem).toBe(
      'LICENSE was skipped: Loom reads papers (PDF), notes (Markdown, text), web pages (HTML), Word (.docx), EPUB, BibTeX and source files — not files without an extension.',
    );
  });
});
