// An in-memory file system with the part of Node's callback `fs` API that
// Go's syscall/js layer calls (see $GOROOT/src/syscall/fs_js.go): the web
// edition's engine runs on it in the worker. Errors carry Node's `code`
// (ENOENT, EEXIST, …), which Go maps to its errnos; callbacks run
// synchronously, which Go supports (a callback triggered during a call from
// Go runs on the calling goroutine) and which saves an event-loop turn per
// file operation.
//
// Every node has an inode number and a version bumped on each change, so
// the persistence layer (persist.ts) can tell what changed since it last
// saved without hooking every operation.

export const S_IFDIR = 0o040000;
export const S_IFREG = 0o100000;

/** Linux's values, which Go reads from fs.constants. */
export const constants = {
  O_RDONLY: 0,
  O_WRONLY: 1,
  O_RDWR: 2,
  O_CREAT: 0o100,
  O_EXCL: 0o200,
  O_TRUNC: 0o1000,
  O_APPEND: 0o2000,
  O_DIRECTORY: 0o200000,
};

export interface FileNode {
  kind: 'file';
  ino: number;
  version: number;
  mode: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Bytes [0, size) are the file; the rest is spare capacity. */
  data: Uint8Array;
  size: number;
}

export interface DirNode {
  kind: 'dir';
  ino: number;
  version: number;
  mode: number;
  mtimeMs: number;
  ctimeMs: number;
  entries: Map<string, FsNode>;
}

export type FsNode = FileNode | DirNode;

interface OpenFile {
  node: FsNode;
  flags: number;
  /** Position for reads and writes without one (Go's Read/Write before any Seek). */
  pos: number;
}

export interface NodeError extends Error {
  code: string;
}

function fsError(code: string, syscall: string, path?: string): NodeError {
  const err = new Error(`${code}: ${syscall}${path !== undefined ? ` '${path}'` : ''}`) as NodeError;
  err.code = code;
  return err;
}

type Cb<T = unknown> = (err: NodeError | null, value?: T) => void;

/** The Stats object Go reads (it calls isDirectory() and reads these fields). */
export interface NodeStats {
  dev: number;
  ino: number;
  mode: number;
  nlink: number;
  uid: number;
  gid: number;
  rdev: number;
  size: number;
  blksize: number;
  blocks: number;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
  isDirectory(): boolean;
  isFile(): boolean;
}

export class MemFS {
  readonly root: DirNode;
  private nextIno = 1;
  private nextFd = 10;
  private readonly fds = new Map<number, OpenFile>();
  /** Lines written to fd 1 and 2 go to these (default: the console). */
  stdout: (line: string) => void = (l) => console.log(l);
  stderr: (line: string) => void = (l) => console.error(l);
  private readonly outBuf = ['', '', ''];
  private readonly decoder = new TextDecoder();

  constructor() {
    this.root = this.newDir(0o755);
  }

  private now(): number {
    return Date.now();
  }

  private newDir(mode: number): DirNode {
    const t = this.now();
    return { kind: 'dir', ino: this.nextIno++, version: 1, mode: mode & 0o7777, mtimeMs: t, ctimeMs: t, entries: new Map() };
  }

  private newFile(mode: number, data?: Uint8Array): FileNode {
    const t = this.now();
    const bytes = data ?? new Uint8Array(0);
    return { kind: 'file', ino: this.nextIno++, version: 1, mode: mode & 0o7777, mtimeMs: t, ctimeMs: t, data: bytes, size: bytes.length };
  }

  private touch(n: FsNode) {
    n.version++;
    n.mtimeMs = n.ctimeMs = this.now();
  }

  /** Splits an absolute or cwd-relative path into its names ("." and ".." resolved). */
  static parts(path: string): string[] {
    const out: string[] = [];
    for (const p of path.split('/')) {
      if (p === '' || p === '.') continue;
      if (p === '..') out.pop();
      else out.push(p);
    }
    return out;
  }

  static normalize(path: string): string {
    return '/' + MemFS.parts(path).join('/');
  }

  /** The node at path, or an error code. */
  private lookup(path: string, syscall: string): FsNode {
    let n: FsNode = this.root;
    for (const name of MemFS.parts(path)) {
      if (n.kind !== 'dir') throw fsError('ENOTDIR', syscall, path);
      const next: FsNode | undefined = n.entries.get(name);
      if (!next) throw fsError('ENOENT', syscall, path);
      n = next;
    }
    return n;
  }

