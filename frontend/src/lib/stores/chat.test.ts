import { describe, expect, it, vi } from 'vitest';
import { FakeWorkbench, golden } from '../../bridge/fake';
import { ChatStore } from './chat.svelte';
import { OllamaStore } from './ollama.svelte';

const model = golden.ollama.up.models[0];
const question = golden.chats.answer.args.question;

async function setup(opts: { up?: boolean } = {}) {
  const wb = new FakeWorkbench({ library: 'notes' });
  if (opts.up === false) wb.ollamaStatus = structuredClone(golden.ollama.notRunning);
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
    let steps = 0;
    // Held after the manifest and two pieces of text.
    wb.step = () => (++steps === 3 ? hold : Promise.resolve());

    chat.draft = question;
    const done = chat.send();
    expect(chat.draft).toBe('');
    await vi.waitFor(() => expect(steps).toBe(3), slow);
    const live = chat.turns[0];
    expect(live.streaming).toBe(true);
    expect(live.manifest).toBe(golden.chats.answer.deltas[0].manifest);
    expect(live.answer).toBe(''); // nothing until the frame
    expect(frames).toHaveLength(1); // two deltas, one frame
    frames.shift()!();
    expect(chat.turns[0].answer).toBe(golden.chats.answer.deltas[1].text + golden.chats.answer.deltas[2].text);

    release();
    await done;
    const turn = chat.turns[0];
    expect(turn.streaming).toBe(false);
    expect(turn.answer).toBe(golden.chats.answer.turn.answer);
    expect(turn.turn?.id).toBe(golden.chats.answer.turn.id);
    expect(turn.error).toBeNull();
    expect(chat.conversationId).toBe(golden.chats.answer.turn.conversation);
    expect(chat.streaming).toBeNull();
    expect(wb.chats[0]).toMatchObject({ stream: 's-1', args: { question, model: model.name, window: model.context_length, conversation: '' } });
  });

  it('keeps Ollama’s silence on the live turn until a tool call or text arrives, and drops it at the end', async () => {
    const { wb, chat, frames } = await setup();
    const holds: (() => void)[] = [];
    wb.step = () => new Promise((r) => holds.push(r));
    wb.chatCase = 'tools';
    chat.draft = question;
    const done = chat.send();
    const next = async () => {
      await vi.waitFor(() => expect(holds.length).toBeGreaterThan(0), slow);
      holds.shift()!();
    };
    await vi.waitFor(() => expect(holds).toHaveLength(1), slow); // after the manifest
    const wait = (message: string) => wb.emitChatDelta({ stream: 's-1', text: '', wait: { ...golden.wait, message } });
    wait(golden.wait.message);
    expect(chat.turns[0].waiting).toBe(golden.wait.message);
    await next(); // the tool call
    await vi.waitFor(() => expect(chat.turns[0].tools).toHaveLength(1), slow);
    expect(chat.turns[0].waiting).toBeNull();
    wait('Ollama has paused for 10 s in the middle of its reply.');
    expect(chat.turns[0].waiting).toContain('paused');
    await next(); // the text
    await vi.waitFor(() => expect(frames.length).toBeGreaterThan(0), slow);
    expect(chat.turns[0].waiting).toBeNull();
    wait('Ollama has sent nothing new for 30 s.');
    let finished = false;
    void done.then(() => (finished = true));
    while (!finished) {
      await next();
      await vi.waitFor(() => expect(finished || holds.length > 0).toBe(true), slow);
    }
    expect(chat.turns[0].waiting).toBeNull();
  });

  it('shows tool calls as they arrive', async () => {
    const { wb, chat } = await setup();
    wb.chatCase = 'tools';
    await chat.send(question);
    expect(chat.turns[0].tools.map((t) => t.name)).toEqual(golden.chats.tools.turn.tool_calls?.map((t) => t.name));
    expect(chat.turns[0].tools[0].node_ids).toContain(golden.chats.tools.turn.loaded[0]);
  });

  it('keeps the partial answer with the error when the model fails part way', async () => {
    const { wb, chat } = await setup();
    wb.chatCase = 'broken';
    await chat.send(question);
    expect(chat.turns[0]).toMatchObject({ answer: golden.chats.broken.turn.answer, streaming: false, off: null });
    expect(chat.turns[0].error).toBe(golden.chats.broken.turn.error);
    expect(chat.turns[0].error).toContain('stopped with an error while answering');
  });

  it('says an Ollama that does not answer a turn as the Ollama note, not as an error, and asks Ollama again', async () => {
    const { wb, chat, ollama } = await setup();
    wb.failNext.chat = golden.error('ollama_not_running');
    wb.ollamaStatus = structuredClone(golden.ollama.notRunning); // what asking again finds
    await chat.send(question);
    expect(chat.turns[0].error).toBeNull();
    expect(chat.turns[0].off).toBe(golden.rejection('ollama_not_running').message);
    await vi.waitFor(() => expect(ollama.up).toBe(false), slow);
    expect(ollama.status?.code).toBe('ollama_not_running');
    expect(chat.blocked).toBe(golden.ollama.notRunning.problem);
  });

  it('is disabled, with the problem, when Ollama is down', async () => {
    const { wb, chat, ollama } = await setup({ up: false });
    chat.draft = 'anything';
    expect(chat.canSend).toBe(false);
    expect(chat.blocked).toContain('not running');
    await chat.send();
    expect(wb.chats).toHaveLength(0);

    wb.ollamaStatus = structuredClone(golden.ollama.up);
    await ollama.refresh();
    expect(chat.canSend).toBe(true);
  });

  it('stops a streaming answer and keeps what came', async () => {
    const { wb, chat, frames } = await setup();
    let release!: () => void;
    let steps = 0;
    wb.step = () => (++steps === 2 ? new Promise((r) => (release = r)) : Promise.resolve());
    const done = chat.send(question);
    await vi.waitFor(() => expect(steps).toBe(2), slow);
    await chat.stop();
    expect(wb.cancelledStreams).toEqual(['s-1']);
    release();
    await done;
    frames.forEach((f) => f());
    expect(chat.turns[0].answer).toBe(golden.chats.stopped.turn.answer);
    // The engine ends a stopped turn with the cancelled request's error;
    // the person stopped it, so the page says so as a note.
    expect(golden.chats.stopped.turn.error).toBeTruthy();
    expect(chat.turns[0].error).toBeNull();
    expect(chat.turns[0].notes.join(' ')).toContain('Stopped');
  });

  it('lists, reopens and starts conversations', async () => {
    const { wb, chat } = await setup();
    await chat.send(question);
    await vi.waitFor(() => expect(chat.conversations).toEqual(golden.conversations), slow);
    const id = chat.conversationId;
    expect(id).toBe(golden.conversation.id);
    chat.newConversation();
    expect(chat.turns).toEqual([]);
    expect(chat.conversationId).toBe('');
    await chat.open(id);
    expect(chat.turns.map((t) => t.question)).toEqual(golden.conversation.turns.map((t) => t.question));
    expect(chat.conversationId).toBe(id);
    await chat.send('And how fast?');
    expect(wb.chats[1].args.conversation).toBe(id);
  });
});
