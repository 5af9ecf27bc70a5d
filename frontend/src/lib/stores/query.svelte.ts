// The question, its settings and the assembled context. Moving the budget
// re-runs the query live (debounced); only the latest answer is applied, and
// the nodes that entered or left the loaded set since the previous answer are
// kept so the page can show them.
import { toWorkbenchError, WorkbenchError, type QueryResult, type Workbench } from '../../bridge/workbench';
import { Levels, Purposes, type Level, type Purpose, type QueryRequest } from '../../bridge/types';
import type { OllamaStore } from './ollama.svelte';

/** The purposes a question can have, as the engine declares them. */
export const purposes: readonly Purpose[] = Purposes;
/** The levels a question can ask for: adaptive first, and not chunks, which the engine picks for an oversized node itself. */
export const levels: readonly Level[] = ['adaptive', ...Levels.filter((l) => l !== 'adaptive' && l !== 'chunks')];

/** The budget slider's range, in tokens of context. */
export const minBudget = 256;
export const defaultMaxBudget = 32768;

const emptySet: ReadonlySet<string> = new Set();

export class QueryStore {
  question = $state('');
  /** Tokens for context (manifest + catalog + nodes). */
  budget = $state(4096);
  purpose: Purpose = $state('answer');
  level: Level = $state('adaptive');
  /** A collection, or "" for all. */
  scope = $state('');

  result: QueryResult | null = $state.raw(null);
  /** The latest request is in flight. */
  running = $state(false);
  error: WorkbenchError | null = $state(null);
  /** Loaded now but not in the previous answer to the same question. */
  entered: ReadonlySet<string> = $state.raw(emptySet);
  /** Loaded in the previous answer to the same question but not now. */
  left: ReadonlySet<string> = $state.raw(emptySet);
  /** While a question naming a model waits for a silent Ollama: the engine's sentence. */
  waiting: string | null = $state(null);

  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly debounceMs: number;

  constructor(
    private readonly workbench: Workbench,
    private readonly ollama?: OllamaStore,
    opts: { debounceMs?: number } = {},
  ) {
    this.debounceMs = opts.debounceMs ?? 150;
  }

  /**
   * The slider's upper end, as the engine says: with a model, the most
   * context its window holds (the model's max_budget); else what the last
   * answer's limits say, and 32k before any.
   */
  get maxBudget(): number {
    const model = this.ollama?.selected;
    const max = model ? model.max_budget : (this.result?.limits.max_budget ?? defaultMaxBudget);
    return Math.max(minBudget, max);
  }

  /** Listens for Ollama's silences while a question runs; returns the unsubscribe. */
  start(): () => void {
    return this.workbench.onOllamaWait((n) => {
      if (this.running) this.waiting = n.message;
    });
  }

  /** What run() sends. */
  request(): QueryRequest {
    const req: QueryRequest = {
      question: this.question.trim(),
      budget: Math.round(this.budget),
      purpose: this.purpose,
      level: this.level,
    };
    const model = this.ollama?.selected;
    if (model) {
      req.model = model.name;
      req.window = model.context_length;
    }
    if (this.scope) req.scope = this.scope;
    return req;
  }

  /** Runs now (and drops a pending debounced run). */
  async run(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const req = this.request();
    if (req.question === '') {
      this.error = new WorkbenchError('invalid', 'Type a question first.');
      return;
    }
    if (!Number.isFinite(this.budget) || this.budget <= 0) {
      this.error = new WorkbenchError('invalid', 'The budget must be a positive number of tokens.');
      return;
    }
    const seq = ++this.seq;
    this.running = true;
    try {
      const result = await this.workbench.query(req);
      if (seq !== this.seq) return;
      this.apply(result);
      this.error = null;
    } catch (reason) {
      if (seq !== this.seq) return;
      this.error = toWorkbenchError(reason);
    } finally {
      if (seq === this.seq) {
        this.running = false;
        this.waiting = null;
      }
    }
  }

  /** Runs after the person stops moving things for a moment (slider, pickers). */
  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, this.debounceMs);
  }

  /** Sets the budget; re-runs live when there is already an answer to compare with. */
  setBudget(tokens: number): void {
    this.budget = Math.max(1, Math.round(tokens));
    if (this.result && this.question.trim() !== '') this.schedule();
  }

  /** Re-runs live after a setting changed, when there is an answer on screen. */
  settingsChanged(): void {
    if (this.result && this.question.trim() !== '') this.schedule();
  }

  private apply(result: QueryResult) {
    const previous = this.result;
    const now = new Set(result.candidates.filter((c) => c.loaded).map((c) => c.id));
    if (previous && previous.question === result.question) {
      const before = new Set(previous.candidates.filter((c) => c.loaded).map((c) => c.id));
      this.entered = new Set([...now].filter((id) => !before.has(id)));
      this.left = new Set([...before].filter((id) => !now.has(id)));
    } else {
      this.entered = emptySet;
      this.left = emptySet;
    }
    this.result = result;
  }

  /** Stops a pending debounced run (the page is going away). */
  dispose(): void {
    clearTimeout(this.timer);
  }
}
