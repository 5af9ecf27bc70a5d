// The web edition's engine: a module worker that gives Go's syscall/js an
// in-memory file system (memfs.ts) restored from IndexedDB (persist.ts),
// fetches loom.wasm and the offline embedding table with progress (cached
// in the Cache API, so a reload does not fetch them again), runs the engine
// (cmd/loom-web) and relays calls and events to and from the page
// (bridge/web.ts). One tab at a time holds the workspace (Web Locks).
import { MemFS } from './memfs';
import { extractPDFJSON, setSiteBase } from './pdf';
import { configure as configureCode, LANGUAGE_NAMES, parseFlat } from './codetree.js';
// web-tree-sitter's own runtime: Vite emits it with the page (once, hashed).
import treeSitterRuntime from 'web-tree-sitter/tree-sitter.wasm?url';
import { openDatabase, Persist } from './persist';
import type { BootState, FromWorker, ToWorker } from './protocol';
import type { Rejection } from '../bridge/types';

/** The workspace folder (cmd/loom-web's WorkspaceDir) and what is kept of the file system. */
const WORKSPACE_ROOT = '/loom';
const DATABASE = 'loom-workspace';
const ASSET_CACHE = 'loom-assets';
const LOCK = 'loom-workspace';
/** Calls after which the workspace is saved before the page hears back. */
const WRITES = new Set([
  'IngestPaths',
  'IngestUploads',
  'IngestSample',
  'RemoveDocument',
  'ReingestDocument',
  'Pin',
  'Chat',
  'ImportWorkspace',
  'CancelIngest',
]);

interface GoInstance {
  env: Record<string, string>;
  argv: string[];
  importObject: WebAssembly.Imports;
  run(instance: WebAssembly.Instance): Promise<void>;
}

interface EngineGlobals {
  fs: unknown;
  process: unknown;
  Go: new () => GoInstance;
  loomReady?: () => void;
  loomEmit?: (event: string, data: string) => void;
  loomInit?: (table: Uint8Array, ollamaURL: string, origin: string) => Promise<void>;
  loomCall?: (method: string, args: string) => Promise<string>;
  loomSetOllama?: (url: string) => void;
  loomExtractPDF?: (bytes: Uint8Array) => Promise<string>;
  loomParseCode?: typeof parseFlat;
}

