import { describe, expect, it } from 'vitest';
import { constants, MemFS, type NodeError } from './memfs';

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_DIRECTORY } = constants;
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

/** The error code a Node-style callback got. */
function code(f: (cb: (err: NodeError | null) => void) => void): string | null {
  let got: string | null = 'no callback';
  f((err) => (got = err ? err.code : null));
  return got;
}

describe('MemFS (Node callback API for Go)', () => {
  it('writes, reads with and without a position, appends and truncates', () => {
    const fs = new MemFS();
    fs.mkdirAll('/w');
    const fd = fs.openSync('/w/a', O_CREAT | O_RDWR | O_TRUNC);
    expect(fs.writeSync(fd, enc('hello'), 0, 5, null)).toBe(5);
    expect(fs.writeSync(fd, enc('HE'), 0, 2, 0)).toBe(2); // pwrite leaves the position
    fs.writeSync(fd, enc(' world'), 0, 6, null);
    expect(dec(fs.readFile('/w/a'))).toBe('HEllo world');
    const buf = new Uint8Array(5);
    expect(fs.readSync(fd, buf, 0, 5, 6)).toBe(5);
    expect(dec(buf)).toBe('world');
    fs.writeSync(fd, enc('!'), 0, 1, 20); // a hole reads as zeros
    expect(fs.fstatSync(fd).size).toBe(21);
    fs.ftruncateSync(fd, 5);
    fs.closeSync(fd);
    const ap = fs.openSync('/w/a', O_WRONLY | O_APPEND);
    fs.writeSync(ap, enc('+'), 0, 1, 0);
    fs.closeSync(ap);
    expect(dec(fs.readFile('/w/a'))).toBe('HEllo+');
    const rd = fs.openSync('/w/a', O_RDONLY);
    const all = new Uint8Array(10);
    expect(fs.readSync(rd, all, 0, 10, null)).toBe(6);
    expect(fs.readSync(rd, all, 0, 10, null)).toBe(0); // end of file
  });

  it('answers with the error codes Go maps', () => {
    const fs = new MemFS();
    const api = fs.nodeAPI();
    expect(code((cb) => api.open('/nope/a', O_RDONLY, 0, cb))).toBe('ENOENT');
    expect(code((cb) => api.stat('/nope', cb))).toBe('ENOENT');
    expect(code((cb) => api.mkdir('/d', 0o755, cb))).toBe(null);
    expect(code((cb) => api.mkdir('/d', 0o755, cb))).toBe('EEXIST');
    expect(code((cb) => api.open('/d/f', O_CREAT | O_WRONLY, 0o644, (e, fd) => (api.close(fd as number, () => {}), cb(e))))).toBe(null);
    expect(code((cb) => api.open('/d/f', O_CREAT | O_EXCL | O_WRONLY, 0o644, cb))).toBe('EEXIST');
    expect(code((cb) => api.open('/d/f', O_DIRECTORY, 0, cb))).toBe('ENOTDIR');
    expect(code((cb) => api.open('/d', O_WRONLY, 0, cb))).toBe('EISDIR');
    expect(code((cb) => api.rmdir('/d', cb))).toBe('ENOTEMPTY');
    expect(code((cb) => api.unlink('/d', cb))).toBe('EISDIR');
    expect(code((cb) => api.close(999, cb))).toBe('EBADF');
    expect(code((cb) => api.open('/d/f/x', O_CREAT | O_WRONLY, 0o644, cb))).toBe('ENOTDIR');
    let isDir = false;
    api.stat('/d', (_e, st) => (isDir = st!.isDirectory()));
    expect(isDir).toBe(true);
  });

  it('lists, renames over files and between folders, and walks the tree', () => {
    const fs = new MemFS();
    fs.writeFile('/w/b/one', enc('1'));
    fs.writeFile('/w/b/two', enc('2'));
    fs.writeFile('/w/c', enc('c'));
    expect(fs.readdirSync('/w/b')).toEqual(['one', 'two']);
    fs.renameSync('/w/b/one', '/w/b/two');
    expect(dec(fs.readFile('/w/b/two'))).toBe('1');
    fs.renameSync('/w/b', '/w/e');
    expect(fs.readdirSync('/w')).toEqual(['c', 'e']);
    expect(() => fs.renameSync('/w/e', '/w/e/x')).toThrow(/EINVAL/);
    expect([...fs.walk('/w')].map(([p]) => p).sort()).toEqual(['/w', '/w/c', '/w/e', '/w/e/two']);
    fs.unlinkSync('/w/e/two');
    fs.rmdirSync('/w/e');
    expect(fs.readdirSync('/w')).toEqual(['c']);
  });

  it('bumps a node’s version on every change (what the persistence layer compares)', () => {
    const fs = new MemFS();
    const f = fs.writeFile('/w/a', enc('x'));
    const v = f.version;
    const fd = fs.openSync('/w/a', O_WRONLY);
    fs.writeSync(fd, enc('y'), 0, 1, 0);
    expect(f.version).toBeGreaterThan(v);
    const v2 = f.version;
    fs.renameSync('/w/a', '/w/b');
    expect(f.version).toBeGreaterThan(v2);
  });

  it('sends what Go writes to fd 1 and 2 to the console, line by line', () => {
    const fs = new MemFS();
    const lines: string[] = [];
    fs.stderr = (l) => lines.push(l);
    fs.writeSync(2, enc('panic: '));
    fs.writeSync(2, enc('boom\ngoroutine 1\n'));
    expect(lines).toEqual(['panic: boom\ngoroutine 1']);
  });
});
