// The workspace's embedder: which one its vectors are made with, which
// embedding models the model server offers instead, and re-embedding with
// one of them (or the offline embedder): its progress, cancelling it, and
// what went wrong. A re-embed commits whole or not at all, so a cancelled
// or failed one leaves the workspace with the embedder it had. The desktop
// app also re-embeds on its own: a new workspace starts on the offline
// table and the full encoder re-embeds it in the background (automatic
// progress events); the store follows that one from its events.
import { toWorkbenchError, WorkbenchError, type Workbench } from '../../bridge/workbench';
import type { ModelInfo, ReembedProgress, ReembedReport, Stats } from '../../bridge/types';

/** The offline embedder as a re-embed's target. */
export const OFFLINE = 'offline';

/** The full MiniLM encoder as a re-embed's target. */
export const MINILM = 'minilm';

/** How a re-embed's target reads in a sentence. */
export function targetLabel(target: string): string {
  if (target === OFFLINE) return 'the offline embedder';
  if (target === MINILM) return 'the full MiniLM encoder';
  return target;
}

/** A re-embed the page offers: with a server's embedding model, the offline embedder or the full encoder. */
export interface ReembedOffer {
  /** What Reembed is asked with: the model's name, "offline" or "minilm". */
  target: string;
  /** What the button says after "Re-embed with". */
  label: string;
  /** The embedder ID the workspace will record (unknown for offline until done). */
  id?: string;
}

/**
 * The re-embeds to offer for a workspace: each embedding model the server
 * lists whose embedder is not the workspace's, the offline embedder when
 * the workspace's vectors are not its, and the full MiniLM encoder when
 * its weights are installed and the vectors are not its.
 */
export function reembedOffers(stats: Stats, models: ModelInfo[]): ReembedOffer[] {
  const current = stats.embedder || stats.embedder_in_use || '';
  const offers: ReembedOffer[] = models
    .filter((m) => m.embedding && m.embedder_id && m.embedder_id !== current)
    .map((m) => ({ target: m.name, label: m.name, id: m.embedder_id }));
  if (current && !current.startsWith('offline/') && stats.documents > 0) offers.push({ target: OFFLINE, label: targetLabel(OFFLINE) });
  if (stats.full_encoder && !current.startsWith('minilm/') && stats.documents > 0) offers.push({ target: MINILM, label: targetLabel(MINILM) });
  return offers;
}

export class EmbedderStore {
  /** The target being re-embedded with ('' when none runs). */
  running = $state('');
  progress: ReembedProgress | null = $state(null);
  /** The last re-embed that finished, and the last failure (not a cancel). */
  report: ReembedReport | null = $state(null);
  error: WorkbenchError | null = $state(null);
  /** The last re-embed was cancelled: the workspace kept its embedder. */
  cancelled = $state(false);
  /** The running re-embed is the engine's own, in the background (nobody asked for it here). */
  automatic = $state(false);
  /** Cancel was pressed on the background re-embed (it also stops, without that, for an ingest). */
  private declined = false;

  constructor(
    private readonly workbench: Workbench,
    /** Called once a re-embed has committed: the page reads the workspace again. */
    private readonly ondone: () => void = () => {},
  ) {}

  /** Listens to the engine's progress events; returns the stop function. */
  start(): () => void {
    return this.workbench.onReembedProgress((p) => {
      if (p.automatic) this.follow(p);
      else if (this.running && p.target === this.running) this.progress = p;
    });
  }

  /** Follows the engine's background re-embed: it runs, stops for an ingest (and starts again), is cancelled, fails or commits. */
  private follow(p: ReembedProgress) {
    if (!p.finished) {
      if (this.running && !this.automatic) return;
      if (!this.automatic) {
        this.error = null;
        this.cancelled = false;
        this.declined = false;
      }
      this.running = p.target;
      this.automatic = true;
      this.progress = p;
      return;
    }
    if (!this.automatic) return;
    this.running = '';
    this.automatic = false;
    this.progress = null;
    if (p.error) this.error = new WorkbenchError('internal', `The background re-embed with ${targetLabel(p.target)} failed: ${p.error}`);
    else if (p.canceled) this.cancelled = this.declined;
    else this.ondone();
    this.declined = false;
  }

  /** Re-embeds the workspace with target (a model's name, "offline" or "minilm"). */
  async reembed(target: string): Promise<void> {
    if (this.running) return;
    this.running = target;
    this.progress = null;
    this.error = null;
    this.cancelled = false;
    try {
      this.report = await this.workbench.reembed(target);
      this.ondone();
    } catch (reason) {
      const err = toWorkbenchError(reason);
      if (err.code === 'canceled') this.cancelled = true;
      else this.error = err;
    } finally {
      this.running = '';
    }
  }

  /** Stops the running re-embed (the background one for good: the workspace keeps the table). */
  async cancel(): Promise<void> {
    if (!this.running) return;
    if (this.automatic) this.declined = true;
    await this.workbench.cancelReembed();
  }
}