const g = globalThis as unknown as EngineGlobals;
// The engine reads PDFs through this (backend/ingest/pdf, extract_js.go):
// there before the engine starts; pdf.js itself loads on the first PDF.
g.loomExtractPDF = extractPDFJSON;
// And source code through this (backend/ingest/code, treesitter_js.go):
// web-tree-sitter loads a language's grammar (build/web/grammars) the
// first time a file of it is read.
g.loomParseCode = parseFlat;
const started = performance.now();
const post = (m: FromWorker, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(m, transfer);

/** Set while another tab holds the workspace: the downloads go on meanwhile, but the page is told it waits. */
let waitingForLock = false;

function boot(state: BootState) {
  const phase = waitingForLock && state.phase === 'download' ? 'waiting' : state.phase;
  post({ type: 'boot', state: { ...state, phase, ms: Math.round(performance.now() - started) } });
}

// The file system and process Go's runtime expects, installed before
// wasm_exec.js looks for them.
const memfs = new MemFS();
const stderrTail: string[] = [];
memfs.stderr = (lines) => {
  console.error(lines);
  stderrTail.push(...lines.split('\n'));
  if (stderrTail.length > 40) stderrTail.splice(0, stderrTail.length - 40);
};
memfs.mkdirAll('/tmp');
memfs.mkdirAll(WORKSPACE_ROOT);
let cwd = '/';
g.fs = memfs.nodeAPI();
g.process = {
  getuid: () => -1,
  getgid: () => -1,
  geteuid: () => -1,
  getegid: () => -1,
  getgroups: () => [],
  pid: 1,
  ppid: 0,
  umask: () => 0o022,
  cwd: () => cwd,
  chdir: (p: string) => {
    cwd = MemFS.normalize(p.startsWith('/') ? p : `${cwd}/${p}`);
  },
};

let persist: Persist | null = null;
let engineError: string | null = null;
let resolveStarted!: () => void;
const engineStarted = new Promise<void>((r) => (resolveStarted = r));
/** Rejects if the Go program ends (a panic): calls in flight would otherwise never settle. */
let rejectExited!: (e: Error) => void;
const engineExited = new Promise<never>((_, reject) => (rejectExited = reject));
engineExited.catch(() => {});

/**
 * Files are saved at once after the calls that write (before the page
 * hears back), and a moment after any other call: queries write too (the
 * engine records what they derive), and a reload right after one would
 * lose that (a worker is stopped with its page; the flush asked for on
 * pagehide may not finish). 50 ms lets a burst of calls share one flush;
 * flushes coalesce while one runs.
 */
let flushTimer: ReturnType<typeof setTimeout> | undefined;
function scheduleFlush(ms = 50) {
  clearTimeout(flushTimer);
  flushTimer = setTimeout(() => void flush(), ms);
}

async function flush() {
  clearTimeout(flushTimer);
  if (!persist) return;
  try {
    await persist.flush();
  } catch (e) {
    console.error('loom: saving the workspace failed', e);
  }
}

interface AssetInfo {
  size?: number;
  hash?: string;
}

/** Sizes and hashes of the big files (make web writes assets.json). */
let manifest: Record<string, AssetInfo> = {};

async function readManifest(base: string) {
  try {
    const res = await fetch(new URL('assets.json', base), { cache: 'no-cache' });
    if (res.ok) manifest = await res.json();
  } catch {
    // no manifest: fetch by name, the HTTP cache decides
  }
}

/** The asset's URL, with its hash when the manifest has it (a new build is a new URL). */
function assetURL(base: string, name: string): string {
  const u = new URL(name, base);
  if (manifest[name]?.hash) u.searchParams.set('v', manifest[name].hash!);
  return u.href;
}

/** Fetches the assets (one progress for all), from the cache when it has them. */
async function fetchAssets(base: string, names: string[]): Promise<Uint8Array[]> {
  const urls = names.map((n) => assetURL(base, n));
  const cache = typeof caches !== 'undefined' ? await caches.open(ASSET_CACHE).catch(() => null) : null;
  const cached = cache ? await Promise.all(urls.map((u) => cache.match(u).catch(() => undefined))) : urls.map(() => undefined);
  const total = names.reduce((s, n, i) => s + (manifest[n]?.size ?? Number(cached[i]?.headers.get('Content-Length') ?? 0)), 0);
  const loaded = names.map(() => 0);
  const allCached = cached.every(Boolean);
  const report = () => boot({ phase: 'download', loaded: loaded.reduce((a, b) => a + b, 0), total, cached: allCached });
  report();
  let last = 0;
  const out = await Promise.all(
    urls.map(async (url, i) => {
      const hit = cached[i];
      if (hit) {
        const bytes = new Uint8Array(await hit.arrayBuffer());
        loaded[i] = bytes.length;
        report();
        return bytes;
      }
      const res = await fetch(url);
      if (!res.ok || !res.body) throw new Error(`${names[i]}: the server answered ${res.status} ${res.statusText}`);
      const size = Number(res.headers.get('Content-Length') ?? 0) || manifest[names[i]]?.size || 0;
      const chunks: Uint8Array[] = [];
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        loaded[i] += value.length;
        if (performance.now() - last > 100) {
          last = performance.now();
          report();
        }
      }
      let bytes: Uint8Array;
      if (chunks.length === 1) bytes = chunks[0];
      else {
        bytes = new Uint8Array(loaded[i]);
        let at = 0;
        for (const c of chunks) {
          bytes.set(c, at);
          at += c.length;
        }
      }
      if (size && bytes.length !== size && !res.headers.get('Content-Encoding')) {
        throw new Error(`${names[i]}: got ${bytes.length} bytes of ${size}`);
      }
      if (cache) {
        const type = names[i].endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
        // Old versions of the same file go; the new one stays for the next load.
        for (const key of await cache.keys()) {
          const k = new URL(key.url);
          if (k.pathname === new URL(url).pathname && key.url !== url) await cache.delete(key);
        }
        await cache
          .put(url, new Response(bytes.slice(), { headers: { 'Content-Type': type, 'Content-Length': String(bytes.length) } }))
          .catch((e) => console.warn('loom: could not cache', names[i], e));
      }
      report();
      return bytes;
    }),
  );
  return out;
}

/** Waits for the workspace's lock (another tab may hold it) and keeps it while the worker lives. */
async function takeLock(): Promise<void> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  if (!locks) {
    console.warn('loom: the Web Locks API is missing; two tabs could open the workspace at once');
    return;
  }
  return new Promise<void>((resolve) => {
    let got = false;
    void locks.request(LOCK, { ifAvailable: true }, (lock) => {
      if (!lock) return undefined;
      got = true;
      resolve();
      return new Promise<void>(() => {}); // held until the tab goes
    }).then(() => {
      if (got) return;
      waitingForLock = true;
      boot({ phase: 'waiting', loaded: 0, total: 0 });
      void locks.request(LOCK, () => {
        waitingForLock = false;
        resolve();
        return new Promise<void>(() => {});
      });
    });
  });
}

