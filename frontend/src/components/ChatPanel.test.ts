import { describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, within } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import ChatPanel from './ChatPanel.svelte';
import { FakeWorkbench, golden } from '../bridge/fake';
import { ChatStore } from '../lib/stores/chat.svelte';
import { OllamaStore } from '../lib/stores/ollama.svelte';
import type { ChatTurn } from '../bridge/types';
import { fromPromptId } from '../lib/nodeids';

const question = golden.chats.answer.args.question;

/** An answer as the page shows it: each node id it cites replaced by that node's cite. */
// The answer as the page shows it: each id the model wrote (whole or the
// prompt's shortened form, in letters inside brackets) replaced by its cite.
const shown = (turn: ChatTurn) =>
  Object.entries(turn.cites ?? {}).reduce(
    (text, [id, cite]) =>
      text
        .replace(/\bn-[0-9a-f]{4,16}\b/g, (m) => (id.startsWith(m) ? cite : m))
        .replace(/(?<=\[)[a-z]{3,16}(?=\])/g, (m) => (id.startsWith(fromPromptId(m) ?? '-') ? cite : m)),
    turn.answer,
  );

async function setup() {
  const wb = new FakeWorkbench({ library: 'notes' });
  const ollama = new OllamaStore(wb);
  await ollama.refresh();
  const frames: (() => void)[] = [];
  const chat = new ChatStore(wb, ollama, undefined, { schedule: (f) => frames.push(f), streamId: () => 'stream-1' });
  chat.start();
  const onselect = vi.fn();
  const oncite = vi.fn();
  render(ChatPanel, { chat, ollama, onselect, oncite });
  return { wb, chat, frames, onselect, oncite };
}

// The machine may be busy: wait longer than the defaults before failing.
configure({ asyncUtilTimeout: 5000 });
const slow = { timeout: 5000 };

