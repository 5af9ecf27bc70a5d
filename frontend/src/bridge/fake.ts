// A Workbench for Vitest that answers with the engine's own output: the
// golden files under ./golden, which bind's Go test
// (TestGoldenFilesAreWhatTheEngineSends) writes from real workspaces and a
// fake Ollama, and fails on when they are stale. So the page's tests run on
// what the engine really sends, and the type check fails when the engine's
// output no longer fits the page's types (every golden is typed below by
// the generated ./types.ts). The product never imports this file.
//
// What the fake does itself is behaviour, not data: which golden a call
// gets, progress and chat deltas played one by one (step() between them,
// so a test can hold a stream), calls recorded, failures a test asks for,
// a read-only or unopened workspace. The little it changes of the engine's
// data is said where it does: the job id of each ingest (the engine counts
// its ingests), a chat's stream id (the page picks it), pins and removals
// applied to the listed documents and graph, and a budget between two
// goldens answered with the smaller's result.
import { WorkbenchError, type BootState, type GrammarFetch, type Workbench } from './workbench';
import {
  ErrorCodes,
  FileStates,
  Levels,
  ReadOnlyCauses,
  type ChatArgs,
  type ChatDelta,
  type ChatTurn,
  type Checkup,
  type CollectionInfo,
  type Conversation,
  type ConversationSummary,
  type DocumentInfo,
  type GraphData,
  type IngestProgress,
  type IngestResult,
  type MCPStatus,
  type ModelServerSettings,
  type NodeDetail,
  type Notice,
  type OllamaStatus,
  type QueryRequest,
  type QueryResult,
  type ReembedProgress,
  type ReembedReport,
  type ReadOnlyState,
  type Rejection,
  type RepairReport,
  type SourceView,
  type Stats,
  type Upload,
  type WatchedFolder,
  type WorkspaceState,
} from './types';
import chatJSON from './golden/chat.json';
import checkupJSON from './golden/checkup.json';
import checkupLostJSON from './golden/checkup-lost.json';
import damagedJSON from './golden/damaged.json';
import errorsJSON from './golden/errors.json';
import exportJSON from './golden/export.json';
import importJSON from './golden/import.json';
import ingestCancelledJSON from './golden/ingest-uploads-cancelled.json';
import ingestPathsJSON from './golden/ingest-paths.json';
import ingestSampleJSON from './golden/ingest-sample.json';
import ingestUploadsJSON from './golden/ingest-uploads.json';
import modelServerJSON from './golden/model-server.json';
import ollamaJSON from './golden/ollama.json';
import queriesJSON from './golden/queries.json';
import queryLostJSON from './golden/query-lost.json';
import reingestJSON from './golden/reingest.json';
import sourcesJSON from './golden/sources.json';
import repairLostJSON from './golden/repair-lost.json';
import workspaceCancelledJSON from './golden/workspace-uploads-cancelled.json';
import workspaceEmptyJSON from './golden/workspace-empty.json';
import workspaceImportedJSON from './golden/workspace-imported.json';
import workspaceNotesJSON from './golden/workspace-notes.json';
import workspacePathsJSON from './golden/workspace-paths.json';
import workspaceReadOnlyJSON from './golden/workspace-read-only.json';
import workspaceSampleJSON from './golden/workspace-sample.json';

// JSON imports type every string as string: the fields whose type is a
// union of the Go constants' values are checked against the generated list
// of them here, and the rest of each golden against its type by the type
// check.

/** A value of a generated union, from a golden file's string. */
function member<T extends string>(all: readonly T[], value: string): T {
  const found = all.find((v) => v === value);
  if (found === undefined) throw new Error(`golden file: ${JSON.stringify(value)} is not one of ${all.join(', ')}`);
  return found;
}

function optionalMember<T extends string>(all: readonly T[], value: string | undefined): T | undefined {
  return value === undefined ? undefined : member(all, value);
}

type GoldenRejection = Omit<Rejection, 'code'> & { code: string };
function rejection(r: GoldenRejection): Rejection {
  return { ...r, code: member(ErrorCodes, r.code) };
}

type GoldenStats = Omit<Stats, 'read_only_cause'> & { read_only_cause?: string };
function stats(s: GoldenStats): Stats {
  return { ...s, read_only_cause: optionalMember(ReadOnlyCauses, s.read_only_cause) };
}

type GoldenWorkspaceState = Omit<WorkspaceState, 'stats'> & { stats: GoldenStats };
function workspaceState(w: GoldenWorkspaceState): WorkspaceState {
  return { ...w, stats: stats(w.stats) };
}