async function start(base: string, ollamaURL: string, origin: string) {
  try {
    if (typeof WebAssembly !== 'object') throw new Error('This browser cannot run WebAssembly, which Loom’s engine needs.');
    // Open the storage first: without it nothing would be kept.
    let db: IDBDatabase;
    try {
      db = await openDatabase(DATABASE);
    } catch (e) {
      throw new Error(
        `The browser’s storage (IndexedDB) is not available, so Loom could not keep a workspace here (${e instanceof Error ? e.message : e}). Private windows and some privacy settings turn it off.`,
      );
    }
    // Fetch while waiting for another tab, if there is one.
    await readManifest(base);
    const assets = fetchAssets(base, ['loom.wasm', 'offline.bin']);
    await takeLock();
    const [wasm, table] = await assets;

    const tDownloaded = performance.now();
    boot({ phase: 'restore', loaded: 0, total: 0 });
    persist = new Persist(db, memfs, WORKSPACE_ROOT);
    const restored = await persist.restore();
    boot({ phase: 'restore', loaded: restored.files, total: restored.files });

    boot({ phase: 'start', loaded: 0, total: 0 });
    await import(/* @vite-ignore */ assetURL(base, 'wasm_exec.js'));
    const go = new g.Go();
    go.argv = ['loom-web'];
    go.env = { HOME: WORKSPACE_ROOT, TMPDIR: '/tmp' };
    const ready = new Promise<void>((resolve) => (g.loomReady = resolve));
    g.loomEmit = (event, data) => post({ type: 'event', event, data });
    const tRestored = performance.now();
    const { instance } = await WebAssembly.instantiate(wasm as Uint8Array<ArrayBuffer>, go.importObject);
    const tCompiled = performance.now();
    const exited = go.run(instance).then(() => {
      engineError = `The engine stopped.${stderrTail.length ? ` Its last words: ${stderrTail.slice(-8).join('\n')}` : ''}`;
      boot({ phase: 'failed', loaded: 0, total: 0, error: engineError });
      rejectExited(new Error(engineError));
    });
    await Promise.race([ready, exited]);
    if (engineError) throw new Error(engineError);
    await g.loomInit!(table, ollamaURL, origin).catch((e) => {
      throw new Error(typeof e === 'string' ? (JSON.parse(e).message ?? e) : String(e));
    });
    resolveStarted();
    const t = performance.now();
    console.log(
      `loom: engine ready in ${Math.round(t - started)} ms (fetch ${Math.round(tDownloaded - started)}, restore ${Math.round(tRestored - tDownloaded)} ms for ${restored.files} files, compile ${Math.round(tCompiled - tRestored)}, start and open ${Math.round(t - tCompiled)})`,
    );
    boot({ phase: 'ready', loaded: 0, total: 0 });
    scheduleFlush(); // the folders the engine made on opening
    // The engine also writes outside calls (query-side changes 2 s after a
    // query, background work after open): look for changes every second
    // (a walk of the file tree; nothing is written when nothing changed).
    setInterval(() => void flush(), 1000);
  } catch (e) {
    engineError = e instanceof Error ? e.message : String(e);
    boot({ phase: 'failed', loaded: 0, total: 0, error: engineError });
    resolveStarted();
  }
}

function failure(message: string, detail?: string): string {
  const r: Rejection = { code: 'workspace_unavailable', message, detail };
  return JSON.stringify(r);
}

async function call(id: number, method: string, args: string) {
  await engineStarted;
  if (engineError || !g.loomCall) {
    post({ type: 'result', id, ok: false, error: failure('Loom’s engine did not start in this page.', engineError ?? undefined) });
    return;
  }
  let reply: FromWorker;
  try {
    reply = { type: 'result', id, ok: true, json: await Promise.race([g.loomCall(method, args), engineExited]) };
  } catch (e) {
    reply = {
      type: 'result',
      id,
      ok: false,
      error: typeof e === 'string' ? e : failure(engineError ?? 'Something went wrong inside Loom.', String(e)),
    };
  }
  if (WRITES.has(method)) await flush();
  else scheduleFlush();
  post(reply);
}

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  switch (m.type) {
    case 'init':
      setSiteBase(m.base);
      configureCode(
        new URL('grammars/', m.base).href,
        () => new URL(treeSitterRuntime, self.location.href).href,
        (language, phase) => {
          const name = (LANGUAGE_NAMES as Record<string, string>)[language] ?? language;
          post({ type: 'event', event: 'grammar:fetch', data: JSON.stringify({ language, name, phase }) });
        },
      );
      void start(m.base, m.ollamaURL, m.origin);
      break;
    case 'call':
      void call(m.id, m.method, m.args);
      break;
    case 'ollama':
      void engineStarted.then(() => g.loomSetOllama?.(m.url));
      break;
    case 'flush':
      void flush().then(() => post({ type: 'flushed', id: m.id }));
      break;
  }
};
