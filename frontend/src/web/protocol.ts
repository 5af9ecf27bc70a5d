// Messages between the page (bridge/web.ts) and the engine's worker
// (web/worker.ts).

/** Where the engine's start has got to. */
export type BootPhase =
  /** Another tab has the workspace; this one waits for it to let go. */
  | 'waiting'
  /** Fetching loom.wasm and the embedding table (bytes in loaded/total). */
  | 'download'
  /** Reading the workspace's files from the browser's storage. */
  | 'restore'
  /** Compiling and starting the engine, opening the workspace. */
  | 'start'
  | 'ready'
  | 'failed';

export interface BootState {
  phase: BootPhase;
  /** Bytes fetched so far (download), or files restored (restore). */
  loaded: number;
  total: number;
  /** True when the downloads came from the browser's cache. */
  cached?: boolean;
  /** What went wrong (failed), written for the person. */
  error?: string;
  /** Milliseconds since the worker started, at this state. */
  ms?: number;
}

export type ToWorker =
  | { type: 'init'; base: string; ollamaURL: string; origin: string }
  | { type: 'call'; id: number; method: string; args: string }
  | { type: 'ollama'; url: string }
  | { type: 'flush'; id?: number };

export type FromWorker =
  | { type: 'boot'; state: BootState }
  | { type: 'result'; id: number; ok: true; json: string }
  | { type: 'result'; id: number; ok: false; error: string }
  | { type: 'event'; event: string; data: string }
  | { type: 'flushed'; id?: number };
