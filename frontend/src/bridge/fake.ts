// An in-memory Workbench for Vitest only: it ingests uploads into fake
// documents, emits progress as it goes, answers queries with a plausible
// QueryResult whose loaded set depends on the budget, streams chat deltas and
// records what was copied or saved. The product never imports this file.
import {
  WorkbenchError,
  type BootState,
  type Stats,
  type Workbench,
  type WorkspaceState,
} from './workbench';
import type {
  Candidate,
  ChatDelta,
  ChatRequest,
  ChatTurn,
  Checkup,
  CollectionInfo,
  Conversation,
  ConversationSummary,
  DocumentInfo,
  FileProgress,
  GraphData,
  GraphEdge,
  GraphNode,
  IngestProgress,
  IngestReport,
  NodeDetail,
  OllamaStatus,
  QueryRequest,
  QueryResult,
  ReadOnlyState,
  RepairReport,
  Signals,
  ToolCall,
  Upload,
  WaitNotice,
} from './types';

interface FakeSection {
  id: string;
  docId: string;
  heading: string;
  text: string;
  tokens: number;
  concept: string;
  pinned: boolean;
}

interface FakeConcept {
  id: string;
  name: string;
}

/** How a fake chat answer goes. */
export interface ChatScript {
  /** Text deltas, in order. */
  chunks: string[];
  /** Tool calls sent before the text. */
  tools?: ToolCall[];
  /** "turn-error": resolves with the partial answer and an error; "reject": the promise rejects after the chunks. */
  failure?: 'turn-error' | 'reject';
  notes?: string[];
  truncated?: boolean;
}

/** Cheap, stable 16-hex-digit id part, like the engine's short hashes. */
function hash16(s: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619) >>> 0;
    h2 = Math.imul(h2 ^ c, 2246822519) >>> 0;
  }
  return (h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0')).slice(0, 16);
}

/** Roughly four characters a token, as a stand-in for tiktoken. */
export function fakeTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

const words = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];

const readable = /\.(md|markdown|txt|text)$/i;

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A stand-in for the engine's sample library (backend/sample): three short linked notes. */
const fakeSample: Upload[] = [
  { name: 'overview.md', text: '# Retrieval-augmented generation\n\nRetrieve passages, then answer. See [context windows](context-windows.md).\n\n## Pipeline\n\nChunk, embed, retrieve, re-rank, budget.' },
  { name: 'context-windows.md', text: '# Context windows and token budgets\n\nThe budget is the window minus the output reservation.\n\n## Filling it\n\nAdd candidates by score until the next does not fit.' },
  { name: 'evaluation.md', text: '# Evaluating retrieval\n\nPrecision, recall and nDCG@10 on labelled questions. See [overview](overview.md).' },
];

export class FakeWorkbench implements Workbench {
  edition: 'desktop' | 'web';

  /** Everything copied with copyText, in order. */
  copied: string[] = [];
  /** Everything saved with saveMarkdown. */
  saved: { name: string; text: string }[] = [];
  /** Every query request, in order. */
  queries: QueryRequest[] = [];
  /** Every chat request with its stream id. */
  chats: { req: ChatRequest; stream: string }[] = [];
  /** Ids passed to removeDocument, reingestDocument, pin and cancel calls. */
  removed: string[] = [];
  reingested: string[] = [];
  pins: { ids: string[]; pinned: boolean }[] = [];
  cancelledStreams: string[] = [];
  ingestCancels = 0;
  uploads: Upload[][] = [];
  pathIngests: string[][] = [];
  /** How often the sample library was asked for. */
  sampleIngests = 0;

