// The shapes that cross the bridge, exactly as the engine writes them in
// JSON (snake_case, as Go's json tags say). The desktop (Wails) and the web
// (WebAssembly) editions both hand the page these objects, so components
// depend on this file and on workbench.ts only.

/** A document in the workspace (backend/model.Document plus counts). */
export interface DocumentInfo {
  id: string;
  /** Path as ingested, relative to the collection's folder. */
  path: string;
  /** Where the file was read from (absolute on the desktop). */
  source: string;
  collection: string;
  /** Collections the person added the document to by hand. */
  groups?: string[];
  format: string;
  title: string;
  bytes: number;
  /** Content nodes (sections) the document became. */
  nodes: number;
  tokens: number;
  /** RFC 3339. */
  ingested: string;
  /** Pinned documents are always loaded first. */
  pinned: boolean;
}

export interface CollectionInfo {
  name: string;
  documents: number;
  sections: number;
}

/** One file of an ingest, as it goes. */
export type FileState = 'queued' | 'reading' | 'done' | 'unchanged' | 'error';

export interface FileProgress {
  path: string;
  state: FileState;
  /** What went wrong, written for the person (state "error"). */
  problem?: string;
}

/** Sent while an ingest runs (event), and as its final state. */
export interface IngestProgress {
  /** Which ingest this is (one runs at a time). */
  job: string;
  files_done: number;
  files_total: number;
  bytes_done: number;
  bytes_total: number;
  /** The file being read now ("" between files and at the end). */
  current: string;
  /** Every file seen so far with its state (errors included). */
  files: FileProgress[];
  /** True once the ingest has ended (also when cancelled or failed). */
  finished: boolean;
  canceled?: boolean;
  /** Set when the whole ingest failed (not one file). */
  error?: string;
}

export interface IngestReport {
  /** The job its progress events carry. */
  job?: string;
  files: number;
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  nodes: number;
  concepts_created: number;
  bytes: number;
  embedder: string;
  duration_ns: number;
  canceled: boolean;
  /** One entry per file that could not be ingested. */
  errors: { path: string; problem: string }[];
}

/** A file the page read itself (browser file input or HTML5 drop). */
export interface Upload {
  /** File name, or relative path for a dropped folder (a/b/c.md). */
  name: string;
  text: string;
}

/** Graph for the graph view: every concept and content node, and edges. */
export interface GraphNode {
  id: string;
  kind: 'concept' | 'content';
  label: string;
  /** Content nodes: input | output | analysis. */
  source?: string;
  document?: string;
  collection?: string;
  tokens?: number;
  pinned?: boolean;
}

export type EdgeKind = 'about' | 'related' | 'parent' | 'links' | 'derived';

export interface GraphEdge {
  source: string;
  target: string;
  kind: EdgeKind;
  weight: number;
}

export interface GraphData {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Generation of the workspace the graph was read at. */
  generation: number;
}

/** Everything the details panel shows for one node. */
export interface NodeDetail {
  id: string;
  kind: 'concept' | 'content';
  label: string;
  /** Content nodes: reference such as "loom-concept.md §6.2 Loading Decision Tree". */
  reference?: string;
  document?: string;
  collection?: string;
  source?: string;
  tokens?: number;
  pinned?: boolean;
  /** Content: the section's text; concept: its description. */
  text: string;
  /** Concepts the node is about (content) or related concepts (concept). */
  concepts: { id: string; name: string; similarity: number }[];
  /** Adjacent nodes of any kind. */
  neighbours: { id: string; label: string; kind: 'concept' | 'content'; edge: EdgeKind; weight: number }[];
}

export type Purpose = 'answer' | 'verify' | 'explore' | 'decide' | 'create';
export type LevelName = 'adaptive' | 'detailed' | 'summary' | 'essence';

export interface QueryRequest {
  question: string;
  /** Context budget in tokens; wins over window and model. */
  budget?: number;
  /** The model's whole window. */
  window?: number;
  /** A model whose window Ollama reports. */
  model?: string;
  purpose?: Purpose;
  level?: LevelName;
  /** A collection, or "" / "all". */
  scope?: string;
}

export interface Signals {
  semantic: number;
  hop: number;
  staleness: number;
  size: number;
  provenance: number;
  density: number;
  trust: number;
  novelty: number;
}

export type Weights = Signals;

export interface Candidate {
  id: string;
  reference: string;
  ancestors?: string[];
  title: string;
  document: string;
  collection: string;
  source: string;
  tokens: number;
  summary_tokens?: number;
  essence_tokens?: number;
  chunk_tokens?: number;
  summary_cached?: boolean;
  keyword: number;
  cosine: number;
  /** Edges from the question's best concepts; −1 unreachable. */
  hops: number;
  signals: Signals;
  score: number;
  pinned?: boolean;
  relevant: boolean;
  loaded: boolean;
  level?: 'detailed' | 'summary' | 'essence' | 'chunks';
  loaded_tokens?: number;
  /** Why it was or was not loaded, in words. */
  reason: string;
  /** Why its stored text cannot be read (missing or damaged): it was left out. */
  unavailable?: string;
}

/** How the window is shared out (backend/assemble.Split). */
export interface BudgetSplit {
  window: number;
  window_source: string;
  system: number;
  question: number;
  output: number;
  output_share: number;
  /** context = manifest + catalog + loaded + free */
  context: number;
  manifest: number;
  catalog: number;
  loaded: number;
  free: number;
}