type GoldenProgress = Omit<IngestProgress, 'files'> & { files: { path: string; state: string; problem?: string }[] };
function progress(p: GoldenProgress): IngestProgress {
  return { ...p, files: p.files.map((f) => ({ ...f, state: member(FileStates, f.state) })) };
}

// An array of goldens types each record (concept_hops) with the keys of
// every other as optional: none is undefined in the JSON itself.
type GoldenResult = Omit<QueryResult, 'concept_hops' | 'candidates'> & {
  concept_hops: Record<string, number | undefined>;
  candidates: (Omit<QueryResult['candidates'][number], 'level'> & { level?: string })[];
};
function queryResult(r: GoldenResult): QueryResult {
  const hops: Record<string, number> = {};
  for (const [id, h] of Object.entries(r.concept_hops)) if (h !== undefined) hops[id] = h;
  return { ...r, concept_hops: hops, candidates: r.candidates.map((c) => ({ ...c, level: optionalMember(Levels, c.level) })) };
}

type GoldenStatus = Omit<OllamaStatus, 'code'> & { code?: string };
function ollamaStatus(s: GoldenStatus): OllamaStatus {
  return { ...s, code: optionalMember(ErrorCodes, s.code) };
}

/** A workspace as the page reads it after a change (bind's goldenWorkspace). */
interface GoldenWorkspace {
  workspace: WorkspaceState;
  documents: DocumentInfo[];
  collections: CollectionInfo[];
  graph: GraphData;
  /** Every node's details, for the workspace questions are asked of. */
  nodes: Record<string, NodeDetail>;
}

type GoldenWorkspaceJSON = Omit<GoldenWorkspace, 'workspace' | 'nodes'> & { workspace: GoldenWorkspaceState; nodes?: Record<string, NodeDetail> };
function goldenWorkspace(w: GoldenWorkspaceJSON): GoldenWorkspace {
  return { ...w, workspace: workspaceState(w.workspace), nodes: w.nodes ?? {} };
}

/** One ingest: what was given, its progress events and its result. */
interface GoldenIngest {
  uploads?: Upload[];
  paths?: string[];
  events: IngestProgress[];
  result: IngestResult;
}

function goldenIngest(i: Omit<GoldenIngest, 'events'> & { events: GoldenProgress[] }): GoldenIngest {
  return { ...i, events: i.events.map(progress) };
}

/** One question and what came back. */
interface GoldenQuery {
  request: QueryRequest;
  result?: QueryResult;
  error?: Rejection;
}

function goldenQuery(q: { request: QueryRequest; result?: GoldenResult; error?: GoldenRejection }): GoldenQuery {
  return { request: q.request, result: q.result && queryResult(q.result), error: q.error && rejection(q.error) };
}

/** One chat turn: its chat:delta events and the turn. */
interface GoldenChat {
  args: ChatArgs;
  deltas: ChatDelta[];
  turn: ChatTurn;
}

/** The ways a fake chat turn can go: each is a turn the engine played with a fake Ollama. */
export type ChatCase = 'answer' | 'tools' | 'broken' | 'stopped' | 'silent';

const workspaces = {
  empty: goldenWorkspace(workspaceEmptyJSON),
  notes: goldenWorkspace(workspaceNotesJSON),
  paths: goldenWorkspace(workspacePathsJSON),
  sample: goldenWorkspace(workspaceSampleJSON),
  cancelled: goldenWorkspace(workspaceCancelledJSON),
  imported: goldenWorkspace(workspaceImportedJSON),
};

/** The golden workspaces: empty, and as each golden ingest (or the import) left it. */
export type Library = keyof typeof workspaces;