  /** The parent directory of path and the last name. */
  private parent(path: string, syscall: string): { dir: DirNode; name: string } {
    const parts = MemFS.parts(path);
    const name = parts.pop();
    if (name === undefined) throw fsError('EEXIST', syscall, path);
    const dir = this.lookup('/' + parts.join('/'), syscall);
    if (dir.kind !== 'dir') throw fsError('ENOTDIR', syscall, path);
    return { dir, name };
  }

  private fd(fd: number, syscall: string): OpenFile {
    const f = this.fds.get(fd);
    if (!f) throw fsError('EBADF', syscall);
    return f;
  }

  private stats(n: FsNode): NodeStats {
    const size = n.kind === 'file' ? n.size : 4096;
    const dir = n.kind === 'dir';
    return {
      dev: 1,
      ino: n.ino,
      mode: (dir ? S_IFDIR : S_IFREG) | n.mode,
      nlink: 1,
      uid: 0,
      gid: 0,
      rdev: 0,
      size,
      blksize: 4096,
      blocks: Math.ceil(size / 512),
      atimeMs: n.mtimeMs,
      mtimeMs: n.mtimeMs,
      ctimeMs: n.ctimeMs,
      isDirectory: () => dir,
      isFile: () => !dir,
    };
  }

  private static grow(f: FileNode, size: number) {
    if (size <= f.data.length) return;
    const cap = Math.max(size, Math.min(f.data.length * 2, f.data.length + 64 * 1024 * 1024), 256);
    const next = new Uint8Array(cap);
    next.set(f.data.subarray(0, f.size));
    f.data = next;
  }

  private static truncate(f: FileNode, len: number) {
    if (len > f.size) {
      MemFS.grow(f, len);
      f.data.fill(0, f.size, len);
    } else if (len < f.data.length / 4 && f.data.length > 1 << 20) {
      f.data = f.data.slice(0, len); // give back memory of files that shrank a lot
    }
    f.size = len;
  }

  // ---- synchronous operations (each throws a NodeError) ----

  openSync(path: string, flags: number, mode = 0o666): number {
    const { O_CREAT, O_EXCL, O_TRUNC, O_DIRECTORY, O_WRONLY, O_RDWR } = constants;
    let node: FsNode | undefined;
    try {
      node = this.lookup(path, 'open');
    } catch (e) {
      if ((e as NodeError).code !== 'ENOENT' || !(flags & O_CREAT)) throw e;
    }
    if (node && flags & O_CREAT && flags & O_EXCL) throw fsError('EEXIST', 'open', path);
    if (!node) {
      const { dir, name } = this.parent(path, 'open');
      node = this.newFile(mode);
      dir.entries.set(name, node);
      this.touch(dir);
    }
    if (node.kind === 'dir' && flags & (O_WRONLY | O_RDWR)) throw fsError('EISDIR', 'open', path);
    if (node.kind !== 'dir' && flags & O_DIRECTORY) throw fsError('ENOTDIR', 'open', path);
    if (node.kind === 'file' && flags & O_TRUNC && flags & (O_WRONLY | O_RDWR) && node.size > 0) {
      MemFS.truncate(node, 0);
      this.touch(node);
    }
    const fd = this.nextFd++;
    this.fds.set(fd, { node, flags, pos: 0 });
    return fd;
  }

  closeSync(fd: number) {
    this.fd(fd, 'close');
    this.fds.delete(fd);
  }

  readSync(fd: number, buf: Uint8Array, offset: number, length: number, position: number | null): number {
    const f = this.fd(fd, 'read');
    if (f.node.kind !== 'file') throw fsError('EISDIR', 'read');
    if ((f.flags & 3) === constants.O_WRONLY) throw fsError('EBADF', 'read');
    const at = position ?? f.pos;
    const n = Math.max(0, Math.min(length, f.node.size - at));
    if (n > 0) buf.set(f.node.data.subarray(at, at + n), offset);
    if (position === null || position === undefined) f.pos = at + n;
    return n;
  }

  writeSync(fd: number, buf: Uint8Array, offset = 0, length = buf.length - offset, position: number | null = null): number {
    if (fd === 1 || fd === 2) {
      this.console(fd, buf.subarray(offset, offset + length));
      return length;
    }
    const f = this.fd(fd, 'write');
    if (f.node.kind !== 'file') throw fsError('EISDIR', 'write');
    if ((f.flags & 3) === constants.O_RDONLY) throw fsError('EBADF', 'write');
    const file = f.node;
    const append = (f.flags & constants.O_APPEND) !== 0;
    const at = append ? file.size : (position ?? f.pos);
    const end = at + length;
    MemFS.grow(file, end);
    if (at > file.size) file.data.fill(0, file.size, at);
    file.data.set(buf.subarray(offset, offset + length), at);
    if (end > file.size) file.size = end;
    if (position === null || position === undefined || append) f.pos = end;
    this.touch(file);
    return length;
  }