export interface QueryResult {
  question: string;
  purpose: string;
  level: string;
  strategy: string;
  query_type: string;
  complexity: number;
  embedder: string;
  weights: Weights;
  budget: BudgetSplit;
  /** The decision-tree branch taken. */
  branch: string;
  /** The manifest header exactly as the model sees it. */
  manifest: string;
  catalog?: string;
  /** The whole assembled prompt (what "copy prompt" copies). */
  prompt: string;
  prompt_tokens: number;
  loaded: number;
  relevant: number;
  not_loaded: number;
  seed_concepts: { id: string; name: string; similarity: number }[];
  candidates: Candidate[];
  /** Hop distance of every concept reached from the seed concepts (seeds are 0). */
  concept_hops: Record<string, number>;
  timing: Record<string, number>;
  /** What the question could not use: nodes left out because their stored text is missing or damaged. */
  warnings?: string[];
}

export interface ModelInfo {
  name: string;
  context_length: number;
  tools: boolean;
}

/** Whether Ollama answers at the configured URL. */
export interface OllamaStatus {
  url: string;
  up: boolean;
  models: ModelInfo[];
  /** When down: what happened, and what to do about it. */
  problem?: string;
  fix?: string;
}

export interface ToolCall {
  round: number;
  name: string;
  args?: Record<string, unknown>;
  node_ids?: string[];
  tokens: number;
  trimmed?: boolean;
  error?: string;
}

export interface ChatRequest {
  /** Continue this conversation ("" starts one). */
  conversation?: string;
  question: string;
  model: string;
  window?: number;
  purpose?: Purpose;
  level?: LevelName;
  scope?: string;
  /** Leave tools out. */
  no_tools?: boolean;
}

export interface ChatTurn {
  id: string;
  conversation: string;
  question: string;
  answer: string;
  model: string;
  asked: string;
  answered: string;
  manifest: string;
  budget: BudgetSplit;
  window: number;
  /** Ids of the nodes loaded into the turn's context. */
  loaded: string[];
  tool_calls?: ToolCall[];
  history_turns: number;
  history_dropped: number;
  prompt_eval_count: number;
  estimated_prompt_tokens: number;
  truncated?: boolean;
  notes?: string[];
  /** Set when the model failed part way; answer keeps what came. */
  error?: string;
  answer_nodes?: string[];
}

/** Sent while an answer streams (batched, a few per second). */
export interface ChatDelta {
  /** The request's stream id (ChatRequest gets one from the bridge). */
  stream: string;
  /** Text appended since the last delta. */
  text: string;
  /** A tool call that just ran, if any. */
  tool?: ToolCall;
  /** The manifest of the context assembled for this turn, sent once before the answer. */
  manifest?: string;
  loaded?: string[];
  /** Ollama has sent nothing for a while (the model lookup or the answer): shown until the next text or tool call. */
  wait?: WaitNotice;
}

/** A wait on a silent Ollama (backend/chat/wait.Notice). */
export interface WaitNotice {
  url: string;
  model?: string;
  task: string;
  /** How long nothing has arrived (10 s, 30 s, 1 min, …), in nanoseconds. */
  silent_ns: number;
  /** The silence at which Loom gives up (0: never), in nanoseconds. */
  limit_ns: number;
  /** 30 s or more: the model may be loading or stuck. */
  stalled: boolean;
  /** Something had arrived before this silence. */
  midstream: boolean;
  /** The notice as a sentence for the person. */
  message: string;
}

/** Why the workspace is open read-only, and what to do (bind.ReadOnlyState). */
export interface ReadOnlyState {
  /** The engine's reason. */
  reason: string;
  /** Another Loom process holds the workspace: Try again may find it free. */
  in_use: boolean;
  /** Short, for tooltips: "Read-only: another Loom process is using this workspace". */
  title: string;
  /** The banner's sentence: why, what it means, what to do. */
  message: string;
}

/** One part of the workspace as the doctor found it (backend.Finding). */
export interface Finding {
  part: string;
  status: 'ok' | 'note' | 'problem';
  detail: string;
  /** What Repair does about it. */
  repair?: string;
}

/** A section whose stored text cannot be read (backend.LostText). */
export interface LostText {
  node: string;
  reference: string;
  document: string;
  problem: string;
  /** The file that still holds the text (Repair reads it back from there). */
  source?: string;
  /** A summary a question made (made again when needed). */
  summary?: boolean;
}

/** What Check workspace found (backend.Checkup). */
export interface Checkup {
  workspace: string;
  findings: Finding[];
  /** How the graph store read: ok, in use, damaged, missing, unfinished. */
  store: string;
  lost_texts?: LostText[];
}

/** What Repair did (backend.RepairReport). */
export interface RepairReport {
  /** The repaired workspace's folder. */
  workspace: string;
  /** The graph was salvaged into a fresh workspace (rather than mended in place). */
  salvaged: boolean;
  /** Where the damaged workspace was kept. */
  damaged_copy?: string;
  actions: string[];
  lost?: string[];
  /** The doctor's check of the result. */
  after?: Checkup;
}

export interface ConversationSummary {
  id: string;
  title: string;
  turns: number;
  updated: string;
}

export interface Conversation {
  id: string;
  title: string;
  created: string;
  updated: string;
  turns: ChatTurn[];
}
