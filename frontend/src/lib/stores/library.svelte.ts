// The library: documents and collections, workspace counts, the graph, and
// the ingest in progress with each file's state.
import { toWorkbenchError, WorkbenchError, type GrammarFetch, type Stats, type Workbench } from '../../bridge/workbench';
import type {
  CollectionInfo,
  DocumentInfo,
  FileProgress,
  GraphData,
  IngestProgress,
  IngestResult,
  Upload,
} from '../../bridge/types';
import { readableSummary, type ReadFiles } from '../upload';
import { writeFailure } from '../errors';

/** Documents of one collection with their sums. */
export interface DocumentGroup {
  name: string;
  documents: DocumentInfo[];
  sections: number;
  tokens: number;
}

export type DocumentAction = 'removing' | 'reingesting' | 'pinning';

export class LibraryStore {
  documents: DocumentInfo[] = $state([]);
  collections: CollectionInfo[] = $state([]);
  stats: Stats | null = $state(null);
  graph: GraphData | null = $state.raw(null);
  /** The grammar the web edition is fetching, or null. */
  fetchingGrammar: GrammarFetch | null = $state(null);
  /** A refresh is running / the first refresh has answered. */
  refreshing = $state(false);
  loaded = $state(false);
  /** The last refresh failed (some of what is shown may be old). */
  error: WorkbenchError | null = $state(null);
  /** The last document action (remove, re-ingest, pin) failed. */
  actionError: WorkbenchError | null = $state(null);

  /** The ingest's progress (kept after it finishes, until the next one). */
  progress: IngestProgress | null = $state(null);
  ingesting = $state(false);
  cancelling = $state(false);
  report: IngestResult | null = $state(null);
  ingestError: WorkbenchError | null = $state(null);
  /** Files the page left out before sending (wrong type, unreadable). */
  skipped: FileProgress[] = $state([]);
  /** Folders of the last ingest watched from its offer (WatchFolder), and the offer's last failure. */
  watchedFromOffer: string[] = $state([]);
  watchOfferError: WorkbenchError | null = $state(null);
  /** Document actions under way, by document id. */
  busy: Record<string, DocumentAction> = $state({});
  /** An ingest call of this page's own is running. */
  private calling = false;
  /** Ingest jobs whose call has returned (their late events are ignored). */
  private endedJobs = new Set<string>();

  /** Called after every refresh that follows a change (ingest, remove, re-ingest, pin). */
  onchange: (() => void) | undefined;

  private refreshSeq = 0;
  private lastNativeDrop = -Infinity;

  constructor(
    private readonly workbench: Workbench,
    private readonly opts: {
      nativeDropWaitMs?: number;
      /** Why writes are off (the workspace is read-only), or null; read at every write. */
      locked?: () => string | null;
      /** A write found the workspace read-only although locked said nothing: read the workspace again. */
      onReadOnly?: () => void;
    } = {},
  ) {}

  /** Why nothing can be added or changed (the workspace is open read-only), or null. */
  get locked(): string | null {
    return this.opts.locked?.() ?? null;
  }

  /** Documents grouped by collection, in name order. */
  groups: DocumentGroup[] = $derived.by(() => {
    const by = new Map<string, DocumentGroup>();
    for (const d of this.documents) {
      const name = d.collection || '(no collection)';
      const g = by.get(name) ?? { name, documents: [], sections: 0, tokens: 0 };
      g.documents.push(d);
      g.sections += d.nodes;
      g.tokens += d.tokens;
      by.set(name, g);
    }
    return [...by.values()].sort((a, b) => a.name.localeCompare(b.name));
  });

  /** What the documents hold together: their sections and tokens (the workspace's own counts also hold the summaries and answers made while answering). */
  held: { sections: number; tokens: number } = $derived.by(() =>
    this.groups.reduce((sum, g) => ({ sections: sum.sections + g.sections, tokens: sum.tokens + g.tokens }), { sections: 0, tokens: 0 }),
  );

  /** Every file of the last ingest: the engine's list (what it left out on purpose too), its report's errors, and what the page skipped. */
  files: FileProgress[] = $derived.by(() => {
    const files = [...(this.progress?.files ?? [])];
    const seen = new Set(files.map((f) => f.path));
    for (const e of this.report?.errors ?? []) {
      if (seen.has(e.path)) {
        const i = files.findIndex((f) => f.path === e.path);
        files[i] = { ...files[i], state: 'error', problem: files[i].problem ?? e.problem };
      } else {
        files.push({ path: e.path, state: 'error', problem: e.problem });
      }
    }
    return [...this.skipped, ...files];
  });