  /** What Ollama says. */
  ollamaStatus: OllamaStatus = {
    url: 'http://127.0.0.1:11434',
    up: true,
    models: [
      { name: 'llama3.2:3b', context_length: 8192, tools: true },
      { name: 'qwen2.5:7b', context_length: 32768, tools: true },
    ],
  };
  /** What pickFiles answers. */
  picked: string[] = [];
  /** Text of files ingested by path (default: a heading and a line). */
  pathTexts: Record<string, string> = {};
  /** Milliseconds a query takes (by request), for ordering tests. */
  queryLatency: (req: QueryRequest) => number = () => 0;
  /** Awaited between ingest steps and chat deltas; replace to hold a stream. */
  step: () => Promise<void> = tick;
  /** The next chat's script. */
  chatScript: ChatScript = { chunks: ['Staleness decays ', 'exponentially ', 'with time.'] };
  /** Makes the named method reject once with this error. */
  failNext: Partial<Record<keyof Workbench, WorkbenchError>> = {};

  /** The workspace is open read-only for this reason (null: writable); writes then fail as the engine's do. */
  readOnly: ReadOnlyState | null = null;
  /** What reopen() finds (default: the same state as now). */
  afterReopen: { readOnly?: ReadOnlyState | null; error?: WorkbenchError | null } | null = null;
  /** The workspace did not open: workspace() and every other call reject with this. */
  openError: WorkbenchError | null = null;
  /** What checkWorkspace() answers. */
  checkup: Checkup = {
    workspace: '/tmp/loom-fake',
    store: 'ok',
    findings: [
      { part: 'settings', status: 'ok', detail: 'config.json reads' },
      { part: 'graph store', status: 'ok', detail: '2 documents, 3 sections, 2 concepts at generation 2' },
    ],
  };
  /** What repairWorkspace() answers; it also clears openError. */
  repairReport: RepairReport = {
    workspace: '/tmp/loom-fake',
    salvaged: true,
    damaged_copy: '/tmp/loom-fake.damaged-1',
    actions: ['read the graph from the index cache (a whole copy of the graph at generation 4)', 'rebuilt the graph in /tmp/loom-fake.repaired: 2 documents, 3 sections, 2 concepts'],
    lost: [],
  };
  /** How often each workspace call was made. */
  reopens = 0;
  checks = 0;
  repairs = 0;
  /** Awaited inside reopen, checkWorkspace and repairWorkspace; replace to hold one. */
  workspaceStep: () => Promise<void> = tick;

  private docs: DocumentInfo[] = [];
  private sections: FakeSection[] = [];
  private concepts = new Map<string, FakeConcept>();
  private generation = 0;
  private job = 0;
  private cancelRequested = false;
  private ingesting = false;
  private progressListeners = new Set<(p: IngestProgress) => void>();
  private dropListeners = new Set<(paths: string[]) => void>();
  private chatListeners = new Set<(d: ChatDelta) => void>();
  private stoppedStreams = new Set<string>();
  private convs = new Map<string, Conversation>();

  constructor(opts: { edition?: 'desktop' | 'web'; documents?: Upload[] } = {}) {
    this.edition = opts.edition ?? 'web';
    if (opts.documents) for (const u of opts.documents) this.addDocument(u.name, u.text, 'uploads');
  }

  private failIfAsked(method: keyof Workbench) {
    const err = this.failNext[method];
    if (err) {
      delete this.failNext[method];
      throw err;
    }
    if (this.openError && method !== 'checkWorkspace' && method !== 'repairWorkspace' && method !== 'reopen') throw this.openError;
  }

  /** A write on a read-only workspace fails as the engine's does (bind's read_only). */
  private writable() {
    if (this.readOnly) throw new WorkbenchError('read_only', 'Nothing was changed: this workspace is open read-only (the banner at the top says why and what to do).');
  }

  // Test helpers

  /** Pretends the desktop received a native file drop. */
  emitFileDrop(paths: string[]) {
    for (const cb of this.dropListeners) cb(paths);
  }

  /** Sends a progress event as the engine would. */
  emitProgress(p: IngestProgress) {
    for (const cb of this.progressListeners) cb(p);
  }

  /** Sends a chat delta as the engine would. */
  emitChatDelta(d: ChatDelta) {
    for (const cb of this.chatListeners) cb(d);
  }

  get listenerCounts() {
    return { progress: this.progressListeners.size, drop: this.dropListeners.size, chat: this.chatListeners.size };
  }