  private console(fd: number, bytes: Uint8Array) {
    this.outBuf[fd] += this.decoder.decode(bytes);
    const nl = this.outBuf[fd].lastIndexOf('\n');
    if (nl < 0) return;
    const lines = this.outBuf[fd].slice(0, nl);
    this.outBuf[fd] = this.outBuf[fd].slice(nl + 1);
    (fd === 1 ? this.stdout : this.stderr)(lines);
  }

  statSync(path: string): NodeStats {
    return this.stats(this.lookup(path, 'stat'));
  }

  fstatSync(fd: number): NodeStats {
    return this.stats(this.fd(fd, 'fstat').node);
  }

  ftruncateSync(fd: number, len: number) {
    const f = this.fd(fd, 'ftruncate');
    if (f.node.kind !== 'file') throw fsError('EINVAL', 'ftruncate');
    MemFS.truncate(f.node, len);
    this.touch(f.node);
  }

  truncateSync(path: string, len: number) {
    const n = this.lookup(path, 'truncate');
    if (n.kind !== 'file') throw fsError('EISDIR', 'truncate', path);
    MemFS.truncate(n, len);
    this.touch(n);
  }

  mkdirSync(path: string, mode = 0o777) {
    const { dir, name } = this.parent(path, 'mkdir');
    if (dir.entries.has(name)) throw fsError('EEXIST', 'mkdir', path);
    dir.entries.set(name, this.newDir(mode));
    this.touch(dir);
  }

  /** Creates path and its parents (for restoring and set-up, not for Go). */
  mkdirAll(path: string) {
    let n: DirNode = this.root;
    for (const name of MemFS.parts(path)) {
      let next = n.entries.get(name);
      if (!next) {
        next = this.newDir(0o755);
        n.entries.set(name, next);
      }
      if (next.kind !== 'dir') throw fsError('ENOTDIR', 'mkdir', path);
      n = next;
    }
    return n;
  }

  readdirSync(path: string): string[] {
    const n = this.lookup(path, 'scandir');
    if (n.kind !== 'dir') throw fsError('ENOTDIR', 'scandir', path);
    return [...n.entries.keys()].sort();
  }

  renameSync(from: string, to: string) {
    const src = this.parent(from, 'rename');
    const node = src.dir.entries.get(src.name);
    if (!node) throw fsError('ENOENT', 'rename', from);
    const dst = this.parent(to, 'rename');
    if (src.dir === dst.dir && src.name === dst.name) return;
    // Moving a directory inside itself.
    if (node.kind === 'dir') {
      const f = MemFS.parts(from);
      const t = MemFS.parts(to);
      if (t.length > f.length && f.every((p, i) => t[i] === p)) throw fsError('EINVAL', 'rename', from);
    }
    const existing = dst.dir.entries.get(dst.name);
    if (existing) {
      if (existing.kind === 'dir' && node.kind !== 'dir') throw fsError('EISDIR', 'rename', to);
      if (existing.kind !== 'dir' && node.kind === 'dir') throw fsError('ENOTDIR', 'rename', to);
      if (existing.kind === 'dir' && existing.entries.size > 0) throw fsError('ENOTEMPTY', 'rename', to);
    }
    src.dir.entries.delete(src.name);
    dst.dir.entries.set(dst.name, node);
    this.touch(src.dir);
    this.touch(dst.dir);
    node.version++; // its path changed
  }

  unlinkSync(path: string) {
    const { dir, name } = this.parent(path, 'unlink');
    const n = dir.entries.get(name);
    if (!n) throw fsError('ENOENT', 'unlink', path);
    if (n.kind === 'dir') throw fsError('EISDIR', 'unlink', path);
    dir.entries.delete(name);
    this.touch(dir);
  }

  rmdirSync(path: string) {
    const { dir, name } = this.parent(path, 'rmdir');
    const n = dir.entries.get(name);
    if (!n) throw fsError('ENOENT', 'rmdir', path);
    if (n.kind !== 'dir') throw fsError('ENOTDIR', 'rmdir', path);
    if (n.entries.size > 0) throw fsError('ENOTEMPTY', 'rmdir', path);
    dir.entries.delete(name);
    this.touch(dir);
  }

  chmodSync(path: string, mode: number) {
    const n = this.lookup(path, 'chmod');
    n.mode = mode & 0o7777;
    n.ctimeMs = this.now();
  }

  utimesSync(path: string, _atime: number, mtime: number) {
    const n = this.lookup(path, 'utime');
    n.mtimeMs = Math.round(mtime * 1000);
    n.version++;
  }

