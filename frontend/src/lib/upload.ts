// Reading files the page is handed (file input, HTML5 drop, dropped folders)
// into the Upload shape the engine ingests: text formats as text, PDF, Word
// and EPUB files as their bytes.
import type { FileProgress, Upload } from '../bridge/types';

/**
 * The file extensions Loom reads. This mirrors the engine's own list (the
 * formats backend/ingest parses): change both together.
 */
export const readableExtensions = [
  '.md', '.markdown', '.mdown', '.mkd', '.mdx', '.txt', '.text',
  '.pdf', '.html', '.htm', '.xhtml', '.docx', '.epub', '.bib', '.ris',
  '.py', '.go', '.js', '.mjs', '.ts', '.tsx', '.jsx', '.r', '.R', '.jl', '.tex', '.ipynb',
  '.csv', '.tsv', '.json', '.yaml', '.yml', '.toml',
  '.rs', '.java', '.c', '.h', '.cpp', '.hpp', '.cc', '.rb', '.sh', '.sql', '.m', '.scala', '.kt', '.swift', '.lua', '.pl', '.php',
  '.css', '.scss', '.org', '.rst', '.adoc',
  '.pyi', '.cjs', '.mts', '.cts', '.cxx', '.hh',
] as const;

/** The readable formats that are not text: read as bytes and sent as base64 data. */
export const binaryExtensions = ['.pdf', '.docx', '.epub'] as const;

/** The file types Loom reads, for the file input's accept attribute. */
export const acceptedTypes = readableExtensions.join(',');

const readable = new Set<string>(readableExtensions.map((e) => e.toLowerCase()));
const binary = new Set<string>(binaryExtensions);

/** A name's extension, lower-case with its dot ("" when it has none). */
function extension(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

/** Whether Loom can read a file of this name. */
export function isReadable(name: string): boolean {
  return readable.has(extension(name));
}

/** Whether a file of this name goes to the engine as bytes rather than text. */
export function isBinary(name: string): boolean {
  return binary.has(extension(name));
}

/** What the page read, and the files it left out with the reason. */
export interface ReadFiles {
  uploads: Upload[];
  skipped: FileProgress[];
}

/** What Loom reads, as a skipped file's message says it. */
export const readableSummary = 'papers (PDF), notes (Markdown, text), web pages (HTML), Word (.docx), EPUB, BibTeX and source files';

/** What can be dropped, as the drop zone and the empty library say it. */
export const droppable = 'papers (PDF), notes and vaults (Markdown, Org), web pages, Word files, references (BibTeX, RIS) or code';

function skip(path: string): FileProgress {
  const ext = extension(path);
  return {
    path,
    state: 'error',
    problem: `${path} was skipped: Loom reads ${readableSummary} — not ${ext ? `${ext} files` : 'files without an extension'}.`,
  };
}

/** A file's text; Blob.text where there is one, FileReader otherwise. */
export function readText(file: Blob): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsText(file);
  });
}

/** A file's bytes; Blob.arrayBuffer where there is one, FileReader otherwise. */
export function readBytes(file: Blob): Promise<Uint8Array> {
  if (typeof file.arrayBuffer === 'function') return file.arrayBuffer().then((b) => new Uint8Array(b));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsArrayBuffer(file);
  });
}

/** Bytes as base64, how JSON carries Go's []byte. */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  // A chunk at a time: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

async function readOne(file: File, name: string, out: ReadFiles): Promise<void> {
  if (!isReadable(name)) {
    out.skipped.push(skip(name));
    return;
  }
  try {
    out.uploads.push(isBinary(name) ? { name, text: '', data: toBase64(await readBytes(file)) } : { name, text: await readText(file) });
  } catch (reason) {
    out.skipped.push({ path: name, state: 'error', problem: `${name} could not be read: ${reason instanceof Error ? reason.message : String(reason)}.` });
  }
}

/** Reads the files of a file input (or a plain list), keeping folder-relative names where the browser gives them. */
export async function readFileList(files: ArrayLike<File>): Promise<ReadFiles> {
  const out: ReadFiles = { uploads: [], skipped: [] };
  for (const file of Array.from(files)) {
    const relative = (file as File & { webkitRelativePath?: string }).webkitRelativePath;
    await readOne(file, relative || file.name, out);
  }
  return out;
}

// The File and Directory Entries API, as much of it as a drop needs.
interface Entry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath?: string;
}
interface FileEntry extends Entry {
  file(ok: (f: File) => void, fail: (e: unknown) => void): void;
}
interface DirectoryEntry extends Entry {
  createReader(): { readEntries(ok: (entries: Entry[]) => void, fail: (e: unknown) => void): void };
}

function entryFile(entry: FileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

/** Every entry of a folder: readEntries answers in batches until it answers none. */
async function folderEntries(dir: DirectoryEntry): Promise<Entry[]> {
  const reader = dir.createReader();
  const all: Entry[] = [];
  for (;;) {
    const batch = await new Promise<Entry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

async function walk(entry: Entry, prefix: string, out: ReadFiles, inFolder: boolean): Promise<void> {
  const name = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isDirectory) {
    if (entry.name.startsWith('.') && prefix !== '') return; // .git, .obsidian and the like
    for (const child of await folderEntries(entry as DirectoryEntry)) await walk(child, name, out, true);
    return;
  }
  if (!entry.isFile) return;
  if (inFolder && !isReadable(name)) return; // a folder's images and the like are not worth a line each
  try {
    await readOne(await entryFile(entry as FileEntry), name, out);
  } catch (reason) {
    out.skipped.push({ path: name, state: 'error', problem: `${name} could not be read: ${String(reason)}.` });
  }
}

/**
 * Starts reading what was dropped. It must be called inside the drop event:
 * the items are only readable while it runs, so they are taken now and read
 * after.
 */
export function readDrop(data: DataTransfer | null): Promise<ReadFiles> {
  if (!data) return Promise.resolve({ uploads: [], skipped: [] });
  const entries: Entry[] = [];
  const items = data.items ? Array.from(data.items) : [];
  for (const item of items) {
    if (item.kind !== 'file') continue;
    const entry = (item as DataTransferItem & { webkitGetAsEntry?: () => Entry | null }).webkitGetAsEntry?.();
    if (entry) entries.push(entry);
  }
  if (entries.length > 0) {
    return (async () => {
      const out: ReadFiles = { uploads: [], skipped: [] };
      for (const entry of entries) await walk(entry, '', out, false);
      return out;
    })();
  }
  return readFileList(Array.from(data.files ?? []));
}
