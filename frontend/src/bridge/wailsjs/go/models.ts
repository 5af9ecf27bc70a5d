export namespace assemble {
	
	export interface Candidate {
	    id: string;
	    short_id?: string;
	    reference: string;
	    cite?: string;
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
	    hops: number;
	    signals: number[];
	    score: number;
	    pinned?: boolean;
	    relevant: boolean;
	    loaded: boolean;
	    level?: string;
	    loaded_tokens?: number;
	    reason: string;
	    unavailable?: string;
	    stale?: string;
	    repeats?: string;
	}
	export interface Limits {
	    min_budget: number;
	    max_budget: number;
	}
	export interface Split {
	    window: number;
	    window_source: string;
	    system: number;
	    question: number;
	    output: number;
	    output_share: number;
	    context: number;
	    manifest: number;
	    catalog: number;
	    loaded: number;
	    free: number;
	}

}

export namespace bind {
	
	export interface ChatArgs {
	    conversation?: string;
	    question: string;
	    model: string;
	    window?: number;
	    purpose?: string;
	    level?: string;
	    scope?: string;
	    no_tools?: boolean;
	}
	export interface FileProblem {
	    path: string;
	    problem: string;
	}
	export interface SkippedFile {
	    path: string;
	    reason: string;
	}
	export interface IngestResult {
	    files: number;
	    added: number;
	    updated: number;
	    unchanged: number;
	    unread: number;
	    reread?: number;
	    removed: number;
	    nodes: number;
	    concepts_created: number;
	    bytes: number;
	    embedder: string;
	    duration_ns: number;
	    canceled: boolean;
	    hidden: number;
	    job: string;
	    errors: FileProblem[];
	    skipped: SkippedFile[];
	    warnings: FileProblem[];
	    watchable?: string[];
	}
	export interface MCPStatus {
	    available: boolean;
	    unavailable?: string;
	    on: boolean;
	    serving: boolean;
	    problem?: string;
	    url?: string;
	    note?: string;
	    token?: string;
	    token_file?: string;
	    read_only: boolean;
	    tools?: string[];
	    http_config?: string;
	    stdio_command?: string;
	    stdio_config?: string;
	}
	export interface MissingModel {
	    name: string;
	    use: string;
	    fix: string;
	}
	export interface ModelInfo {
	    name: string;
	    context_length: number;
	    server_window?: number;
	    tools: boolean;
	    embedding: boolean;
	    completion: boolean;
	    vision: boolean;
	    thinking: boolean;
	    unknown?: string[];
	    max_budget: number;
	    embedder_id?: string;
	}
	export interface ModelServerSettings {
	    available: boolean;
	    unavailable?: string;
	    provider: string;
	    ollama_url: string;
	    openai_url: string;
	    default_ollama_url: string;
	    default_openai_url: string;
	    api_key?: string;
	    forget_api_key?: boolean;
	    has_api_key: boolean;
	    chat_model: string;
	    embed_model: string;
	    context_length: number;
	}
	export interface OllamaStatus {
	    provider: string;
	    server: string;
	    url: string;
	    up: boolean;
	    models: ModelInfo[];
	    chat_model?: string;
	    embed_model?: string;
	    missing?: MissingModel[];
	    code?: string;
	    problem?: string;
	    fix?: string;
	}
	export interface ReadOnlyState {
	    reason: string;
	    in_use: boolean;
	    title: string;
	    message: string;
	}
	
	export interface WatchedFolder {
	    path: string;
	    state: string;
	    // Go type: time
	    since: any;
	    // Go type: time
	    last_sync?: any;
	    added: number;
	    changed: number;
	    removed: number;
	    unchanged: number;
	    errors: number;
	    problems?: FileProblem[];
	    warnings?: FileProblem[];
	    error?: string;
	    files_done?: number;
	    files_total?: number;
	    current?: string;
	    stage?: string;
	}
	export interface WorkspaceState {
	    dir: string;
	    stats: workspace.Stats;
	    read_only?: ReadOnlyState;
	}

}

export namespace chat {
	
	export interface ToolCall {
	    round: number;
	    name: string;
	    args?: Record<string, any>;
	    node_ids?: string[];
	    cites?: Record<string, string>;
	    tokens: number;
	    trimmed?: boolean;
	    error?: string;
	    duration_ns: number;
	}

}

export namespace conversation {
	
	export interface ChatTurn {
	    id: string;
	    conversation: string;
	    question: string;
	    answer: string;
	    model: string;
	    // Go type: time
	    asked: any;
	    // Go type: time
	    answered: any;
	    manifest: string;
	    split: assemble.Split;
	    window: number;
	    loaded: string[];
	    tool_calls?: chat.ToolCall[];
	    cites?: Record<string, string>;
	    history_turns: number;
	    history_dropped: number;
	    prompt_eval_count: number;
	    estimated_prompt_tokens: number;
	    truncated?: boolean;
	    notes?: string[];
	    error?: string;
	    answer_nodes?: string[];
	}
	export interface Conversation {
	    id: string;
	    title: string;
	    // Go type: time
	    created: any;
	    // Go type: time
	    updated: any;
	    turns: ChatTurn[];
	}
	export interface ConversationSummary {
	    id: string;
	    title: string;
	    turns: number;
	    // Go type: time
	    updated: any;
	}

}

export namespace doctor {
	