  /** Puts a file with this content at path, creating its folders (restore). */
  writeFile(path: string, data: Uint8Array, mtimeMs?: number, mode = 0o644): FileNode {
    const parts = MemFS.parts(path);
    const name = parts.pop();
    if (name === undefined) throw fsError('EISDIR', 'write', path);
    const dir = this.mkdirAll('/' + parts.join('/'));
    const f = this.newFile(mode, data);
    if (mtimeMs !== undefined) f.mtimeMs = f.ctimeMs = mtimeMs;
    dir.entries.set(name, f);
    return f;
  }

  /** The file's bytes (a copy), or undefined. */
  readFile(path: string): Uint8Array | undefined {
    try {
      const n = this.lookup(path, 'open');
      return n.kind === 'file' ? n.data.slice(0, n.size) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Every node under path (itself included), with its absolute path. */
  *walk(path: string): Generator<[string, FsNode]> {
    let start: FsNode;
    try {
      start = this.lookup(path, 'scandir');
    } catch {
      return;
    }
    const stack: [string, FsNode][] = [[MemFS.normalize(path), start]];
    while (stack.length) {
      const [p, n] = stack.pop()!;
      yield [p, n];
      if (n.kind === 'dir') for (const [name, child] of n.entries) stack.push([p === '/' ? `/${name}` : `${p}/${name}`, child]);
    }
  }

  /** The object to install as globalThis.fs: Node's callback API. */
  nodeAPI() {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const fs = this;
    function run<T>(cb: Cb<T>, f: () => T) {
      let value: T;
      try {
        value = f();
      } catch (e) {
        cb(e as NodeError);
        return;
      }
      cb(null, value);
    }
    const enosys = (name: string) => (...args: unknown[]) => (args[args.length - 1] as Cb)(fsError('ENOSYS', name));
    return {
      constants,
      writeSync: (fd: number, buf: Uint8Array) => fs.writeSync(fd, buf),
      open: (path: string, flags: number, mode: number, cb: Cb<number>) => run(cb, () => fs.openSync(path, flags, mode)),
      close: (fd: number, cb: Cb) => run(cb, () => fs.closeSync(fd)),
      read: (fd: number, buf: Uint8Array, offset: number, length: number, position: number | null, cb: Cb<number>) =>
        run(cb, () => fs.readSync(fd, buf, offset, length, position)),
      write: (fd: number, buf: Uint8Array, offset: number, length: number, position: number | null, cb: Cb<number>) =>
        run(cb, () => fs.writeSync(fd, buf, offset, length, position)),
      fstat: (fd: number, cb: Cb<NodeStats>) => run(cb, () => fs.fstatSync(fd)),
      stat: (path: string, cb: Cb<NodeStats>) => run(cb, () => fs.statSync(path)),
      lstat: (path: string, cb: Cb<NodeStats>) => run(cb, () => fs.statSync(path)),
      fsync: (_fd: number, cb: Cb) => cb(null),
      ftruncate: (fd: number, len: number, cb: Cb) => run(cb, () => fs.ftruncateSync(fd, len)),
      truncate: (path: string, len: number, cb: Cb) => run(cb, () => fs.truncateSync(path, len)),
      mkdir: (path: string, mode: number, cb: Cb) => run(cb, () => fs.mkdirSync(path, mode)),
      readdir: (path: string, cb: Cb<string[]>) => run(cb, () => fs.readdirSync(path)),
      rename: (from: string, to: string, cb: Cb) => run(cb, () => fs.renameSync(from, to)),
      unlink: (path: string, cb: Cb) => run(cb, () => fs.unlinkSync(path)),
      rmdir: (path: string, cb: Cb) => run(cb, () => fs.rmdirSync(path)),
      chmod: (path: string, mode: number, cb: Cb) => run(cb, () => fs.chmodSync(path, mode)),
      fchmod: (fd: number, mode: number, cb: Cb) =>
        run(cb, () => {
          const n = fs.fd(fd, 'fchmod').node;
          n.mode = mode & 0o7777;
        }),
      utimes: (path: string, atime: number, mtime: number, cb: Cb) => run(cb, () => fs.utimesSync(path, atime, mtime)),
      chown: (_p: string, _u: number, _g: number, cb: Cb) => cb(null),
      fchown: (_fd: number, _u: number, _g: number, cb: Cb) => cb(null),
      lchown: (_p: string, _u: number, _g: number, cb: Cb) => cb(null),
      readlink: (path: string, cb: Cb) => cb(fsError('EINVAL', 'readlink', path)),
      link: enosys('link'),
      symlink: enosys('symlink'),
    };
  }
}
