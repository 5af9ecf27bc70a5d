import { describe, expect, it, vi } from 'vitest';
import { FakeWorkbench } from '../../bridge/fake';
import { ChatStore } from './chat.svelte';
import { OllamaStore } from './ollama.svelte';

async function setup(opts: { up?: boolean } = {}) {
  const wb = new FakeWorkbench({ documents: [{ name: 'a.md', text: '# Staleness\n\nStaleness decays with time.' }] });
  if (opts.up === false) {
    wb.ollamaStatus = {
      url: 'http://127.0.0.1:11434', up: false, models: [],
      problem: 'Ollama is not running at http://127.0.0.1:11434', fix: 'start it with `ollama serve`',
    };
  }
  const ollama = new OllamaStore(wb);
  await ollama.refresh();
  const frames: (() => void)[] = [];
  const chat = new ChatStore(wb, ollama, undefined, { schedule: (f) => frames.push(f), streamId: () => 's-1' });
  chat.start();
  return { wb, ollama, chat, frames };
}

// The machine may be busy: wait longer than the defaults before failing.
const slow = { timeout: 5000 };

describe('ChatStore', { timeout: 30_000 }, () => {
  it('accumulates text deltas once per frame, then the final turn replaces the live one', async () => {
    const { wb, chat, frames } = await setup();
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    wb.chatScript = { chunks: ['Stale', 'ness ', 'decays.'], notes: ['history: 0 turns'] };
    let steps = 0;
    wb.step = () => (++steps === 3 ? hold : Promise.resolve());

    chat.draft = 'How does staleness decay?';
    const done = chat.send();
    expect(chat.draft).toBe('');
    await vi.waitFor(() => expect(steps).toBe(3), slow);
    const live = chat.turns[0];
    expect(live.streaming).toBe(true);
    expect(live.manifest).toContain('[Context loaded:');
    expect(live.answer).toBe(''); // nothing until the frame
    expect(frames).toHaveLength(1); // two deltas, one frame
    frames.shift()!();
    expect(chat.turns[0].answer).toBe('Staleness ');

    release();
    await done;
    const turn = chat.turns[0];
    expect(turn.streaming).toBe(false);
    expect(turn.answer).toBe('Staleness decays.');
    expect(turn.turn?.id).toBeTruthy();
    expect(turn.notes).toEqual(['history: 0 turns']);
    expect(chat.conversationId).toBe(turn.turn?.conversation);
    expect(chat.streaming).toBeNull();
    expect(wb.chats[0]).toMatchObject({ stream: 's-1', req: { question: 'How does staleness decay?', model: 'llama3.2:3b', conversation: '' } });
  });

  it('keeps Ollama’s silence on the live turn until a tool call or text arrives, and drops it at the end', async () => {
    const { wb, chat, frames } = await setup();
    const holds: (() => void)[] = [];
    wb.step = () => new Promise((r) => holds.push(r));
    wb.chatScript = { chunks: ['ok'], tools: [{ round: 1, name: 'catalog', tokens: 10 }] };
    chat.draft = 'q';
    const done = chat.send();
    const next = async () => {
      await vi.waitFor(() => expect(holds.length).toBeGreaterThan(0), slow);
      holds.shift()!();
    };
    await vi.waitFor(() => expect(holds).toHaveLength(1), slow); // after the manifest
    const wait = (message: string) => wb.emitChatDelta({ stream: 's-1', text: '', wait: { url: 'u', task: 't', silent_ns: 1e10, limit_ns: 3e11, stalled: false, midstream: false, message } });
    wait('Waiting for Ollama: nothing yet after 10 s.');
    expect(chat.turns[0].waiting).toBe('Waiting for Ollama: nothing yet after 10 s.');
    await next(); // the tool call
    await vi.waitFor(() => expect(chat.turns[0].tools).toHaveLength(1), slow);
    expect(chat.turns[0].waiting).toBeNull();
    wait('Ollama has paused for 10 s in the middle of its reply.');
    expect(chat.turns[0].waiting).toContain('paused');
    await next(); // the text
    await vi.waitFor(() => expect(frames.length).toBeGreaterThan(0), slow);
    expect(chat.turns[0].waiting).toBeNull();
    wait('Ollama has sent nothing new for 30 s.');
    await next();
    await done;
    expect(chat.turns[0].waiting).toBeNull();
  });

  it('shows tool calls as they arrive', async () => {
    const { wb, chat } = await setup();
    wb.chatScript = { chunks: ['ok'], tools: [{ round: 1, name: 'search_context', args: { query: 'decay' }, node_ids: ['n-1'], tokens: 120 }] };
    await chat.send('why?');
    expect(chat.turns[0].tools.map((t) => t.name)).toEqual(['search_context']);
  });

  it('keeps the partial answer with the error when the model fails part way', async () => {
    const { wb, chat } = await setup();
    wb.chatScript = { chunks: ['Half an ', 'answer'], failure: 'turn-error' };
    await chat.send('why?');
    expect(chat.turns[0]).toMatchObject({ answer: 'Half an answer', streaming: false });
    expect(chat.turns[0].error).toContain('stopped answering');

    wb.chatScript = { chunks: ['Only this'], failure: 'reject' };
    await chat.send('and?');
    expect(chat.turns[1]).toMatchObject({ answer: 'Only this', streaming: false });
    expect(chat.turns[1].error).toContain('connection reset');
  });

  it('is disabled, with the problem, when Ollama is down', async () => {
    const { wb, chat, ollama } = await setup({ up: false });
    chat.draft = 'anything';
    expect(chat.canSend).toBe(false);
    expect(chat.blocked).toContain('not running');
    await chat.send();
    expect(wb.chats).toHaveLength(0);

    wb.ollamaStatus = { url: 'http://127.0.0.1:11434', up: true, models: [{ name: 'm', context_length: 4096, tools: false }] };
    await ollama.refresh();
    expect(chat.canSend).toBe(true);
  });

  it('stops a streaming answer and keeps what came', async () => {
    const { wb, chat, frames } = await setup();
    let release!: () => void;
    wb.chatScript = { chunks: ['one ', 'two ', 'three'] };
    let steps = 0;
    wb.step = () => (++steps === 2 ? new Promise((r) => (release = r)) : Promise.resolve());
    const done = chat.send('q');
    await vi.waitFor(() => expect(steps).toBe(2), slow);
    await chat.stop();
    expect(wb.cancelledStreams).toEqual(['s-1']);
    release();
    await done;
    frames.forEach((f) => f());
    expect(chat.turns[0].answer).toBe('one ');
    expect(chat.turns[0].notes.join(' ')).toContain('Stopped');
  });

  it('lists, reopens and starts conversations', async () => {
    const { wb, chat } = await setup();
    await chat.send('first question');
    await vi.waitFor(() => expect(chat.conversations).toHaveLength(1), slow);
    const id = chat.conversationId;
    chat.newConversation();
    expect(chat.turns).toEqual([]);
    expect(chat.conversationId).toBe('');
    await chat.open(id);
    expect(chat.turns.map((t) => t.question)).toEqual(['first question']);
    expect(chat.conversationId).toBe(id);
    await chat.send('second');
    expect(wb.chats[1].req.conversation).toBe(id);
  });
});