/** The engine's failures in errors.json, by the name bind's golden test gives each. */
export type FailureName = keyof typeof errorsJSON;
const chats: Record<ChatCase, GoldenChat> = {
  answer: chatJSON.answer,
  tools: chatJSON.tools,
  broken: chatJSON.broken,
  stopped: chatJSON.stopped,
  silent: chatJSON.silent,
};
const conversationsGolden: ConversationSummary[] = chatJSON.conversations;
const conversationGolden: Conversation = chatJSON.conversation;
const queries: GoldenQuery[] = queriesJSON.map(goldenQuery);
const queryLost = goldenQuery(queryLostJSON);
const ingests = {
  uploads: goldenIngest(ingestUploadsJSON),
  cancelled: goldenIngest(ingestCancelledJSON),
  paths: goldenIngest(ingestPathsJSON),
  sample: goldenIngest(ingestSampleJSON),
};
const reingestGolden: IngestResult = reingestJSON;
/** What the source viewer gets for each node of the notes (OpenSource), by node id. */
const sourcesGolden: Record<string, SourceView> = sourcesJSON;
const importGolden: Stats = stats(importJSON);
const damagedGolden: { open: Rejection; checkup: Checkup; repair: RepairReport } = { ...damagedJSON, open: rejection(damagedJSON.open) };
const readOnlyGolden = workspaceState(workspaceReadOnlyJSON).read_only;
if (!readOnlyGolden) throw new Error('golden file workspace-read-only.json: no read-only state');
const checkupGolden: Checkup = checkupJSON;
const checkupLostGolden: Checkup = checkupLostJSON;
const repairLostGolden: RepairReport = repairLostJSON;
const ollamaGolden = {
  up: ollamaStatus(ollamaJSON.up),
  notRunning: ollamaStatus(ollamaJSON.not_running),
  webNotRunning: ollamaStatus(ollamaJSON.web_not_running),
};
/** An OpenAI-compatible server (LM Studio, as the Go tests' fake plays it): its status and settings, a re-embed with its embedding model and one cancelled; and llama.cpp's server, which does not say everything. */
const modelServerGolden: {
  status: OllamaStatus;
  llamacpp: OllamaStatus;
  settings: ModelServerSettings;
  reembed: { events: ReembedProgress[]; report: ReembedReport; stats: Stats };
  cancelled: { events: ReembedProgress[]; error: Rejection };
} = {
  status: ollamaStatus(modelServerJSON.status),
  llamacpp: ollamaStatus(modelServerJSON.llamacpp),
  settings: modelServerJSON.settings,
  reembed: { ...modelServerJSON.reembed, stats: stats(modelServerJSON.reembed.stats) },
  cancelled: { ...modelServerJSON.cancelled, error: rejection(modelServerJSON.cancelled.error) },
};
const silentNotice = chats.silent.deltas.find((d) => d.wait)?.wait;
if (!silentNotice) throw new Error('golden file chat.json: the silent turn has no wait notice');
const waitGolden: Notice = silentNotice;

function question(which: (q: GoldenQuery) => boolean): string {
  const q = queries.find(which);
  if (!q) throw new Error('golden file queries.json: a question the page’s tests ask is not there');
  return q.request.question;
}

/**
 * The engine's output the tests read or hand to the fake: the questions
 * it has answers to, the uploads and paths it has ingests of, and what the
 * engine sent back.
 */
export const golden = {
  /** The questions with answers (queries.json). */
  questions: {
    /** One relevant node, loaded at every budget. */
    staleness: question((q) => q.request.question.startsWith('How does staleness')),
    /** Three relevant nodes: all loaded at 300 and more, two at 100, one at 70 and at 50; too small at 20. */
    linked: question((q) => q.request.question.startsWith('How are concept')),
    /** No words to search for: the engine refuses it (invalid). */
    noWords: question((q) => q.error?.code === 'invalid' && !/[\p{L}\p{N}]/u.test(q.request.question)),
  },
  queries,
  /** The question whose nodes' texts went missing (a warning each). */
  queryLost,
  /** The files the page uploads in the goldens: the fixture notes, a binary file and an empty one. */
  uploads: ingests.uploads.uploads ?? [],
  /** The folder the desktop ingests by path in the goldens. */
  paths: ingests.paths.paths ?? [],
  ingests,
  workspaces,
  /** The engine's failure of that name, as the page gets it. */
  rejection: (name: FailureName): Rejection => rejection(errorsJSON[name]),
  /** The same, as the bridge throws it. */
  error: (name: FailureName): WorkbenchError => WorkbenchError.from(rejection(errorsJSON[name])),
  chats,
  conversations: conversationsGolden,
  conversation: conversationGolden,
  ollama: ollamaGolden,
  modelServer: modelServerGolden,
  /** Ollama silent while a turn waits for the model's details (a chat:delta's wait, and what ollama:wait carries). */
  wait: waitGolden,
  /** The read-only state beside another Loom process. */
  readOnly: readOnlyGolden,
  checkup: checkupGolden,
  checkupLost: checkupLostGolden,
  repairLost: repairLostGolden,
  damaged: damagedGolden,
  reingest: reingestGolden,
  import: importGolden,
  /** The source viewer's document of every node of the notes, by node id. */
  sources: sourcesGolden,
  /** The workspace file of the notes, as ExportWorkspace gives it. */
  export: JSON.stringify(exportJSON),
};

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function sameUploads(a: Upload[], b: Upload[]): boolean {
  return a.length === b.length && a.every((u, i) => u.name === b[i].name && u.text === b[i].text);
}

export class FakeWorkbench implements Workbench {
  edition: 'desktop' | 'web';

  /** Everything copied with copyText, in order. */
  copied: string[] = [];
  /** Everything saved with saveMarkdown. */
  saved: { name: string; text: string }[] = [];
  /** Every query request, in order. */
  queries: QueryRequest[] = [];
  /** Every chat request with its stream id. */
  chats: { args: ChatArgs; stream: string }[] = [];
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
  /** Node ids whose source was opened, in the page and in the system's viewer (desktop). */
  sourcesOpened: string[] = [];
  systemViewer: string[] = [];