  /** Ids of every content node, in ingest order. */
  get nodeIds(): string[] {
    return this.sections.map((s) => s.id);
  }

  // Workspace

  async workspaceDir() {
    return '/tmp/loom-fake';
  }

  async workspace(): Promise<WorkspaceState> {
    this.failIfAsked('workspace');
    return { dir: '/tmp/loom-fake', stats: await this.stats(), readOnly: this.readOnly };
  }

  async reopen(): Promise<WorkspaceState> {
    this.reopens++;
    await this.workspaceStep();
    this.failIfAsked('reopen');
    if (this.afterReopen) {
      if (this.afterReopen.readOnly !== undefined) this.readOnly = this.afterReopen.readOnly;
      if (this.afterReopen.error !== undefined) this.openError = this.afterReopen.error;
    }
    return this.workspace();
  }

  async checkWorkspace(): Promise<Checkup> {
    this.checks++;
    await this.workspaceStep();
    this.failIfAsked('checkWorkspace');
    return structuredClone(this.checkup);
  }

  async repairWorkspace(): Promise<RepairReport> {
    this.repairs++;
    await this.workspaceStep();
    this.failIfAsked('repairWorkspace');
    this.openError = null;
    return structuredClone(this.repairReport);
  }

  async stats(): Promise<Stats> {
    this.failIfAsked('stats');
    return {
      workspace: '/tmp/loom-fake',
      documents: this.docs.length,
      contentNodes: this.sections.length,
      conceptNodes: this.concepts.size,
      edges: this.edges().length,
      tokens: this.sections.reduce((sum, s) => sum + s.tokens, 0),
      embedder: this.docs.length ? 'offline/glove-6b-100d-sif' : '',
    };
  }

  // Library

  async documents() {
    this.failIfAsked('documents');
    return this.docs.map((d) => ({ ...d }));
  }