  /** Subscribes to ingest progress and native drops; returns the unsubscribe. */
  start(): () => void {
    const offProgress = this.workbench.onIngestProgress((p) => {
      // Events travel apart from call results: one of a job that has
      // already ended may still arrive, and must not reopen it.
      if (this.endedJobs.has(p.job)) {
        if (p.finished) this.progress = p;
        return;
      }
      const before = this.progress?.job === p.job ? (this.progress.written ?? 0) : 0;
      this.progress = p;
      if (!p.finished) this.ingesting = true;
      // A large drop is written in rounds: each is searchable at once, so
      // the documents, the counts and the graph show it at once.
      if (!p.finished && (p.written ?? 0) > before) void this.refresh();
      // The end of an ingest this page did not start (the page was
      // reloaded while the engine went on): no call returns to end it, so
      // its last event does. The page's own ingest ends when its call does.
      if (p.finished && !this.calling) {
        this.endedJobs.add(p.job);
        this.ingesting = false;
        void this.changed();
      }
    });
    // The web edition fetches a language's grammar the first time a file
    // of it arrives: the panel says so while it takes.
    const offGrammar =
      this.workbench.onGrammarFetch?.((f) => {
        this.fetchingGrammar = f.phase === 'start' ? f : this.fetchingGrammar?.language === f.language ? null : this.fetchingGrammar;
      }) ?? (() => {});
    const offDrop = this.workbench.onFileDrop((paths) => {
      this.lastNativeDrop = Date.now();
      void this.ingestPaths(paths);
    });
    return () => {
      offProgress();
      offGrammar();
      offDrop();
    };
  }

  /** Reads documents, collections, counts and the graph again. */
  async refresh(): Promise<void> {
    const seq = ++this.refreshSeq;
    this.refreshing = true;
    const [documents, collections, stats, graph] = await Promise.allSettled([
      this.workbench.documents(),
      this.workbench.collections(),
      this.workbench.stats(),
      this.workbench.graph(),
    ]);
    if (seq !== this.refreshSeq) return;
    if (documents.status === 'fulfilled') this.documents = documents.value;
    if (collections.status === 'fulfilled') this.collections = collections.value;
    if (stats.status === 'fulfilled') this.stats = stats.value;
    if (graph.status === 'fulfilled') this.graph = graph.value;
    const failed = [documents, collections, stats, graph].find((r) => r.status === 'rejected');
    this.error = failed ? toWorkbenchError((failed as PromiseRejectedResult).reason) : null;
    this.refreshing = false;
    this.loaded = true;
  }

  private async changed(): Promise<void> {
    await this.refresh();
    this.onchange?.();
  }

  /** Runs one ingest: progress from events, the report at the end, then a refresh. */
  private async ingest(start: () => Promise<IngestResult>, skipped: FileProgress[] = []): Promise<IngestResult | null> {
    const locked = this.locked;
    if (locked) {
      // The buttons are off; this is a drop or a shortcut that got through.
      this.ingestError = new WorkbenchError('read_only', locked);
      return null;
    }
    if (this.ingesting) {
      this.ingestError = new WorkbenchError('busy', 'An ingest is already running: wait for it to finish, or cancel it.');
      return null;
    }
    this.ingesting = true;
    this.calling = true;
    this.cancelling = false;
    this.progress = null;
    this.report = null;
    this.ingestError = null;
    this.watchedFromOffer = [];
    this.watchOfferError = null;
    this.skipped = skipped;
    try {
      const report = await start();
      if (report.job) this.endedJobs.add(report.job);
      const seen = this.progress as IngestProgress | null; // set by events meanwhile
      if (seen?.job) this.endedJobs.add(seen.job);
      this.report = report;
      this.finishProgress(report);
      return report;
    } catch (reason) {
      this.ingestError = this.writeFailed(reason);
      const p = this.progress as IngestProgress | null;
      if (p?.job) this.endedJobs.add(p.job);
      if (p) this.progress = { ...p, finished: true, current: '' };
      return null;
    } finally {
      this.ingesting = false;
      this.calling = false;
      this.cancelling = false;
      await this.changed();
    }
  }

  /** Makes the kept progress say the ingest ended, even when no event said so. */
  private finishProgress(report: IngestResult) {
    const p = this.progress;
    if (p && p.finished) return;
    this.progress = {
      job: p?.job ?? '',
      files_done: p ? Math.max(p.files_done, report.files - (report.canceled ? p.files_total - p.files_done : 0)) : report.files,
      files_total: p?.files_total ?? report.files,
      bytes_done: p?.bytes_done ?? report.bytes,
      bytes_total: p?.bytes_total ?? report.bytes,
      current: '',
      sections_embedded: 0,
      sections_to_embed: 0,
      files: p?.files ?? [],
      finished: true,
      canceled: report.canceled,
    };
  }