describe('ChatPanel', { timeout: 30_000 }, () => {
  it('streams the answer into the log, with the manifest and the tool calls as they come', async () => {
    const { wb, frames, oncite } = await setup();
    const played = golden.chats.tools;
    const tool = played.turn.tool_calls![0];
    let release!: () => void;
    let steps = 0;
    // Held after the manifest, the tool call and two pieces of text.
    wb.step = () => (++steps === 4 ? new Promise((r) => (release = r)) : Promise.resolve());
    wb.chatCase = 'tools';
    const input = screen.getByTestId('chat-input');
    await fireEvent.input(input, { target: { value: question } });
    await fireEvent.keyDown(input, { key: 'Enter' });

    await vi.waitFor(() => expect(steps).toBe(4), slow);
    frames.splice(0).forEach((f) => f());
    flushSync();
    const log = screen.getByTestId('chat-log');
    const turn = within(log).getByTestId('chat-turn');
    expect(turn.dataset.streaming).toBe('true');
    expect(within(turn).getByTestId('chat-answer').textContent).toBe('Staleness decays exponentially ▍'); // the caret: still writing
    expect(within(turn).getByTestId('chat-manifest').textContent).toBe(played.turn.manifest);
    expect(within(turn).getByTestId('chat-tool').textContent).toContain(tool.name);
    expect(within(turn).getByTestId('chat-tool').textContent).toContain(`${tool.tokens} tokens`);
    expect(screen.getByTestId('chat-stop')).toBeTruthy();

    release();
    await vi.waitFor(() => expect(turn.dataset.streaming).toBe('false'), slow);
    expect(within(turn).getByTestId('chat-answer').textContent).toBe(shown(played.turn));
    expect(within(turn).getByTestId('chat-answer').textContent).not.toMatch(/n-[0-9a-f]{16}/);
    // The node the answer cites is a citation, labelled with its source, that opens it.
    const cited = played.turn.loaded[0];
    const link = within(within(turn).getByTestId('chat-answer')).getByTestId('cite-link');
    expect(link.dataset.id).toBe(cited);
    expect(link.textContent).toBe(played.turn.cites![cited]);
    expect(link.textContent).toMatch(/^staleness\.txt L\d+/);
    await fireEvent.click(link);
    expect(oncite).toHaveBeenCalledWith(cited);
    // The tool call's nodes are named by their sources too.
    const toolLinks = within(within(turn).getByTestId('chat-tool')).getAllByTestId('cite-link');
    expect(toolLinks.map((l) => l.textContent)).toEqual(tool.node_ids!.map((id) => tool.cites![id]));
    expect(screen.getByTestId('chat-send')).toBeTruthy();
  });

  it('shows a silent Ollama as a muted line under the answer until the next text comes', async () => {
    const { wb, frames } = await setup();
    let release!: () => void;
    let steps = 0;
    // Held after the wait notice the silent turn opens with.
    wb.step = () => (++steps === 1 ? new Promise((r) => (release = r)) : Promise.resolve());
    wb.chatCase = 'silent';
    const input = screen.getByTestId('chat-input');
    await fireEvent.input(input, { target: { value: question } });
    await fireEvent.keyDown(input, { key: 'Enter' });
    await vi.waitFor(() => expect(steps).toBe(1), slow);

    flushSync();
    const line = screen.getByTestId('chat-waiting');
    expect(line.textContent).toBe(golden.wait.message);
    expect(line.getAttribute('role')).toBe('status');
    expect(line.classList.contains('muted')).toBe(true);

    release();
    await vi.waitFor(() => expect(screen.getByTestId('chat-turn').dataset.streaming).toBe('false'), slow);
    frames.splice(0).forEach((f) => f());
    flushSync();
    expect(screen.queryByTestId('chat-waiting')).toBeNull();
    expect(screen.getByTestId('chat-answer').textContent).toBe(shown(golden.chats.silent.turn));
  });

  it('is off while the workspace is read-only, and says why', async () => {
    const wb = new FakeWorkbench();
    const ollama = new OllamaStore(wb);
    await ollama.refresh();
    const why = 'Read-only: another Loom process is using this workspace: nothing can be added or changed here.';
    const chat = new ChatStore(wb, ollama, undefined, { locked: () => why });
    render(ChatPanel, { chat, ollama });
    const input = screen.getByTestId('chat-input') as HTMLTextAreaElement;
    expect(input.disabled).toBe(true);
    expect(input.placeholder).toBe('Chat is off while the workspace is read-only.');
    expect(input.title).toBe(why);
    const send = screen.getByTestId('chat-send') as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    expect(send.title).toBe(why);
    expect(screen.getByTestId('chat-read-only').textContent).toContain('kept in the workspace');
    chat.draft = 'anything?';
    await chat.send();
    expect(wb.chats).toEqual([]);
  });

  it('keeps the partial answer and shows the error', async () => {
    const { wb } = await setup();
    wb.chatCase = 'broken';
    await fireEvent.input(screen.getByTestId('chat-input'), { target: { value: question } });
    await fireEvent.click(screen.getByTestId('chat-send'));
    const error = await screen.findByTestId('chat-error');
    expect(error.textContent).toBe(golden.chats.broken.turn.error);
    expect(error.getAttribute('role')).toBe('alert');
    expect(screen.getByTestId('chat-answer').textContent).toBe(golden.chats.broken.turn.answer);
  });

  it('says an Ollama that stopped running as a note under the question, not as an error', async () => {
    const { wb } = await setup();
    wb.failNext.chat = golden.error('ollama_not_running');
    wb.ollamaStatus = structuredClone(golden.ollama.notRunning);
    await fireEvent.input(screen.getByTestId('chat-input'), { target: { value: question } });
    await fireEvent.click(screen.getByTestId('chat-send'));
    const off = await screen.findByTestId('chat-off');
    expect(off.getAttribute('role')).toBe('status');
    expect(off.textContent).toBe(golden.rejection('ollama_not_running').message);
    expect(screen.queryByTestId('chat-error')).toBeNull();
    // Ollama was asked again: the panel's note says how to start it.
    const status = await screen.findByTestId('ollama-status');
    expect(status.textContent).toContain(golden.ollama.notRunning.problem);
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });

  it('reopens a saved conversation from the history', async () => {
    const { wb } = await setup();
    await wb.chat(golden.chats.answer.args, 'earlier');
    await fireEvent.click(screen.getByTestId('conversations-toggle'));
    await fireEvent.click(await screen.findByTestId('conversation-item'));
    await vi.waitFor(() => expect(screen.getByTestId('chat-log').textContent).toContain(golden.conversation.turns[0].question), slow);
    expect(screen.getByTestId('chat-answer').textContent).toBe(shown(golden.conversation.turns[0]));
    expect(within(screen.getByTestId('chat-answer')).getByTestId('cite-link').textContent, 'a stored turn keeps its cites').toBe(Object.values(golden.conversation.turns[0].cites ?? {})[0]);
    await fireEvent.click(screen.getByTestId('new-conversation'));
    expect(screen.getByTestId('chat-empty')).toBeTruthy();
  });
});

