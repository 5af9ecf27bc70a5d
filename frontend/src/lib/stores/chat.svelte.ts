// The chat: turns as they stream (text deltas coalesced into one update per
// animation frame), the turn's manifest and tool calls as they arrive, the
// final ChatTurn once the answer is done, and the saved conversations.
import { toWorkbenchError, WorkbenchError, type Workbench } from '../../bridge/workbench';
import type { ChatDelta, ChatTurn, ConversationSummary, ToolCall } from '../../bridge/types';
import { ollamaCodes, writeFailure } from '../errors';
import type { OllamaStore } from './ollama.svelte';
import type { QueryStore } from './query.svelte';

/** One question and its answer as the chat log shows it. */
export interface LiveTurn {
  /** The stream id while it streams, the turn id once loaded from a conversation. */
  key: string;
  question: string;
  answer: string;
  model: string;
  manifest: string;
  loaded: string[];
  tools: ToolCall[];
  /** The cites of the nodes the turn names (loaded, from tools), by id: its citations' labels. */
  cites: Record<string, string>;
  streaming: boolean;
  notes: string[];
  truncated: boolean;
  /** What went wrong, for the person; the answer keeps what came before. */
  error: string | null;
  /** Ollama could not answer (not running, too slow, …): said as information, like the Ollama note, not as an error. */
  off: string | null;
  /** The engine's turn once the answer is done. */
  turn: ChatTurn | null;
  /** Ollama has been silent for a while (its sentence); cleared by the next text or tool call and at the end. */
  waiting: string | null;
}

/** Every cite a turn carries: those of its context and of its tool calls. */
function turnCites(t: ChatTurn): Record<string, string> {
  return Object.assign({}, ...(t.tool_calls ?? []).map((c) => c.cites ?? {}), t.cites ?? {});
}

function fromTurn(t: ChatTurn): LiveTurn {
  return {
    key: t.id,
    question: t.question,
    answer: t.answer,
    model: t.model,
    manifest: t.manifest,
    loaded: t.loaded ?? [],
    tools: t.tool_calls ?? [],
    cites: turnCites(t),
    streaming: false,
    notes: t.notes ?? [],
    truncated: t.truncated ?? false,
    error: t.error ?? null,
    off: null,
    turn: t,
    waiting: null,
  };
}

type Schedule = (flush: () => void) => void;

const nextFrame: Schedule = (flush) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => flush());
  else setTimeout(flush, 16);
};