  ingestUploads(uploads: Upload[], skipped: FileProgress[] = []): Promise<IngestResult | null> {
    if (uploads.length === 0) {
      this.skipped = skipped;
      this.progress = null;
      this.report = null;
      this.ingestError = new WorkbenchError(
        'invalid',
        skipped.length ? `None of those files can be read: Loom reads ${readableSummary}.` : 'There were no files to ingest.',
      );
      return Promise.resolve(null);
    }
    return this.ingest(() => this.workbench.ingestUploads(uploads), skipped);
  }

  /** The sample library the empty library offers, ingested like any upload. */
  ingestSample(): Promise<IngestResult | null> {
    return this.ingest(() => this.workbench.ingestSample());
  }

  ingestPaths(paths: string[]): Promise<IngestResult | null> {
    if (paths.length === 0) return Promise.resolve(null);
    return this.ingest(() => this.workbench.ingestPaths(paths));
  }

  /**
   * Files dropped on the page (HTML5). On the desktop the same drop also
   * arrives natively with real paths (better: the engine reads the files
   * itself and keeps their folders), so the HTML5 copy is used only when no
   * native drop came.
   */
  async dropped(read: Promise<ReadFiles>): Promise<IngestResult | null> {
    const at = Date.now();
    if (this.workbench.edition === 'desktop') {
      if (at - this.lastNativeDrop < 1500) return null;
      const files = await read;
      await new Promise((resolve) => setTimeout(resolve, this.opts.nativeDropWaitMs ?? 300));
      if (this.lastNativeDrop >= at) return null;
      return this.ingestUploads(files.uploads, files.skipped);
    }
    const files = await read;
    return this.ingestUploads(files.uploads, files.skipped);
  }

  /** The desktop's file dialog; the web edition's page opens its file input instead. */
  async pickFiles(): Promise<IngestResult | null> {
    try {
      const paths = await this.workbench.pickFiles();
      return await this.ingestPaths(paths);
    } catch (reason) {
      this.ingestError = toWorkbenchError(reason);
      return null;
    }
  }

  /**
   * Watches a folder the last ingest offered (a dropped or picked folder,
   * IngestResult.watchable), as Add folder… does: the engine syncs it now
   * and whenever its files change; its state comes as watch:state events.
   */
  async watchOffered(path: string): Promise<boolean> {
    const locked = this.locked;
    if (locked) {
      this.watchOfferError = new WorkbenchError('read_only', locked);
      return false;
    }
    if (!this.workbench.watchFolder) return false;
    this.watchOfferError = null;
    try {
      await this.workbench.watchFolder(path);
      if (!this.watchedFromOffer.includes(path)) this.watchedFromOffer = [...this.watchedFromOffer, path];
      return true;
    } catch (reason) {
      this.watchOfferError = this.writeFailed(reason);
      return false;
    }
  }

  async cancelIngest(): Promise<void> {
    if (!this.ingesting) return;
    this.cancelling = true;
    try {
      await this.workbench.cancelIngest();
    } catch (reason) {
      this.ingestError = toWorkbenchError(reason);
      this.cancelling = false;
    }
  }

  /** Forgets the finished ingest's progress panel. */
  dismissIngest(): void {
    if (this.ingesting) return;
    this.progress = null;
    this.report = null;
    this.ingestError = null;
    this.watchedFromOffer = [];
    this.watchOfferError = null;
    this.skipped = [];
  }

  private async act(id: string, action: DocumentAction, run: () => Promise<unknown>): Promise<boolean> {
    const locked = this.locked;
    if (locked) {
      this.actionError = new WorkbenchError('read_only', locked);
      return false;
    }
    this.busy = { ...this.busy, [id]: action };
    try {
      await run();
      this.actionError = null;
      return true;
    } catch (reason) {
      this.actionError = this.writeFailed(reason);
      return false;
    } finally {
      const rest = { ...this.busy };
      delete rest[id];
      this.busy = rest;
      await this.changed();
    }
  }

  /** A write that failed, in the page's words; a read-only workspace is read again for its banner. */
  private writeFailed(reason: unknown): WorkbenchError {
    const err = writeFailure(toWorkbenchError(reason));
    if (err.code === 'read_only') this.opts.onReadOnly?.();
    return err;
  }

  removeDocument(id: string): Promise<boolean> {
    return this.act(id, 'removing', () => this.workbench.removeDocument(id));
  }

  reingestDocument(id: string): Promise<boolean> {
    return this.act(id, 'reingesting', async () => {
      const report = await this.workbench.reingestDocument(id);
      // The engine reports a file it could not read in the result, not as a
      // failed call: the same code as it gives such a file.
      if (report.errors.length) throw new WorkbenchError('bad_file', report.errors.map((e) => e.problem).join(' '));
    });
  }

  pin(id: string, pinned: boolean): Promise<boolean> {
    const doc = this.documents.find((d) => d.id === id);
    if (doc && !this.locked) doc.pinned = pinned; // shown at once; the refresh confirms
    return this.act(id, 'pinning', () => this.workbench.pin([id], pinned));
  }
}
