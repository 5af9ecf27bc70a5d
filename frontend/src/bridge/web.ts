// The web edition's Workbench: the engine runs in a worker
// (../web/worker.ts) and every method is a message to it. Events come back
// as messages too; the clipboard and downloads are the page's own.
import type { BootState, FromWorker, ToWorker } from '../web/protocol';
import type {
  ChatDelta,
  ChatTurn,
  Checkup,
  CollectionInfo,
  Conversation,
  ConversationSummary,
  DocumentInfo,
  GraphData,
  IngestProgress,
  IngestReport,
  NodeDetail,
  OllamaStatus,
  QueryResult,
  RepairReport,
  WaitNotice,
} from './types';
import {
  statsFromGo,
  toWorkbenchError,
  workspaceFromGo,
  WorkbenchError,
  type GoStats,
  type GoWorkspaceState,
  type Workbench,
} from './workbench';

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
  const listeners = new Map<string, Set<(data: unknown) => void>>();
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
      for (const [, p] of pending) p.reject(JSON.stringify({ code: 'workspace_unavailable', message: 'Loom’s engine stopped.' }));
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

  async function call<T>(method: string, ...args: unknown[]): Promise<T> {
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
    return (json === '' || json === undefined ? undefined : JSON.parse(json)) as T;
  }

  function on<T>(event: string, cb: (data: T) => void): () => void {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    const f = cb as (data: unknown) => void;
    set.add(f);
    return () => set.delete(f);
  }

  start();

  const wb: WebWorkbench = {
    edition: 'web',
    workspaceDir: () => call<string>('WorkspaceDir'),
    stats: async () => statsFromGo(await call<GoStats>('Stats')),
    workspace: async () => workspaceFromGo(await call<GoWorkspaceState>('Workspace')),
    reopen: async () => workspaceFromGo(await call<GoWorkspaceState>('Reopen')),
    checkWorkspace: () => call<Checkup>('CheckWorkspace'),
    // The repair writes the workspace's folders: keep them in the
    // browser's storage at once rather than at the next save.
    repairWorkspace: async () => {
      const report = await call<RepairReport>('RepairWorkspace');
      await wb.flush();
      return report;
    },

    documents: () => call<DocumentInfo[]>('Documents'),
    collections: () => call<CollectionInfo[]>('Collections'),
    ingestPaths: () =>
      Promise.reject(new WorkbenchError('bad_request', 'The web edition reads files through the page: drop them or use Add files…')),
    ingestUploads: (files) => call<IngestReport>('IngestUploads', files),
    ingestSample: () => call<IngestReport>('IngestSample'),
    cancelIngest: () => call<void>('CancelIngest'),
    onIngestProgress: (cb) => on<IngestProgress>('ingest:progress', cb),
    onFileDrop: () => () => {},
    pickFiles: async () => [],
    removeDocument: (id) => call<void>('RemoveDocument', id),
    reingestDocument: (id) => call<IngestReport>('ReingestDocument', id),
    pin: (ids, pinned) => call<void>('Pin', ids, pinned),

    graph: () => call<GraphData>('Graph'),
    node: (id) => call<NodeDetail>('Node', id),

    query: async (req) => {
      const v = await call<{ result: Omit<QueryResult, 'concept_hops'>; concept_hops?: Record<string, number> }>('Query', req);
      return { ...v.result, concept_hops: v.concept_hops ?? {} };
    },
    onOllamaWait: (cb) => on<WaitNotice>('ollama:wait', cb),

    ollama: () => call<OllamaStatus>('Ollama'),
    chat: (req, stream) => call<ChatTurn>('Chat', req, stream),
    onChatDelta: (cb) => on<ChatDelta>('chat:delta', cb),
    cancelChat: (stream) => call<void>('CancelChat', stream),
    conversations: () => call<ConversationSummary[]>('Conversations'),
    conversation: (id) => call<Conversation>('Conversation', id),

    copyText: async (text) => {
      if (!navigator.clipboard) throw new WorkbenchError('internal', 'This page may not use the clipboard (it needs https or localhost).');
      await navigator.clipboard.writeText(text).catch((e: unknown) => {
        throw new WorkbenchError('internal', 'The browser did not let Loom put the prompt on the clipboard.', String(e));
      });
    },
    saveMarkdown: async (name, text) => {
      const file = /\.md$/i.test(name) ? name : `${name || 'loom-prompt'}.md`;
      downloadText(file, text, 'text/markdown');
      return file;
    },

    exportWorkspace: () => call<string>('ExportWorkspace'),
    importWorkspace: async (text) => statsFromGo(await call<GoStats>('ImportWorkspace', text)),
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