  async collections(): Promise<CollectionInfo[]> {
    this.failIfAsked('collections');
    const by = new Map<string, CollectionInfo>();
    for (const d of this.docs) {
      const c = by.get(d.collection) ?? { name: d.collection, documents: 0, sections: 0 };
      c.documents++;
      c.sections += d.nodes;
      by.set(d.collection, c);
    }
    return [...by.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  async ingestPaths(paths: string[]) {
    this.failIfAsked('ingestPaths');
    this.writable();
    this.pathIngests.push(paths);
    const files = paths.map((p) => ({
      name: p,
      text: this.pathTexts[p] ?? `# ${p.split('/').pop()}\n\nNotes about ${p}.`,
    }));
    return this.ingest(files, 'desktop');
  }

  async ingestUploads(files: Upload[]) {
    this.failIfAsked('ingestUploads');
    this.writable();
    this.uploads.push(files);
    return this.ingest(files, 'uploads');
  }

  async ingestSample() {
    this.failIfAsked('ingestSample');
    this.writable();
    this.sampleIngests++;
    return this.ingest(fakeSample, 'sample');
  }

  private async ingest(files: Upload[], collection: string): Promise<IngestReport> {
    if (this.ingesting) throw new WorkbenchError('busy', 'An ingest is already running; wait for it or cancel it.');
    this.ingesting = true;
    this.cancelRequested = false;
    const started = Date.now();
    const job = `job-${++this.job}`;
    const progress: IngestProgress = {
      job,
      files_done: 0,
      files_total: files.length,
      bytes_done: 0,
      bytes_total: files.reduce((n, f) => n + f.text.length, 0),
      current: '',
      files: [],
      finished: false,
    };
    const report: IngestReport = {
      files: files.length, added: 0, updated: 0, unchanged: 0, removed: 0, nodes: 0,
      concepts_created: 0, bytes: 0, embedder: 'offline/glove-6b-100d-sif', duration_ns: 0, canceled: false, errors: [],
    };
    const emit = () => this.emitProgress({ ...progress, files: progress.files.map((f) => ({ ...f })) });
    try {
      for (const f of files) {
        if (this.cancelRequested) {
          progress.canceled = report.canceled = true;
          break;
        }
        const entry: FileProgress = { path: f.name, state: 'reading' };
        progress.files.push(entry);
        progress.current = f.name;
        emit();
        await this.step();
        if (!readable.test(f.name)) {
          entry.state = 'error';
          entry.problem = `${f.name}: Loom reads Markdown and plain text (.md, .markdown, .txt, .text); this file is neither.`;
          report.errors.push({ path: f.name, problem: entry.problem });
        } else if (f.text.trim() === '') {
          entry.state = 'error';
          entry.problem = `${f.name} is empty; there is nothing to ingest.`;
          report.errors.push({ path: f.name, problem: entry.problem });
        } else {
          const existing = this.docs.find((d) => d.path === f.name);
          if (existing && existing.source === f.text) {
            entry.state = 'unchanged';
            report.unchanged++;
          } else {
            if (existing) this.dropDocument(existing.id);
            const conceptsBefore = this.concepts.size;
            const doc = this.addDocument(f.name, f.text, collection);
            if (existing) report.updated++;
            else report.added++;
            report.nodes += doc.nodes;
            report.concepts_created += this.concepts.size - conceptsBefore;
            entry.state = 'done';
          }
        }
        progress.files_done++;
        progress.bytes_done += f.text.length;
        report.bytes += f.text.length;
      }
      progress.current = '';
      progress.finished = true;
      emit();
      report.duration_ns = (Date.now() - started) * 1e6;
      return report;
    } finally {
      this.ingesting = false;
    }
  }

  private addDocument(path: string, text: string, collection: string): DocumentInfo {
    const id = `d-${hash16(path)}`;
    const parts = text.split(/^(?=#{1,6} )/m).filter((p) => p.trim() !== '');
    const title = (text.match(/^#{1,6} (.+)$/m)?.[1] ?? path).trim();
    let tokens = 0;
    parts.forEach((part, i) => {
      const heading = (part.match(/^#{1,6} (.+)$/m)?.[1] ?? title).trim();
      const name = words(heading)[0] ?? 'notes';
      const conceptId = `c-${hash16(name)}`;
      if (!this.concepts.has(conceptId)) this.concepts.set(conceptId, { id: conceptId, name });
      const t = fakeTokens(part);
      tokens += t;
      this.sections.push({ id: `n-${hash16(`${id}/${i}/${part}`)}`, docId: id, heading, text: part.trim(), tokens: t, concept: conceptId, pinned: false });
    });
    const doc: DocumentInfo = {
      id, path, source: text, collection, format: 'markdown', title, bytes: text.length,
      nodes: parts.length, tokens, ingested: new Date(0).toISOString(), pinned: false,
    };
    this.docs.push(doc);
    this.generation++;
    return doc;
  }

  private dropDocument(id: string) {
    this.docs = this.docs.filter((d) => d.id !== id);
    this.sections = this.sections.filter((s) => s.docId !== id);
    const used = new Set(this.sections.map((s) => s.concept));
    for (const c of [...this.concepts.keys()]) if (!used.has(c)) this.concepts.delete(c);
    this.generation++;
  }

  async cancelIngest() {
    this.ingestCancels++;
    this.cancelRequested = true;
  }

  onIngestProgress(cb: (p: IngestProgress) => void) {
    this.progressListeners.add(cb);
    return () => this.progressListeners.delete(cb);
  }

  onFileDrop(cb: (paths: string[]) => void) {
    this.dropListeners.add(cb);
    return () => this.dropListeners.delete(cb);
  }

  async pickFiles() {
    this.failIfAsked('pickFiles');
    return [...this.picked];
  }

  async removeDocument(id: string) {
    this.failIfAsked('removeDocument');
    this.writable();
    if (!this.docs.some((d) => d.id === id)) throw new WorkbenchError('not_found', `No document ${id} in this workspace.`);
    this.removed.push(id);
    this.dropDocument(id);
  }

  async reingestDocument(id: string) {
    this.failIfAsked('reingestDocument');
    this.writable();
    const doc = this.docs.find((d) => d.id === id);
    if (!doc) throw new WorkbenchError('not_found', `No document ${id} in this workspace.`);
    this.reingested.push(id);
    return {
      files: 1, added: 0, updated: 0, unchanged: 1, removed: 0, nodes: 0, concepts_created: 0,
      bytes: doc.bytes, embedder: 'offline/glove-6b-100d-sif', duration_ns: 1e6, canceled: false, errors: [],
    };
  }

  async pin(ids: string[], pinned: boolean) {
    this.failIfAsked('pin');
    this.writable();
    this.pins.push({ ids, pinned });
    for (const d of this.docs) if (ids.includes(d.id)) d.pinned = pinned;
    for (const s of this.sections) if (ids.includes(s.id) || ids.includes(s.docId)) s.pinned = pinned;
  }

  // Graph

  private edges(): GraphEdge[] {
    const edges: GraphEdge[] = this.sections.map((s) => ({ source: s.id, target: s.concept, kind: 'about', weight: 0.85 }));
    const byDoc = new Map<string, FakeSection[]>();
    for (const s of this.sections) byDoc.set(s.docId, [...(byDoc.get(s.docId) ?? []), s]);
    for (const list of byDoc.values()) {
      for (let i = 1; i < list.length; i++) edges.push({ source: list[0].id, target: list[i].id, kind: 'parent', weight: 1 });
    }
    return edges;
  }

  async graph(): Promise<GraphData> {
    this.failIfAsked('graph');
    const nodes: GraphNode[] = [
      ...[...this.concepts.values()].map((c): GraphNode => ({ id: c.id, kind: 'concept', label: c.name })),
      ...this.sections.map((s): GraphNode => {
        const doc = this.docs.find((d) => d.id === s.docId);
        return { id: s.id, kind: 'content', label: s.heading, source: 'input', document: doc?.path, collection: doc?.collection, tokens: s.tokens, pinned: s.pinned };
      }),
    ];
    return { nodes, edges: this.edges(), generation: this.generation };
  }

  async node(id: string): Promise<NodeDetail> {
    this.failIfAsked('node');
    const c = this.concepts.get(id);
    if (c) {
      return {
        id, kind: 'concept', label: c.name, text: `The concept “${c.name}”.`, concepts: [],
        neighbours: this.sections.filter((s) => s.concept === id).map((s) => ({ id: s.id, label: s.heading, kind: 'content', edge: 'about', weight: 0.85 })),
      };
    }
    const s = this.sections.find((x) => x.id === id);
    if (!s) throw new WorkbenchError('not_found', `No node ${id} in this workspace.`);
    const doc = this.docs.find((d) => d.id === s.docId);
    return {
      id, kind: 'content', label: s.heading, reference: `${doc?.path} § ${s.heading}`, document: doc?.path, collection: doc?.collection,
      source: 'input', tokens: s.tokens, pinned: s.pinned, text: s.text,
      concepts: [{ id: s.concept, name: this.concepts.get(s.concept)?.name ?? '', similarity: 0.85 }],
      neighbours: [{ id: s.concept, label: this.concepts.get(s.concept)?.name ?? '', kind: 'concept', edge: 'about', weight: 0.85 }],
    };
  }

  // Query

  private ollamaWaitListeners = new Set<(n: WaitNotice) => void>();

  onOllamaWait(cb: (n: WaitNotice) => void) {
    this.ollamaWaitListeners.add(cb);
    return () => this.ollamaWaitListeners.delete(cb);
  }

  /** Sends an Ollama wait notice as the engine does while a question's model is described. */
  emitOllamaWait(n: WaitNotice) {
    for (const cb of this.ollamaWaitListeners) cb(n);
  }

  /** Warnings the next answers carry, and the nodes they name as unavailable (by id → why). */
  unavailable: Record<string, string> = {};

  async query(req: QueryRequest): Promise<QueryResult> {
    this.queries.push({ ...req });
    this.failIfAsked('query');
    const latency = this.queryLatency(req);
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    return this.assemble(req);
  }

  /** The result query() would give, synchronously (for component tests). */
  assemble(req: QueryRequest): QueryResult {
    const question = req.question.trim();
    if (question === '') throw new WorkbenchError('bad_request', 'Ask a question first: the question is empty.');
    const model = this.ollamaStatus.models.find((m) => m.name === req.model);
    const budgetTokens = req.budget ?? (req.window ?? model?.context_length ?? 0) * 0.6;
    if (!budgetTokens) throw new WorkbenchError('bad_request', 'Give a budget, a window or a model.');
    if (budgetTokens < 48) {
      throw new WorkbenchError('bad_request', `A context budget of ${budgetTokens} tokens is too small: it needs at least 48 tokens for the manifest and one small node.`);
    }
    const system = 40;
    const questionTokens = fakeTokens(question);
    const share = 0.3;
    const window = Math.ceil((budgetTokens + system + questionTokens) / (1 - share));
    const asked = new Set(words(question));
    const weights: Signals = { semantic: 0.4, hop: 0.15, staleness: 0.05, size: 0.1, provenance: 0.05, density: 0.1, trust: 0.1, novelty: 0.05 };
    const scored = this.sections.map((s) => {
      const w = words(s.text);
      const overlap = w.filter((x) => asked.has(x)).length;
      const semantic = Math.min(1, overlap / Math.max(3, asked.size));
      const signals: Signals = {
        semantic, hop: semantic > 0 ? 0.5 : 0, staleness: 0.9, size: Math.min(1, 200 / s.tokens), provenance: 0.5,
        density: 0.3, trust: 0.7, novelty: 1,
      };
      const score = (Object.keys(weights) as (keyof Signals)[]).reduce((sum, k) => sum + weights[k] * signals[k], 0);
      return { s, signals, score, relevant: semantic > 0 || s.pinned };
    });
    scored.sort((a, b) => b.score - a.score || a.s.id.localeCompare(b.s.id));
    const manifestLine = (s: FakeSection, score: number) => `[Node: ${s.heading} | relevance: ${score.toFixed(2)} | source: input]`;
    const relevantCount = scored.filter((x) => x.relevant).length;
    const manifestBase = fakeTokens('[Context loaded: 00 of 00 relevant nodes]\n[Additional context available but not loaded: 00 nodes]');
    let used = manifestBase;
    const candidates: Candidate[] = [];
    const loadedSections: { s: FakeSection; score: number }[] = [];
    const warnings: string[] = [];
    for (const { s, signals, score, relevant } of scored) {
      const doc = this.docs.find((d) => d.id === s.docId);
      const lineTokens = fakeTokens(manifestLine(s, score));
      const fits = used + lineTokens + s.tokens <= budgetTokens;
      const unavailable = this.unavailable[s.id];
      const loaded = relevant && fits && !unavailable;
      if (unavailable) warnings.push(`${s.id} (${doc?.path} § ${s.heading}) was left out: ${unavailable}`);
      if (loaded) {
        used += lineTokens + s.tokens;
        loadedSections.push({ s, score });
      }
      candidates.push({
        id: s.id, reference: `${doc?.path} § ${s.heading}`, title: s.heading, document: doc?.path ?? '', collection: doc?.collection ?? '',
        source: 'input', tokens: s.tokens, keyword: signals.semantic, cosine: signals.semantic, hops: relevant ? 1 : -1, signals,
        score, pinned: s.pinned, relevant, loaded, level: loaded ? 'detailed' : undefined, loaded_tokens: loaded ? s.tokens : undefined,
        reason: unavailable
          ? `not loaded: ${unavailable}`
          : loaded
            ? 'loaded in full: it fits the budget'
            : relevant
              ? `not loaded: ${s.tokens} tokens do not fit the ${budgetTokens - used} left`
              : 'not relevant to the question',
        unavailable,
      });
    }
    const manifest = [
      `[Context loaded: ${loadedSections.length} of ${relevantCount} relevant nodes]`,
      ...loadedSections.map(({ s, score }) => manifestLine(s, score)),
      `[Additional context available but not loaded: ${relevantCount - loadedSections.length} nodes]`,
    ].join('\n');
    const manifestTokens = fakeTokens(manifest);
    const loadedTokens = loadedSections.reduce((sum, x) => sum + x.s.tokens, 0);
    const context = budgetTokens;
    const free = Math.max(0, context - manifestTokens - loadedTokens);
    const output = window - system - questionTokens - context;
    const systemText = 'You answer from the context below. Cite node ids.';
    const prompt = [systemText, manifest, ...loadedSections.map(({ s }) => `<node id="${s.id}">\n${s.text}\n</node>`), `Question: ${question}`].join('\n\n');
    return {
      question, purpose: req.purpose ?? 'answer', level: req.level ?? 'adaptive', strategy: 'loom', query_type: 'factual',
      complexity: 0.4, embedder: 'offline/glove-6b-100d-sif', weights,
      budget: {
        window, window_source: model ? `model ${model.name}` : 'budget', system, question: questionTokens, output, output_share: share,
        context, manifest: manifestTokens, catalog: 0, loaded: loadedTokens, free,
      },
      branch: loadedSections.length === relevantCount ? 'all-fit' : 'descending-score',
      manifest, prompt, prompt_tokens: fakeTokens(prompt), loaded: loadedSections.length, relevant: relevantCount,
      not_loaded: relevantCount - loadedSections.length,
      seed_concepts: [...this.concepts.values()].slice(0, 2).map((c) => ({ id: c.id, name: c.name, similarity: 0.7 })),
      candidates, concept_hops: Object.fromEntries([...this.concepts.keys()].map((id) => [id, 0])),
      timing: { classify_us: 40, candidates_us: 900, score_us: 300, select_us: 120, assemble_us: 400, total_us: 1760 },
      warnings: warnings.length ? warnings : undefined,
    };
  }

  // Chat

  async ollama() {
    this.failIfAsked('ollama');
    return { ...this.ollamaStatus, models: this.ollamaStatus.models.map((m) => ({ ...m })) };
  }

  onChatDelta(cb: (d: ChatDelta) => void) {
    this.chatListeners.add(cb);
    return () => this.chatListeners.delete(cb);
  }

  async chat(req: ChatRequest, stream: string): Promise<ChatTurn> {
    this.chats.push({ req: { ...req }, stream });
    this.failIfAsked('chat');
    this.writable();
    if (!this.ollamaStatus.up) {
      throw new WorkbenchError('ollama_unavailable', this.ollamaStatus.problem ?? 'Ollama is not running.', this.ollamaStatus.fix);
    }
    const script = this.chatScript;
    const result = this.sections.length ? this.assemble({ question: req.question, budget: 2000 }) : null;
    const loaded = result?.candidates.filter((c) => c.loaded).map((c) => c.id) ?? [];
    const manifest = result?.manifest ?? '[Context loaded: 0 of 0 relevant nodes]';
    this.emitChatDelta({ stream, text: '', manifest, loaded });
    await this.step();
    for (const tool of script.tools ?? []) {
      this.emitChatDelta({ stream, text: '', tool });
      await this.step();
    }
    let answer = '';
    for (const chunk of script.chunks) {
      if (this.stoppedStreams.has(stream)) break;
      answer += chunk;
      this.emitChatDelta({ stream, text: chunk });
      await this.step();
    }
    if (script.failure === 'reject') {
      throw new WorkbenchError('chat_failed', 'The model stopped answering part way.', 'connection reset by peer');
    }
    const conversation = req.conversation || `conv-${hash16(req.question + this.convs.size)}`;
    const turn: ChatTurn = {
      id: `t-${hash16(stream)}`, conversation, question: req.question, answer, model: req.model,
      asked: new Date(0).toISOString(), answered: new Date(0).toISOString(), manifest,
      budget: result?.budget ?? { window: 8192, window_source: 'model', system: 40, question: 10, output: 2400, output_share: 0.3, context: 5742, manifest: 10, catalog: 0, loaded: 0, free: 5732 },
      window: 8192, loaded, tool_calls: script.tools, history_turns: 0, history_dropped: 0, prompt_eval_count: 0,
      estimated_prompt_tokens: result?.prompt_tokens ?? 0, truncated: script.truncated, notes: script.notes,
    };
    if (this.stoppedStreams.has(stream)) turn.notes = [...(turn.notes ?? []), 'Stopped by the person; the answer is what came before.'];
    if (script.failure === 'turn-error') turn.error = 'The model stopped answering part way: connection reset by peer.';
    const conv = this.convs.get(conversation) ?? { id: conversation, title: req.question.slice(0, 60), created: turn.asked, updated: turn.answered, turns: [] };
    conv.turns.push(turn);
    this.convs.set(conversation, conv);
    return turn;
  }

  async cancelChat(stream: string) {
    this.cancelledStreams.push(stream);
    this.stoppedStreams.add(stream);
  }

  async conversations(): Promise<ConversationSummary[]> {
    this.failIfAsked('conversations');
    return [...this.convs.values()].map((c) => ({ id: c.id, title: c.title, turns: c.turns.length, updated: c.updated }));
  }

  async conversation(id: string): Promise<Conversation> {
    this.failIfAsked('conversation');
    const c = this.convs.get(id);
    if (!c) throw new WorkbenchError('not_found', `No conversation ${id}.`);
    return { ...c, turns: c.turns.map((t) => ({ ...t })) };
  }

  /** Adds a finished conversation (for reopening tests). */
  addConversation(c: Conversation) {
    this.convs.set(c.id, c);
  }

  // Export

  async copyText(text: string) {
    this.failIfAsked('copyText');
    this.copied.push(text);
  }

  async saveMarkdown(name: string, text: string) {
    this.failIfAsked('saveMarkdown');
    this.saved.push({ name, text });
    return `/tmp/${name}`;
  }

  // Workspace file: a JSON of the uploads the fake holds.

  /** Every text importWorkspace was given. */
  imported: string[] = [];

  async exportWorkspace() {
    this.failIfAsked('exportWorkspace');
    const documents = this.docs.map((d) => ({ name: d.path, text: this.sections.filter((s) => s.docId === d.id).map((s) => s.text).join('\n\n') }));
    return JSON.stringify({ loom: 'fake-workspace', documents });
  }

  async importWorkspace(text: string) {
    this.failIfAsked('importWorkspace');
    this.writable();
    this.imported.push(text);
    if (this.docs.length > 0) throw new WorkbenchError('bad_request', 'Loom could not import the workspace file: the workspace is not empty');
    let parsed: { loom?: string; documents?: Upload[] };
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new WorkbenchError('bad_request', 'This is not a Loom workspace file.');
    }
    if (parsed.loom !== 'fake-workspace') throw new WorkbenchError('bad_request', 'This is not a Loom workspace file.');
    await this.ingestUploads(parsed.documents ?? []);
    return this.stats();
  }

  // Web edition

  /** The boot states onBoot replays (set bootStates before mounting). */
  bootStates: BootState[] = [];
  private bootListeners = new Set<(s: BootState) => void>();
  ollamaURLs: string[] = [];

  /** Sends a boot state to the listeners. */
  emitBoot(s: BootState) {
    this.bootStates.push(s);
    for (const cb of this.bootListeners) cb(s);
  }

  onBoot(cb: (s: BootState) => void) {
    const last = this.bootStates[this.bootStates.length - 1];
    if (last) cb(last);
    this.bootListeners.add(cb);
    return () => this.bootListeners.delete(cb);
  }

  ollamaURL() {
    return this.ollamaURLs[this.ollamaURLs.length - 1] ?? 'http://127.0.0.1:11434';
  }

  setOllamaURL(url: string) {
    this.ollamaURLs.push(url);
    this.ollamaStatus = { ...this.ollamaStatus, url };
  }
}
