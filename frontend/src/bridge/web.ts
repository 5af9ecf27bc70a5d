// The web edition's Workbench: the engine runs in a worker
// (../web/worker.ts) and every method is a message to it, by the name of
// bind.App's method (cmd/loom-web dispatches it). Events come back as
// messages too; the clipboard and downloads are the page's own. Calls and
// events are typed by App and Events (./types.ts, generated from the Go
// types), as the desktop's are.
import type { BootState, FromWorker, ToWorker } from '../web/protocol';
import type { App, Events, Rejection } from './types';
import { toWorkbenchError, WorkbenchError, type GrammarFetch, type Workbench } from './workbench';

/** The engine's events, and the one the worker sends of its own: a grammar it fetches. */
type PageEvents = Events & { 'grammar:fetch': GrammarFetch };

export type { BootState, BootPhase } from '../web/protocol';

export const OLLAMA_URL_KEY = 'loom.ollamaURL';
export const DEFAULT_OLLAMA_URL = 'http://127.0.0.1:11434';

/** The Ollama URL the person set in this browser, or the default. */
export function storedOllamaURL(): string {
  try {
    return localStorage.getItem(OLLAMA_URL_KEY) || DEFAULT_OLLAMA_URL;
  } catch {
    return DEFAULT_OLLAMA_URL;
  }
}