let streams = 0;
function streamId(): string {
  return `chat-${Date.now().toString(36)}-${(++streams).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export class ChatStore {
  turns: LiveTurn[] = $state([]);
  /** The conversation the next question continues ("" starts one). */
  conversationId = $state('');
  conversations: ConversationSummary[] = $state([]);
  /** The stream of the answer coming in now. */
  streaming: string | null = $state(null);
  draft = $state('');
  /** Listing or opening conversations failed. */
  error: WorkbenchError | null = $state(null);
  opening = $state(false);

  private pending = new Map<string, string>();
  /** Streams the person stopped. */
  private stopped = new Set<string>();
  private flushQueued = false;
  private readonly schedule: Schedule;
  private readonly newStreamId: () => string;

  constructor(
    private readonly workbench: Workbench,
    private readonly ollama: OllamaStore,
    private readonly query?: QueryStore,
    opts: {
      schedule?: Schedule;
      streamId?: () => string;
      /** Why writes are off (the workspace is read-only: a chat saves its conversation), or null. */
      locked?: () => string | null;
      /** A turn found the workspace read-only although locked said nothing: read the workspace again. */
      onReadOnly?: () => void;
    } = {},
  ) {
    this.schedule = opts.schedule ?? nextFrame;
    this.newStreamId = opts.streamId ?? streamId;
    this.locked = opts.locked ?? (() => null);
    this.onReadOnly = opts.onReadOnly ?? (() => {});
  }

  private readonly onReadOnly: () => void;

  private readonly locked: () => string | null;

  /** Why chat is off because the workspace is read-only (it keeps conversations there), or null. */
  get readOnly(): string | null {
    return this.locked();
  }

  /** Why sending is not possible now, or null when it is. */
  get blocked(): string | null {
    const locked = this.locked();
    if (locked) return locked;
    if (this.ollama.checking && !this.ollama.status) return 'Checking the model server…';
    if (this.ollama.error) return this.ollama.error.message;
    if (!this.ollama.status) return 'The model server has not answered yet.';
    if (!this.ollama.up) return this.ollama.status.problem ?? `${this.ollama.server} is not running at ${this.ollama.status.url}.`;
    if (this.ollama.chatModels.length === 0)
      return this.ollama.status.provider === 'openai'
        ? `${this.ollama.server} lists no chat model: load one in it.`
        : 'Ollama has no models: pull one with `ollama pull llama3.2`.';
    if (!this.ollama.selected) return 'Pick a model to chat with.';
    if (this.streaming) return 'An answer is still coming.';
    return null;
  }

  get canSend(): boolean {
    return this.blocked === null && this.draft.trim() !== '';
  }

  /** Subscribes to the chat stream; returns the unsubscribe. */
  start(): () => void {
    return this.workbench.onChatDelta((d) => this.receive(d));
  }

  private live(stream: string): LiveTurn | undefined {
    return this.turns.find((t) => t.key === stream && t.streaming);
  }

  private receive(d: ChatDelta) {
    const turn = this.live(d.stream);
    if (!turn) return;
    if (d.manifest !== undefined) turn.manifest = d.manifest;
    if (d.loaded) turn.loaded = d.loaded;
    if (d.cites) turn.cites = { ...turn.cites, ...d.cites };
    if (d.wait) turn.waiting = d.wait.message;
    if (d.tool) {
      turn.tools.push(d.tool);
      if (d.tool.cites) turn.cites = { ...turn.cites, ...d.tool.cites };
      turn.waiting = null;
    }
    if (d.text) {
      turn.waiting = null;
      this.pending.set(d.stream, (this.pending.get(d.stream) ?? '') + d.text);
      if (!this.flushQueued) {
        this.flushQueued = true;
        this.schedule(() => this.flush());
      }
    }
  }

  /** Appends the text that came since the last frame. */
  flush(): void {
    this.flushQueued = false;
    for (const [stream, text] of this.pending) {
      const turn = this.live(stream);
      if (turn) turn.answer += text;
    }
    this.pending.clear();
  }

  /** Sends the draft (or the question given) to the picked model. */
  async send(question = this.draft): Promise<void> {
    const q = question.trim();
    if (q === '' || this.blocked !== null) return;
    const model = this.ollama.selected;
    if (!model) return;
    const stream = this.newStreamId();
    this.turns.push({
      key: stream, question: q, answer: '', model: model.name, manifest: '', loaded: [], tools: [], cites: {},
      streaming: true, notes: [], truncated: false, error: null, off: null, turn: null, waiting: null,
    });
    this.streaming = stream;
    if (question === this.draft) this.draft = '';
    try {
      const final = await this.workbench.chat(
        {
          conversation: this.conversationId,
          question: q,
          model: model.name,
          window: model.context_length,
          purpose: this.query?.purpose,
          level: this.query?.level,
          scope: this.query?.scope || undefined,
        },
        stream,
      );
      this.flush();
      const turn = this.live(stream);
      if (turn) {
        Object.assign(turn, fromTurn(final), {
          key: stream,
          answer: final.answer || turn.answer,
          manifest: final.manifest || turn.manifest,
          loaded: final.loaded?.length ? final.loaded : turn.loaded,
          tools: final.tool_calls?.length ? final.tool_calls : turn.tools,
          cites: { ...turn.cites, ...turnCites(final) },
        });
        // A turn the person stopped ends with the engine's error of a
        // cancelled request: it is what they asked for, so a note says so.
        if (this.stopped.delete(stream)) {
          turn.error = null;
          turn.notes = [...turn.notes, 'Stopped: the answer is what came before.'];
        }
      }
      if (final.conversation) this.conversationId = final.conversation;
      void this.listConversations();
    } catch (reason) {
      this.flush();
      const err = writeFailure(toWorkbenchError(reason));
      const turn = this.live(stream);
      if (turn) {
        // Ollama that cannot answer is the chat being off, as the Ollama
        // note says (asked again, so it says why now); anything else is an
        // error of this turn.
        if (ollamaCodes.includes(err.code)) turn.off = err.message;
        else turn.error = err.detail ? `${err.message} (${err.detail})` : err.message;
        turn.streaming = false;
        turn.waiting = null;
      }
      if (ollamaCodes.includes(err.code)) void this.ollama.refresh();
      if (err.code === 'read_only') this.onReadOnly();
    } finally {
      this.stopped.delete(stream);
      if (this.streaming === stream) this.streaming = null;
    }
  }

  /** Stops the answer coming in; what came stays. */
  async stop(): Promise<void> {
    const stream = this.streaming;
    if (!stream) return;
    this.stopped.add(stream);
    try {
      await this.workbench.cancelChat(stream);
    } catch (reason) {
      this.error = toWorkbenchError(reason);
    }
  }

  newConversation(): void {
    if (this.streaming) return;
    this.conversationId = '';
    this.turns = [];
    this.error = null;
  }

  async listConversations(): Promise<void> {
    try {
      this.conversations = await this.workbench.conversations();
    } catch (reason) {
      this.error = toWorkbenchError(reason);
    }
  }

  /** Shows a saved conversation; the next question continues it. */
  async open(id: string): Promise<void> {
    if (this.streaming) {
      this.error = new WorkbenchError('busy', 'Wait for the answer (or stop it) before opening another conversation.');
      return;
    }
    this.opening = true;
    try {
      const c = await this.workbench.conversation(id);
      this.turns = c.turns.map(fromTurn);
      this.conversationId = c.id;
      this.error = null;
    } catch (reason) {
      this.error = toWorkbenchError(reason);
    } finally {
      this.opening = false;
    }
  }
}