	export interface LostText {
	    node: string;
	    reference: string;
	    document: string;
	    problem: string;
	    source?: string;
	    summary?: boolean;
	}
	export interface Finding {
	    part: string;
	    status: string;
	    detail: string;
	    repair?: string;
	}
	export interface Checkup {
	    workspace: string;
	    findings: Finding[];
	    store: string;
	    lost_texts?: LostText[];
	    repeated?: string[];
	    superseded?: string[];
	    unnamed_texts?: number;
	}
	
	
	export interface RepairReport {
	    workspace: string;
	    salvaged: boolean;
	    damaged_copy?: string;
	    actions: string[];
	    lost?: string[];
	    after?: Checkup;
	}

}

export namespace library {
	
	export interface ClusterLink {
	    source: string;
	    target: string;
	    weight: number;
	    edges: number;
	}
	export interface CollectionInfo {
	    name: string;
	    documents: number;
	    sections: number;
	}
	export interface ConceptLink {
	    id: string;
	    name: string;
	    similarity: number;
	}
	export interface DocumentInfo {
	    id: string;
	    key: string;
	    path: string;
	    collection: string;
	    format: string;
	    title: string;
	    hash: string;
	    bytes: number;
	    // Go type: time
	    ingested: any;
	    // Go type: time
	    modified: any;
	    groups?: string[];
	    meta: model.DocMeta;
	    reader?: number;
	    source: string;
	    nodes: number;
	    tokens: number;
	    pinned: boolean;
	}
	export interface GraphCluster {
	    id: string;
	    name: string;
	    colour: number;
	    concepts: number;
	    sections: number;
	    documents: number;
	    top: string[];
	}
	export interface GraphEdge {
	    source: string;
	    target: string;
	    kind: string;
	    weight: number;
	}
	export interface GraphNode {
	    id: string;
	    kind: string;
	    label: string;
	    source?: string;
	    document?: string;
	    collection?: string;
	    tokens?: number;
	    pinned?: boolean;
	    cluster?: string;
	}
	export interface GraphData {
	    nodes: GraphNode[];
	    edges: GraphEdge[];
	    generation: number;
	    clusters: GraphCluster[];
	    clusterLinks: ClusterLink[];
	}
	
	
	export interface Location {
	    document: string;
	    path: string;
	    collection: string;
	    format: string;
	    key: string;
	    page_start: number;
	    page_end: number;
	    line_start: number;
	    line_end: number;
	}
	export interface Neighbour {
	    id: string;
	    label: string;
	    kind: string;
	    edge: string;
	    weight: number;
	}
	export interface NodeDetail {
	    id: string;
	    kind: string;
	    label: string;
	    reference?: string;
	    cite?: string;
	    location?: Location;
	    document?: string;
	    collection?: string;
	    source?: string;
	    tokens?: number;
	    pinned?: boolean;
	    text: string;
	    concepts: ConceptLink[];
	    neighbours: Neighbour[];
	}
	export interface ReembedReport {
	    from: string;
	    to: string;
	    dims: number;
	    nodes: number;
	    embedded: number;
	    concepts: number;
	    duration_ns: number;
	}
	export interface SourceDocument {
	    id: string;
	    path: string;
	    collection: string;
	    format: string;
	    title: string;
	    key: string;
	    meta: model.DocMeta;
	    file: boolean;
	}
	export interface SourceSection {
	    id: string;
	    heading_path: string[];
	    cite: string;
	    page_start: number;
	    page_end: number;
	    line_start: number;
	    line_end: number;
	    part: number;
	    parts: number;
	    text: string;
	    unavailable?: string;
	    omitted?: boolean;
	}
	export interface SourceView {
	    document: SourceDocument;
	    sections: SourceSection[];
	    focus: string;
	    cite: string;
	}
	export interface Upload {
	    name: string;
	    text: string;
	    data?: number[];
	}

}

export namespace model {
	
	export interface DocMeta {
	    aliases?: string[];
	    tags?: string[];
	    authors?: string[];
	    year?: string;
	    venue?: string;
	    doi?: string;
	    arxiv?: string;
	    pages?: number;
	    bibkey?: string;
	    language?: string;
	    ids?: string[];
	}

}

export namespace query {
	
	export interface ConceptHit {
	    id: string;
	    name: string;
	    similarity: number;
	}
	export interface QueryRequest {
	    question: string;
	    budget?: number;
	    window?: number;
	    model?: string;
	    purpose?: string;
	    level?: string;
	    strategy?: string;
	    scope?: string;
	    pin?: string[];
	    candidates?: number;
	    top?: number;
	    no_touch?: boolean;
	    no_catalog?: boolean;
	}
	export interface Timing {
	    classify_us: number;
	    candidates_us: number;
	    score_us: number;
	    select_us: number;
	    assemble_us: number;
	    total_us: number;
	}
	export interface QueryResult {
	    question: string;
	    purpose: string;
	    level: string;
	    strategy: string;
	    query_type: string;
	    complexity: number;
	    embedder: string;
	    weights: number[];
	    split: assemble.Split;
	    branch: string;
	    manifest: string;
	    catalog?: string;
	    prompt: string;
	    prompt_tokens: number;
	    loaded: number;
	    relevant: number;
	    not_loaded: number;
	    near?: number;
	    relevance_budget?: number;
	    seed_concepts: ConceptHit[];
	    limits: assemble.Limits;
	    concept_hops: Record<string, number>;
	    candidates: assemble.Candidate[];
	    timing: Timing;
	    warnings?: string[];
	}

}

export namespace workspace {
	
	export interface Stats {
	    workspace: string;
	    backend: string;
	    documents: number;
	    content_nodes: number;
	    concept_nodes: number;
	    edges: number;
	    tokens: number;
	    embedder: string;
	    embedder_in_use?: string;
	    embedder_choice?: string;
	    embedder_dims?: number;
	    full_encoder?: boolean;
	    generation: number;
	    read_only?: string;
	    read_only_cause?: string;
	}

}

