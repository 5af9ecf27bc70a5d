// Reading files the page is handed (file input, HTML5 drop, dropped folders)
// into the Upload shape the engine ingests.
import type { FileProgress, Upload } from '../bridge/types';

/** The file types Loom reads, for the file input's accept attribute. */
export const acceptedTypes = '.md,.markdown,.txt,.text';

const readableName = /\.(md|markdown|txt|text)$/i;

/** Whether Loom can read a file of this name. */
export function isReadable(name: string): boolean {
  return readableName.test(name);
}

/** What the page read, and the files it left out with the reason. */
export interface ReadFiles {
  uploads: Upload[];
  skipped: FileProgress[];
}

function skip(path: string): FileProgress {
  return {
    path,
    state: 'error',
    problem: `${path} was skipped: Loom reads Markdown and plain text (.md, .markdown, .txt, .text).`,
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

async function readOne(file: File, name: string, out: ReadFiles): Promise<void> {
  if (!isReadable(name)) {
    out.skipped.push(skip(name));
    return;
  }
  try {
    out.uploads.push({ name, text: await readText(file) });
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
  if (inFolder && !isReadable(name)) return; // a folder's images and PDFs are not worth a line each
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
