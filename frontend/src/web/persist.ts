// Keeps the workspace's files (a folder of the in-memory file system) in
// IndexedDB, one record per file or folder, so the workspace survives a
// reload. restore() fills the file system before the engine starts;
// flush() writes what changed since the last flush (by inode and version:
// see memfs.ts) and deletes what went, in one transaction.
import type { MemFS } from './memfs';

export interface FileRecord {
  path: string;
  kind: 'file' | 'dir';
  data?: Uint8Array;
  mtimeMs: number;
  mode: number;
}

const STORE = 'files';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('the storage transaction was aborted'));
  });
}

export function openDatabase(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') {
      reject(new Error('IndexedDB is not available'));
      return;
    }
    const req = indexedDB.open(name, 1);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'path' });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB refused to open'));
    req.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
  });
}

export interface FlushStats {
  put: number;
  deleted: number;
  bytes: number;
  ms: number;
}

export class Persist {
  /** What the database holds: path → "ino:version" of the node saved there. */
  private saved = new Map<string, string>();
  private running: Promise<FlushStats> | null = null;
  private again = false;

  constructor(
    private readonly db: IDBDatabase,
    private readonly fs: MemFS,
    /** The folder kept (and everything under it). */
    readonly dir: string,
  ) {}

  /** Fills the file system from the database; returns how many files and bytes. */
  async restore(): Promise<{ files: number; bytes: number }> {
    const tx = this.db.transaction(STORE, 'readonly');
    const records = await request(tx.objectStore(STORE).getAll() as IDBRequest<FileRecord[]>);
    records.sort((a, b) => a.path.length - b.path.length);
    let files = 0;
    let bytes = 0;
    this.fs.mkdirAll(this.dir);
    for (const r of records) {
      if (r.kind === 'dir') {
        const d = this.fs.mkdirAll(r.path);
        d.mode = r.mode;
        d.mtimeMs = r.mtimeMs;
        this.saved.set(r.path, `${d.ino}:${d.version}`);
      } else {
        const data = r.data ?? new Uint8Array(0);
        const f = this.fs.writeFile(r.path, data, r.mtimeMs, r.mode);
        this.saved.set(r.path, `${f.ino}:${f.version}`);
        files++;
        bytes += data.length;
      }
    }
    // Folders made on the way (mkdirAll) are saved by the next flush.
    return { files, bytes };
  }

  /** Whether anything changed since the last flush. */
  dirty(): boolean {
    let seen = 0;
    for (const [path, node] of this.fs.walk(this.dir)) {
      seen++;
      if (this.saved.get(path) !== `${node.ino}:${node.version}`) return true;
    }
    return seen !== this.saved.size;
  }

  /**
   * Writes what changed. The snapshot of the files is taken at once (the
   * engine cannot write in between: JavaScript runs one thing at a time);
   * a flush asked for while one runs runs again after it.
   */
  flush(): Promise<FlushStats> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = (async () => {
      let stats: FlushStats;
      try {
        stats = await this.flushOnce();
        while (this.again) {
          this.again = false;
          const s = await this.flushOnce();
          stats = { put: stats.put + s.put, deleted: stats.deleted + s.deleted, bytes: stats.bytes + s.bytes, ms: stats.ms + s.ms };
        }
      } finally {
        this.running = null;
      }
      return stats;
    })();
    this.running = run;
    return run;
  }

  private async flushOnce(): Promise<FlushStats> {
    const t0 = performance.now();
    const puts: FileRecord[] = [];
    const next = new Map<string, string>();
    let bytes = 0;
    for (const [path, node] of this.fs.walk(this.dir)) {
      const tag = `${node.ino}:${node.version}`;
      next.set(path, tag);
      if (this.saved.get(path) === tag) continue;
      if (node.kind === 'file') {
        const data = node.data.slice(0, node.size);
        bytes += data.length;
        puts.push({ path, kind: 'file', data, mtimeMs: node.mtimeMs, mode: node.mode });
      } else {
        puts.push({ path, kind: 'dir', mtimeMs: node.mtimeMs, mode: node.mode });
      }
    }
    const deletes = [...this.saved.keys()].filter((p) => !next.has(p));
    if (puts.length === 0 && deletes.length === 0) return { put: 0, deleted: 0, bytes: 0, ms: 0 };
    const tx = this.db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    for (const p of deletes) store.delete(p);
    for (const r of puts) store.put(r);
    await done(tx);
    this.saved = next;
    return { put: puts.length, deleted: deletes.length, bytes, ms: performance.now() - t0 };
  }

  /** Empties the database and forgets what was saved (the files stay in memory). */
  async clear(): Promise<void> {
    const tx = this.db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).clear();
    await done(tx);
    this.saved.clear();
  }
}