  /** What Ollama says (the fake Ollama of the goldens, up, by default). */
  ollamaStatus: OllamaStatus = structuredClone(golden.ollama.up);
  /** What pickFiles answers. */
  picked: string[] = [];
  /** Milliseconds a query takes (by request), for ordering tests. */
  queryLatency: (req: QueryRequest) => number = () => 0;
  /** Awaited between ingest events and chat deltas; replace to hold a stream. */
  step: () => Promise<void> = tick;
  /** How the next chat turns go. */
  chatCase: ChatCase = 'answer';
  /** Makes the named method reject once with this error. */
  failNext: Partial<Record<keyof Workbench, WorkbenchError>> = {};
  /** The texts of the workspace's nodes went missing: questions get the golden answer that leaves them out. */
  lostTexts = false;

  /** The workspace is open read-only for this reason (null: writable); writes then fail as the engine's do. */
  readOnly: ReadOnlyState | null = null;
  /** What reopen() finds (default: the same state as now). */
  afterReopen: { readOnly?: ReadOnlyState | null; error?: WorkbenchError | null } | null = null;
  /** The workspace did not open: workspace() and every other call reject with this. */
  openError: WorkbenchError | null = null;
  /** What checkWorkspace() answers. */
  checkup: Checkup = structuredClone(golden.checkup);
  /** What repairWorkspace() answers; it also clears openError. */
  repairReport: RepairReport = structuredClone(golden.repairLost);
  /** The library a repair leaves (default: the one there is). */
  afterRepair: Library | null = null;
  /** How often each workspace call was made. */
  reopens = 0;
  checks = 0;
  repairs = 0;
  /** Awaited inside reopen, checkWorkspace and repairWorkspace; replace to hold one. */
  workspaceStep: () => Promise<void> = tick;

  private library: GoldenWorkspace;
  private jobs = 0;
  private cancelRequested = false;
  private ingesting = false;
  private chatted = false;
  private progressListeners = new Set<(p: IngestProgress) => void>();
  private grammarListeners = new Set<(f: GrammarFetch) => void>();
  private dropListeners = new Set<(paths: string[]) => void>();
  private chatListeners = new Set<(d: ChatDelta) => void>();
  private ollamaWaitListeners = new Set<(n: Notice) => void>();
  private stoppedStreams = new Set<string>();

  /** Desktop only, as the real bridges: the web edition has no system viewer. */
  openInSystemViewer?: (nodeID: string) => Promise<void>;
  /** Desktop only, as the real bridges: the web edition cannot serve MCP. */
  mcp?: () => Promise<MCPStatus>;
  setMCP?: (on: boolean) => Promise<MCPStatus>;
  /** Desktop only, as the real bridges: the web edition has no model-server settings. */
  modelServerSettings?: () => Promise<ModelServerSettings>;
  setModelServer?: (s: ModelServerSettings) => Promise<OllamaStatus>;
  /** The model-server settings (desktop): what modelServerSettings answers; every setModelServer call, in order. */
  serverSettings: ModelServerSettings = structuredClone(golden.modelServer.settings);
  serverSettingsCalls: ModelServerSettings[] = [];
  /** Every reembed target, in order, and how often cancelReembed was called. */
  reembeds: string[] = [];
  reembedCancels = 0;
  private reembedding = false;
  private reembedCancel = false;
  private reembedListeners = new Set<(p: ReembedProgress) => void>();
  /** Every setMCP call, in order; mcpOn is the setting. */
  mcpCalls: boolean[] = [];
  mcpOn = false;

  /** The watched folders (desktop): what watchedFolders answers; watchFolder and unwatchFolder change it. */
  watched: WatchedFolder[] = [];
  /** What pickFolder answers. */
  pickedFolder = '';
  /** The paths given to watchFolder, unwatchFolder and syncFolder, in order. */
  watchCalls: string[] = [];
  unwatchCalls: string[] = [];
  syncCalls: string[] = [];
  /** The time the fake's watch states carry. */
  now = '2026-11-24T09:30:00Z';
  private watchListeners = new Set<(f: WatchedFolder) => void>();
  /** Live folders: desktop only, as the real bridges (the web edition cannot watch). */
  pickFolder?: () => Promise<string>;
  watchedFolders?: () => Promise<WatchedFolder[]>;
  watchFolder?: (path: string) => Promise<WatchedFolder>;
  unwatchFolder?: (path: string) => Promise<void>;
  syncFolder?: (path: string) => Promise<void>;
  onWatchState?: (cb: (f: WatchedFolder) => void) => () => void;