/** Saves text as a file through the browser's download. */
export function downloadText(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Why this browser cannot run the web edition, or null when it can. */
export function unsupported(needWorker = true): string | null {
  if (typeof WebAssembly !== 'object') return 'This browser cannot run WebAssembly, which Loom’s engine needs. Use a current Chrome, Edge, Firefox or Safari.';
  if (needWorker && typeof Worker === 'undefined') return 'This browser cannot run Web Workers, which Loom’s engine runs in.';
  if (typeof indexedDB === 'undefined')
    return 'The browser’s storage (IndexedDB) is not available, so Loom could not keep a workspace here. Private windows and some privacy settings turn it off.';
  return null;
}

export interface WebWorkbench extends Workbench {
  /** Asks the worker to save the workspace now; resolves once saved. */
  flush(): Promise<void>;
}

/**
 * Starts the engine's worker and returns the Workbench over it. `base` is
 * where loom.wasm, offline.bin and wasm_exec.js are (default: the page's
 * folder, so the site works from any path).
 */
export function createWebWorkbench(opts: { base?: string; worker?: () => Worker } = {}): WebWorkbench {
  let boot: BootState = { phase: 'download', loaded: 0, total: 0 };
  const bootListeners = new Set<(s: BootState) => void>();
  const listeners = new Map<string, Set<(data: ReturnType<typeof JSON.parse>) => void>>();
  const pending = new Map<number, { resolve: (json: string) => void; reject: (e: unknown) => void }>();
  const flushes = new Map<number, () => void>();
  let nextId = 1;
  let worker: Worker | null = null;

  function setBoot(s: BootState) {
    boot = s;
    for (const cb of bootListeners) cb(s);
  }

  function send(m: ToWorker) {
    worker?.postMessage(m);
  }

  function start() {
    const why = unsupported(!opts.worker);
    if (why) {
      setBoot({ phase: 'failed', loaded: 0, total: 0, error: why });
      return;
    }
    try {
      worker = opts.worker ? opts.worker() : new Worker(new URL('../web/worker.ts', import.meta.url), { type: 'module', name: 'loom-engine' });
    } catch (e) {
      setBoot({ phase: 'failed', loaded: 0, total: 0, error: `The engine’s worker did not start: ${e instanceof Error ? e.message : e}` });
      return;
    }
    worker.onmessage = (e: MessageEvent<FromWorker>) => {
      const m = e.data;
      switch (m.type) {
        case 'boot':
          setBoot(m.state);
          break;
        case 'result': {
          const p = pending.get(m.id);
          pending.delete(m.id);
          if (!p) break;
          if (m.ok) p.resolve(m.json);
          else p.reject(m.error);
          break;
        }
        case 'event': {
          const set = listeners.get(m.event);
          if (!set?.size) break;
          const data = JSON.parse(m.data);
          for (const cb of set) cb(data);
          break;
        }
        case 'flushed':
          if (m.id !== undefined) {
            flushes.get(m.id)?.();
            flushes.delete(m.id);
          }
          break;
      }
    };
    worker.onerror = (e) => {
      setBoot({ phase: 'failed', loaded: 0, total: 0, error: `The engine’s worker failed: ${e.message || 'it could not be loaded'}` });
      const stopped: Rejection = { code: 'workspace_unavailable', message: 'Loom’s engine stopped.' };
      for (const [, p] of pending) p.reject(stopped);
      pending.clear();
    };
    const base = opts.base ?? new URL('.', document.baseURI).href;
    send({ type: 'init', base, ollamaURL: storedOllamaURL(), origin: location.origin });
    // Keep what was written when the page goes away or out of sight.
    const save = () => send({ type: 'flush' });
    addEventListener('pagehide', save);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') save();
    });
    void navigator.storage?.persist?.().catch(() => false);
  }

  /**
   * Calls the engine's method by name. What it resolves with is what App
   * says the method returns — App is generated from the Go method — so the
   * engine's JSON is taken as that type here, and only here.
   */
  async function call<K extends keyof App>(method: K, ...args: Parameters<App[K]>): Promise<Awaited<ReturnType<App[K]>>> {
    if (!worker) {
      throw new WorkbenchError('workspace_unavailable', boot.error ?? 'Loom’s engine did not start in this page.');
    }
    const id = nextId++;
    const json = await new Promise<string>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      send({ type: 'call', id, method, args: JSON.stringify(args) });
    }).catch((reason: unknown) => {
      let parsed: unknown = reason;
      if (typeof reason === 'string') {
        try {
          parsed = JSON.parse(reason);
        } catch {
          // a plain message
        }
      }
      throw toWorkbenchError(parsed);
    });
    return JSON.parse(json || 'null');
  }

  function on<K extends keyof PageEvents>(event: K, cb: (data: PageEvents[K]) => void): () => void {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    // The worker relays the engine's events by name; the JSON under a name
    // is the payload Events gives it (generated from bind.EventPayloads),
    // or the worker's own (grammar:fetch).
    const f = (data: ReturnType<typeof JSON.parse>) => cb(data);
    set.add(f);
    return () => set.delete(f);
  }

  start();

  const wb: WebWorkbench = {
    edition: 'web',
    workspaceDir: () => call('WorkspaceDir'),
    stats: () => call('Stats'),
    workspace: () => call('Workspace'),
    reopen: () => call('Reopen'),
    checkWorkspace: () => call('CheckWorkspace'),
    // The repair writes the workspace's folders: keep them in the
    // browser's storage at once rather than at the next save.
    repairWorkspace: async () => {
      const report = await call('RepairWorkspace');
      await wb.flush();
      return report;
    },

    documents: () => call('Documents'),
    collections: () => call('Collections'),
    ingestPaths: () =>
      Promise.reject(new WorkbenchError('invalid', 'The web edition reads files through the page: drop them or use Add files…')),
    ingestUploads: (files) => call('IngestUploads', files),
    ingestSample: () => call('IngestSample'),
    cancelIngest: () => call('CancelIngest'),
    onIngestProgress: (cb) => on('ingest:progress', cb),
    onGrammarFetch: (cb) => on('grammar:fetch', cb),
    onFileDrop: () => () => {},
    pickFiles: async () => [],
    removeDocument: (id) => call('RemoveDocument', id),
    reingestDocument: (id) => call('ReingestDocument', id),
    pin: (ids, pinned) => call('Pin', ids, pinned),

    graph: () => call('Graph'),
    node: (id) => call('Node', id),
    // The sources are the page's own files: no system viewer here.
    openSource: (id) => call('OpenSource', id),

    query: (req) => call('Query', req),
    onOllamaWait: (cb) => on('ollama:wait', cb),

    ollama: () => call('Ollama'),
    reembed: (target) => call('Reembed', target),
    cancelReembed: () => call('CancelReembed'),
    onReembedProgress: (cb) => on('reembed:progress', cb),
    chat: (args, stream) => call('Chat', args, stream),
    onChatDelta: (cb) => on('chat:delta', cb),
    cancelChat: (stream) => call('CancelChat', stream),
    conversations: () => call('Conversations'),
    conversation: (id) => call('Conversation', id),

    copyText: async (text) => {
      if (!navigator.clipboard) throw new WorkbenchError('shell_failed', 'This page may not use the clipboard (it needs https or localhost).');
      await navigator.clipboard.writeText(text).catch((e: unknown) => {
        throw new WorkbenchError('shell_failed', 'The browser did not let Loom put the prompt on the clipboard.', String(e));
      });
    },
    saveMarkdown: async (name, text) => {
      const file = /\.md$/i.test(name) ? name : `${name || 'loom-prompt'}.md`;
      downloadText(file, text, 'text/markdown');
      return file;
    },

    exportWorkspace: () => call('ExportWorkspace'),
    importWorkspace: (text) => call('ImportWorkspace', text),
    onBoot: (cb) => {
      bootListeners.add(cb);
      cb(boot);
      return () => bootListeners.delete(cb);
    },
    setOllamaURL: (url) => {
      const u = url.trim() || DEFAULT_OLLAMA_URL;
      try {
        if (u === DEFAULT_OLLAMA_URL) localStorage.removeItem(OLLAMA_URL_KEY);
        else localStorage.setItem(OLLAMA_URL_KEY, u);
      } catch {
        // not kept, but used for this page
      }
      send({ type: 'ollama', url: u });
    },
    ollamaURL: () => storedOllamaURL(),
    flush: () =>
      new Promise<void>((resolve) => {
        if (!worker) return resolve();
        const id = nextId++;
        flushes.set(id, resolve);
        send({ type: 'flush', id });
      }),
  };
  // A handle for the console and the benchmark (frontend/e2e/web-bench.mjs):
  // loomWorkbench.query({question, budget}) and so on.
  if (typeof window !== 'undefined' && !opts.worker) (window as unknown as { loomWorkbench?: WebWorkbench }).loomWorkbench = wb;
  return wb;
}