describe('ChatPanel Ollama URL (web edition)', { timeout: 30_000 }, () => {
  it('shows where Ollama is looked for and sets another URL', async () => {
    const wb = new FakeWorkbench();
    const ollama = new OllamaStore(wb);
    await ollama.refresh();
    const chat = new ChatStore(wb, ollama, undefined, { schedule: (f) => f(), streamId: () => 's' });
    const onollamaurl = vi.fn();
    render(ChatPanel, { chat, ollama, onollamaurl });
    const input = screen.getByTestId('ollama-url') as HTMLInputElement;
    expect(input.value).toBe(golden.ollama.up.url);
    expect((screen.getByTestId('ollama-url-use') as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.focus(input);
    await fireEvent.input(input, { target: { value: 'http://10.0.0.5:11434' } });
    await fireEvent.submit(screen.getByTestId('ollama-url-form'));
    expect(onollamaurl).toHaveBeenCalledWith('http://10.0.0.5:11434');
  });

  it('has no URL field on the desktop', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop' });
    const ollama = new OllamaStore(wb);
    const chat = new ChatStore(wb, ollama);
    render(ChatPanel, { chat, ollama });
    expect(screen.queryByTestId('ollama-url')).toBeNull();
  });

  // Ollama is optional: a first window without it must not greet the
  // person with an error.
  it('says Ollama is not running as information, not as an error', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop' });
    wb.ollamaStatus = structuredClone(golden.ollama.notRunning);
    const ollama = new OllamaStore(wb);
    await ollama.refresh();
    const chat = new ChatStore(wb, ollama);
    render(ChatPanel, { chat, ollama });

    const status = screen.getByTestId('ollama-status');
    expect(status.getAttribute('role')).toBe('status');
    expect(status.classList.contains('failed')).toBe(false);
    expect(status.textContent).toContain('Chat is off; context assembly and Copy prompt work without it.');
    expect(status.querySelector('code')?.textContent).toBe('ollama serve');
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(screen.getByTestId('ollama-indicator').textContent?.trim()).toBe('Ollama off');
    const input = screen.getByTestId('chat-input') as HTMLTextAreaElement;
    expect(input.disabled).toBe(true);
    expect(input.placeholder).toBe('Chat is off while Ollama is not running (see above).');
  });

  it('names the OpenAI-compatible server, picks the settings’ chat model when it has it, and offers no embedding-only model to chat with', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    wb.ollamaStatus = structuredClone(golden.modelServer.status);
    const ollama = new OllamaStore(wb);
    await ollama.refresh();
    const chat = new ChatStore(wb, ollama);
    render(ChatPanel, { chat, ollama });
    expect(screen.getByTestId('ollama-indicator').textContent?.trim()).toBe('LM Studio up');
    const options = [...(screen.getByTestId('chat-model') as HTMLSelectElement).options].map((o) => o.value);
    expect(options).toEqual(['qwen/qwen3-4b', 'google/gemma-3-1b']);
    // The settings name mistral-7b, which LM Studio lacks: the first it has.
    expect(ollama.model).toBe('qwen/qwen3-4b');

    wb.ollamaStatus = { ...structuredClone(golden.modelServer.status), chat_model: 'google/gemma-3-1b' };
    ollama.model = '';
    await ollama.refresh();
    expect(ollama.model).toBe('google/gemma-3-1b');
  });

  it('shows a failed status call as an error', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop' });
    wb.failNext.ollama = golden.error('closed');
    const ollama = new OllamaStore(wb);
    await ollama.refresh();
    render(ChatPanel, { chat: new ChatStore(wb, ollama), ollama });
    const status = screen.getByTestId('ollama-status');
    expect(status.getAttribute('role')).toBe('alert');
    expect(status.textContent).toContain(golden.rejection('closed').message);
  });

  it('shows the CORS advice the engine gives when Ollama refuses the page', async () => {
    const wb = new FakeWorkbench();
    wb.ollamaStatus = structuredClone(golden.ollama.webNotRunning);
    const ollama = new OllamaStore(wb);
    await ollama.refresh();
    const chat = new ChatStore(wb, ollama);
    render(ChatPanel, { chat, ollama, onollamaurl: () => {} });
    const status = screen.getByTestId('ollama-status');
    expect(status.textContent).toContain('CORS');
    expect(status.querySelector('code')?.textContent).toBe('OLLAMA_ORIGINS=http://127.0.0.1:8080 ollama serve');
  });
});