  constructor(opts: { edition?: 'desktop' | 'web'; library?: Library } = {}) {
    this.edition = opts.edition ?? 'web';
    this.library = structuredClone(workspaces[opts.library ?? 'empty']);
    if (this.edition === 'desktop') {
      this.openInSystemViewer = async (nodeID: string) => {
        this.failIfAsked('openInSystemViewer');
        this.systemViewer.push(nodeID);
      };
      this.mcp = async () => {
        this.failIfAsked('mcp');
        return this.mcpStatus();
      };
      this.setMCP = async (on: boolean) => {
        this.failIfAsked('setMCP');
        this.mcpCalls.push(on);
        this.mcpOn = on;
        return this.mcpStatus();
      };
      this.modelServerSettings = async () => {
        this.failIfAsked('modelServerSettings');
        return structuredClone(this.serverSettings);
      };
      this.setModelServer = async (next: ModelServerSettings) => {
        this.failIfAsked('setModelServer');
        this.serverSettingsCalls.push(structuredClone(next));
        // As the engine: the key is kept (or forgotten), never given back.
        const hasKey = next.forget_api_key ? false : !!next.api_key || this.serverSettings.has_api_key;
        this.serverSettings = { ...next, api_key: undefined, forget_api_key: undefined, has_api_key: hasKey, available: true };
        this.ollamaStatus = structuredClone(next.provider === 'openai' ? golden.modelServer.status : golden.ollama.up);
        return structuredClone(this.ollamaStatus);
      };
      this.pickFolder = async () => {
        this.failIfAsked('pickFolder');
        return this.pickedFolder;
      };
      this.watchedFolders = async () => {
        this.failIfAsked('watchedFolders');
        return structuredClone(this.watched);
      };
      this.watchFolder = async (path: string) => {
        this.failIfAsked('watchFolder');
        this.writable();
        this.watchCalls.push(path);
        let f = this.watched.find((w) => w.path === path);
        if (!f) {
          f = { path, state: 'watching', since: this.now, added: 0, changed: 0, removed: 0, unchanged: 0, errors: 0 };
          this.watched.push(f);
        }
        // As the engine: the first sync starts at once, its states come as events.
        void this.fakeSync(path);
        return structuredClone(f);
      };
      this.unwatchFolder = async (path: string) => {
        this.failIfAsked('unwatchFolder');
        this.unwatchCalls.push(path);
        const f = this.watched.find((w) => w.path === path);
        if (!f) throw new WorkbenchError('not_found', `${path} is not watched.`);
        this.watched = this.watched.filter((w) => w !== f);
        this.emitWatchState({ ...f, state: 'stopped', since: this.now, error: undefined });
      };
      this.syncFolder = async (path: string) => {
        this.failIfAsked('syncFolder');
        this.syncCalls.push(path);
        if (!this.watched.some((w) => w.path === path)) throw new WorkbenchError('not_found', `${path} is not watched.`);
        void this.fakeSync(path);
      };
      this.onWatchState = (cb: (f: WatchedFolder) => void) => {
        this.watchListeners.add(cb);
        return () => this.watchListeners.delete(cb);
      };
    }
  }

  /** The MCP server's status as bind.MCPStatus reports it (the shape the CLI's configs have). */
  mcpStatus(): MCPStatus {
    const dir = this.library.workspace.dir;
    const stdio = { available: true, on: this.mcpOn, serving: false, read_only: false,
      stdio_command: `loom mcp --workspace ${dir}`,
      stdio_config: JSON.stringify({ mcpServers: { loom: { command: 'loom', args: ['mcp', '--workspace', dir] } } }, null, 2) };
    if (!this.mcpOn) return stdio;
    const url = 'http://127.0.0.1:7337/mcp';
    const token = 'loom_FAKETOKENFAKETOKENFAKETOKENFAKE';
    return { ...stdio, serving: true, url, token, token_file: `${dir}/mcp-token`,
      tools: ['get_context', 'search_context', 'expand', 'get_window', 'catalog'],
      http_config: JSON.stringify({ mcpServers: { loom: { type: 'http', url, headers: { Authorization: `Bearer ${token}` } } } }, null, 2) };
  }

  /** A sync as the engine reports it: syncing, then synced with nothing changed. */
  private async fakeSync(path: string) {
    await this.step();
    const f = this.watched.find((w) => w.path === path);
    if (!f) return;
    this.emitWatchState({ ...f, state: 'syncing', since: this.now });
    await this.step();
    if (!this.watched.some((w) => w.path === path)) return;
    this.emitWatchState({ ...f, state: 'synced', since: this.now, last_sync: this.now, added: 0, changed: 0, removed: 0, unchanged: f.added + f.changed + f.unchanged, errors: 0, error: undefined });
  }

  private use(library: Library) {
    this.library = structuredClone(workspaces[library]);
  }

  private failIfAsked(method: keyof Workbench) {
    const err = this.failNext[method];
    if (err) {
      delete this.failNext[method];
      throw err;
    }
    if (this.openError && method !== 'checkWorkspace' && method !== 'repairWorkspace' && method !== 'reopen') throw this.openError;
  }

  /** A write on a read-only workspace fails as the engine's does. */
  private writable() {
    if (this.readOnly) throw golden.error('read_only');
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

  /** Sends a watched folder's state as the engine does (and keeps it as watchedFolders' answer, unless stopped). */
  emitWatchState(f: WatchedFolder) {
    const i = this.watched.findIndex((w) => w.path === f.path);
    if (f.state !== 'stopped' && i >= 0) this.watched[i] = structuredClone(f);
    for (const cb of this.watchListeners) cb(structuredClone(f));
  }

  /** Sends an Ollama wait notice as the engine does while a question's model is described. */
  emitOllamaWait(n: Notice) {
    for (const cb of this.ollamaWaitListeners) cb(n);
  }

  get listenerCounts() {
    return { progress: this.progressListeners.size, drop: this.dropListeners.size, chat: this.chatListeners.size };
  }

  /** Ids of the workspace's content nodes, in the graph's order. */
  get nodeIds(): string[] {
    return this.library.graph.nodes.filter((n) => n.kind === 'content').map((n) => n.id);
  }

  // Workspace

  async workspaceDir() {
    return this.library.workspace.dir;
  }

  async workspace(): Promise<WorkspaceState> {
    this.failIfAsked('workspace');
    return { dir: this.library.workspace.dir, stats: await this.stats(), read_only: this.readOnly ?? undefined };
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
    if (this.afterRepair) this.use(this.afterRepair);
    return structuredClone(this.repairReport);
  }

  /** The golden counts; a removal takes its documents out of them. */
  async stats(): Promise<Stats> {
    this.failIfAsked('stats');
    return { ...this.library.workspace.stats, documents: this.library.documents.length };
  }

  // Library

  async documents() {
    this.failIfAsked('documents');
    return structuredClone(this.library.documents);
  }

  async collections(): Promise<CollectionInfo[]> {
    this.failIfAsked('collections');
    return structuredClone(this.library.collections);
  }

  async ingestPaths(paths: string[]) {
    this.failIfAsked('ingestPaths');
    this.writable();
    this.pathIngests.push(paths);
    if (paths.join('\n') !== golden.paths.join('\n')) {
      throw new Error(`FakeWorkbench: the goldens ingest ${golden.paths.join(', ')} by path, not ${paths.join(', ')}`);
    }
    const res = await this.ingest(ingests.paths, 'paths');
    // As the engine: only folders not watched yet are offered.
    const watchable = (res.watchable ?? []).filter((p) => !this.watched.some((w) => w.path === p));
    if (watchable.length > 0 && this.watchFolder) res.watchable = watchable;
    else delete res.watchable;
    return res;
  }

  async ingestUploads(files: Upload[]) {
    this.failIfAsked('ingestUploads');
    this.writable();
    this.uploads.push(files);
    if (!sameUploads(files, golden.uploads)) {
      throw new Error(`FakeWorkbench: the goldens upload ${golden.uploads.map((u) => u.name).join(', ')}, not ${files.map((u) => u.name).join(', ')}`);
    }
    return this.ingest(ingests.uploads, 'notes');
  }

  async ingestSample() {
    this.failIfAsked('ingestSample');
    this.writable();
    this.sampleIngests++;
    return this.ingest(ingests.sample, 'sample');
  }

  /**
   * Plays a golden ingest's progress events (each under this fake's own
   * job id, as the engine numbers its ingests) and leaves the library the
   * ingest left; cancelled part way, the golden cancelled ingest's end.
   */
  private async ingest(run: GoldenIngest, after: Library): Promise<IngestResult> {
    if (this.ingesting) throw golden.error('ingest_running');
    this.ingesting = true;
    this.cancelRequested = false;
    const job = `ingest-${++this.jobs}`;
    try {
      for (const event of run.events) {
        if (this.cancelRequested && run === ingests.uploads) {
          const end = ingests.cancelled.events.at(-1);
          if (end) this.emitProgress({ ...end, job });
          this.use('cancelled');
          return { ...structuredClone(ingests.cancelled.result), job };
        }
        this.emitProgress({ ...structuredClone(event), job });
        await this.step();
      }
      this.use(after);
      return { ...structuredClone(run.result), job };
    } finally {
      this.ingesting = false;
    }
  }

  /**
   * Plays the golden re-embed's progress events (under the target asked
   * for) and leaves the workspace's embedder as the golden re-embed left
   * it; cancelled part way, the golden cancelled re-embed's end and its
   * rejection, the embedder unchanged.
   */
  async reembed(target: string): Promise<ReembedReport> {
    this.failIfAsked('reembed');
    this.writable();
    if (this.reembedding || this.ingesting) throw new WorkbenchError('busy', 'The workspace cannot be re-embedded while the ingest runs: wait for it to finish.');
    this.reembeds.push(target);
    this.reembedding = true;
    this.reembedCancel = false;
    try {
      const { events, report, stats: after } = golden.modelServer.reembed;
      for (const e of events) {
        await this.step();
        if (this.reembedCancel && !e.finished) {
          const { events: cancelled, error } = golden.modelServer.cancelled;
          this.emitReembed({ ...cancelled[cancelled.length - 1], target });
          throw WorkbenchError.from(error);
        }
        this.emitReembed({ ...e, target });
      }
      const st = this.library.workspace.stats;
      this.library.workspace.stats = { ...st, embedder: after.embedder, embedder_in_use: after.embedder_in_use, embedder_choice: after.embedder_choice, embedder_dims: after.embedder_dims };
      return structuredClone(report);
    } finally {
      this.reembedding = false;
    }
  }

  async cancelReembed() {
    this.reembedCancels++;
    this.reembedCancel = true;
  }

  onReembedProgress(cb: (p: ReembedProgress) => void) {
    this.reembedListeners.add(cb);
    return () => this.reembedListeners.delete(cb);
  }

  /** Sends a re-embed progress event as the engine does. */
  emitReembed(p: ReembedProgress) {
    for (const cb of this.reembedListeners) cb(structuredClone(p));
  }

  async cancelIngest() {
    this.ingestCancels++;
    this.cancelRequested = true;
  }

  onIngestProgress(cb: (p: IngestProgress) => void) {
    this.progressListeners.add(cb);
    return () => this.progressListeners.delete(cb);
  }

  onGrammarFetch(cb: (f: GrammarFetch) => void) {
    this.grammarListeners.add(cb);
    return () => this.grammarListeners.delete(cb);
  }

  /** What the web edition's worker says while it fetches a grammar. */
  emitGrammarFetch(f: GrammarFetch) {
    for (const cb of this.grammarListeners) cb(f);
  }

  onFileDrop(cb: (paths: string[]) => void) {
    this.dropListeners.add(cb);
    return () => this.dropListeners.delete(cb);
  }

  async pickFiles() {
    this.failIfAsked('pickFiles');
    return [...this.picked];
  }

  /** Takes the document out of the listed documents and the graph. */
  async removeDocument(id: string) {
    this.failIfAsked('removeDocument');
    this.writable();
    this.removed.push(id);
    const doc = this.library.documents.find((d) => d.id === id);
    if (!doc) throw golden.error('remove_unknown');
    this.library.documents = this.library.documents.filter((d) => d.id !== id);
    const gone = new Set(this.library.graph.nodes.filter((n) => n.document === id).map((n) => n.id));
    this.library.graph.nodes = this.library.graph.nodes.filter((n) => !gone.has(n.id));
    this.library.graph.edges = this.library.graph.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target));
  }

  async reingestDocument(id: string) {
    this.failIfAsked('reingestDocument');
    this.writable();
    this.reingested.push(id);
    if (!this.library.documents.some((d) => d.id === id)) throw golden.error('reingest_unknown');
    return { ...structuredClone(golden.reingest), job: `ingest-${++this.jobs}` };
  }

  /** Marks the documents and nodes pinned or not in what is listed. */
  async pin(ids: string[], pinned: boolean) {
    this.failIfAsked('pin');
    this.writable();
    this.pins.push({ ids, pinned });
    for (const d of this.library.documents) if (ids.includes(d.id)) d.pinned = pinned;
    for (const n of this.library.graph.nodes) if (ids.includes(n.id) || (n.document && ids.includes(n.document))) n.pinned = pinned;
    for (const n of Object.values(this.library.nodes)) if (ids.includes(n.id) || (n.document && ids.includes(n.document))) n.pinned = pinned;
  }

  // Graph

  async graph(): Promise<GraphData> {
    this.failIfAsked('graph');
    return structuredClone(this.library.graph);
  }

  async node(id: string): Promise<NodeDetail> {
    this.failIfAsked('node');
    const d = this.library.nodes[id];
    if (!d) throw golden.error('node_not_found');
    return structuredClone(d);
  }

  // Sources

  /** The golden view of a node of the listed documents; any other id is not found, as the engine says. */
  async openSource(nodeID: string): Promise<SourceView> {
    this.sourcesOpened.push(nodeID);
    this.failIfAsked('openSource');
    const v = sourcesGolden[nodeID];
    if (!v || !this.library.documents.some((d) => d.id === v.document.id)) throw golden.error('source_not_found');
    return structuredClone(v);
  }

  // Query

  onOllamaWait(cb: (n: Notice) => void) {
    this.ollamaWaitListeners.add(cb);
    return () => this.ollamaWaitListeners.delete(cb);
  }

  async query(req: QueryRequest): Promise<QueryResult> {
    this.queries.push({ ...req });
    this.failIfAsked('query');
    const latency = this.queryLatency(req);
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    return this.assemble(req);
  }

  /**
   * The golden answer to the question at the budget (for component tests,
   * at once): at a budget between two goldens, the smaller's; below the
   * smallest, the refusal of the smallest.
   */
  assemble(req: QueryRequest): QueryResult {
    const question = req.question.trim();
    if (this.lostTexts && question === golden.queryLost.request.question && golden.queryLost.result) return structuredClone(golden.queryLost.result);
    const asked = queries.filter((q) => q.request.question === question);
    if (asked.length === 0) {
      throw new Error(`FakeWorkbench: the goldens have no answer to ${JSON.stringify(question)} (bind's golden test asks ${queries.map((q) => JSON.stringify(q.request.question)).join(', ')})`);
    }
    const budget = req.budget ?? 4096;
    const fits = asked.filter((q) => (q.request.budget ?? 0) <= budget).sort((a, b) => (b.request.budget ?? 0) - (a.request.budget ?? 0));
    const q = fits[0] ?? asked.sort((a, b) => (a.request.budget ?? 0) - (b.request.budget ?? 0))[0];
    if (q.error) throw WorkbenchError.from(q.error);
    if (!q.result) throw new Error('golden file queries.json: an answer with neither a result nor an error');
    return structuredClone(q.result);
  }

  // Chat

  async ollama() {
    this.failIfAsked('ollama');
    return structuredClone(this.ollamaStatus);
  }

  onChatDelta(cb: (d: ChatDelta) => void) {
    this.chatListeners.add(cb);
    return () => this.chatListeners.delete(cb);
  }

  /**
   * Plays the golden turn of chatCase: its deltas under the caller's
   * stream id, then its turn. Stopped part way (cancelChat), it ends as the
   * golden stopped turn does.
   */
  async chat(args: ChatArgs, stream: string): Promise<ChatTurn> {
    this.chats.push({ args: { ...args }, stream });
    this.failIfAsked('chat');
    this.writable();
    if (!this.ollamaStatus.up) throw golden.error('ollama_not_running');
    const played = chats[this.chatCase];
    for (const d of played.deltas) {
      if (this.stoppedStreams.has(stream)) {
        this.chatted = true;
        return structuredClone(chats.stopped.turn);
      }
      this.emitChatDelta({ ...structuredClone(d), stream });
      await this.step();
    }
    this.chatted = true;
    if (this.stoppedStreams.has(stream)) return structuredClone(chats.stopped.turn);
    return structuredClone(played.turn);
  }

  async cancelChat(stream: string) {
    this.cancelledStreams.push(stream);
    this.stoppedStreams.add(stream);
  }

  /** None until a turn was asked; then the conversation the golden turn started. */
  async conversations(): Promise<ConversationSummary[]> {
    this.failIfAsked('conversations');
    return this.chatted ? structuredClone(golden.conversations) : [];
  }

  async conversation(id: string): Promise<Conversation> {
    this.failIfAsked('conversation');
    if (!this.chatted || id !== golden.conversation.id) throw golden.error('conversation_not_found');
    return structuredClone(golden.conversation);
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

  // Workspace file

  /** Every text importWorkspace was given. */
  imported: string[] = [];

  async exportWorkspace() {
    this.failIfAsked('exportWorkspace');
    if (this.library.documents.length === 0) throw new Error('FakeWorkbench: the goldens export the notes, not an empty workspace');
    return golden.export;
  }

  async importWorkspace(text: string) {
    this.failIfAsked('importWorkspace');
    this.writable();
    this.imported.push(text);
    if (this.library.documents.length > 0) throw golden.error('import_not_empty');
    if (text !== golden.export) throw golden.error('import_not_a_workspace');
    this.use('imported');
    return structuredClone(golden.import);
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
    return this.ollamaURLs[this.ollamaURLs.length - 1] ?? golden.ollama.up.url;
  }

  setOllamaURL(url: string) {
    this.ollamaURLs.push(url);
    this.ollamaStatus = { ...this.ollamaStatus, url };
  }
}
