import { describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, within } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import ChatPanel from './ChatPanel.svelte';
import { FakeWorkbench } from '../bridge/fake';
import { ChatStore } from '../lib/stores/chat.svelte';
import { OllamaStore } from '../lib/stores/ollama.svelte';
import { WorkbenchError } from '../bridge/workbench';
import type { WaitNotice } from '../bridge/types';

async function setup() {
  const wb = new FakeWorkbench({ documents: [{ name: 'a.md', text: '# Staleness\n\nStaleness decays with time.' }] });
  const ollama = new OllamaStore(wb);
  await ollama.refresh();
  const frames: (() => void)[] = [];
  const chat = new ChatStore(wb, ollama, undefined, { schedule: (f) => frames.push(f), streamId: () => 'stream-1' });
  chat.start();
  const onselect = vi.fn();
  render(ChatPanel, { chat, ollama, onselect });
  return { wb, chat, frames, onselect };
}

// The machine may be busy: wait longer than the defaults before failing.
configure({ asyncUtilTimeout: 5000 });
const slow = { timeout: 5000 };

const WAIT: WaitNotice = {
  url: 'http://127.0.0.1:11434',
  model: 'llama3.2:3b',
  task: 'answer with model llama3.2:3b',
  silent_ns: 30e9,
  limit_ns: 300e9,
  stalled: true,
  midstream: false,
  message: 'Ollama at http://127.0.0.1:11434 has sent nothing for 30 s since it was asked to answer with model llama3.2:3b: the model may be loading or stuck; giving up after 5 min of silence.',
};

describe('ChatPanel', { timeout: 30_000 }, () => {
  it('streams the answer into the log, with the manifest and the tool calls as they come', async () => {
    const { wb, frames, onselect } = await setup();
    const id = wb.nodeIds[0];
    let release!: () => void;
    let steps = 0;
    wb.step = () => (++steps === 4 ? new Promise((r) => (release = r)) : Promise.resolve());
    wb.chatScript = {
      chunks: ['Staleness ', `decays [${id.slice(0, 8)}]`, ' weekly.'],
      tools: [{ round: 1, name: 'search_context', args: { query: 'decay' }, node_ids: [id], tokens: 321 }],
    };
    const input = screen.getByTestId('chat-input');
    await fireEvent.input(input, { target: { value: 'How does staleness decay?' } });
    await fireEvent.keyDown(input, { key: 'Enter' });

    await vi.waitFor(() => expect(steps).toBe(4), slow);
    frames.splice(0).forEach((f) => f());
    flushSync();
    const log = screen.getByTestId('chat-log');
    const turn = within(log).getByTestId('chat-turn');
    expect(turn.dataset.streaming).toBe('true');
    expect(within(turn).getByTestId('chat-answer').textContent).toContain('Staleness decays');
    expect(within(turn).getByTestId('chat-manifest').textContent).toContain('[Context loaded: 1 of 1 relevant nodes]');
    expect(within(turn).getByTestId('chat-tool').textContent).toContain('search_context');
    expect(within(turn).getByTestId('chat-tool').textContent).toContain('321 tokens');
    expect(screen.getByTestId('chat-stop')).toBeTruthy();

    // A shortened id in the answer links to the full one.
    const link = within(within(turn).getByTestId('chat-answer')).getByTestId('node-link');
    expect(link.textContent).toBe(id.slice(0, 8));
    await fireEvent.click(link);
    expect(onselect).toHaveBeenCalledWith(id);

    release();
    await vi.waitFor(() => expect(turn.dataset.streaming).toBe('false'), slow);
    expect(within(turn).getByTestId('chat-answer').textContent).toBe(`Staleness decays [${id.slice(0, 8)}] weekly.`);
    expect(screen.getByTestId('chat-send')).toBeTruthy();
  });

  it('shows a silent Ollama as a muted line under the answer until the next text comes', async () => {
    const { wb, frames } = await setup();
    let release!: () => void;
    let steps = 0;
    // Held after the manifest, before the first text.
    wb.step = () => (++steps === 1 ? new Promise((r) => (release = r)) : Promise.resolve());
    wb.chatScript = { chunks: ['Staleness ', 'decays.'] };
    const input = screen.getByTestId('chat-input');
    await fireEvent.input(input, { target: { value: 'How does staleness decay?' } });
    await fireEvent.keyDown(input, { key: 'Enter' });
    await vi.waitFor(() => expect(steps).toBe(1), slow);

    wb.emitChatDelta({ stream: 'stream-1', text: '', wait: WAIT });
    flushSync();
    const line = screen.getByTestId('chat-waiting');
    expect(line.textContent).toContain('the model may be loading or stuck');
    expect(line.getAttribute('role')).toBe('status');
    expect(line.classList.contains('muted')).toBe(true);

    release();
    await vi.waitFor(() => expect(screen.getByTestId('chat-turn').dataset.streaming).toBe('false'), slow);
    frames.splice(0).forEach((f) => f());
    flushSync();
    expect(screen.queryByTestId('chat-waiting')).toBeNull();
    expect(screen.getByTestId('chat-answer').textContent).toBe('Staleness decays.');
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
    wb.chatScript = { chunks: ['Half'], failure: 'reject' };
    await fireEvent.input(screen.getByTestId('chat-input'), { target: { value: 'q' } });
    await fireEvent.click(screen.getByTestId('chat-send'));
    const error = await screen.findByTestId('chat-error');
    expect(error.textContent).toContain('stopped answering part way');
    expect(screen.getByTestId('chat-answer').textContent).toBe('Half');
  });

  it('reopens a saved conversation from the history', async () => {
    const { wb } = await setup();
    const turn = await wb.chat({ question: 'Earlier question', model: 'llama3.2:3b' }, 'old');
    await fireEvent.click(screen.getByTestId('conversations-toggle'));
    await fireEvent.click(await screen.findByTestId('conversation-item'));
    await vi.waitFor(() => expect(screen.getByTestId('chat-log').textContent).toContain('Earlier question'), slow);
    expect(screen.getByTestId('chat-answer').textContent).toBe(turn.answer);
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
    expect(input.value).toBe('http://127.0.0.1:11434');
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
    wb.ollamaStatus = {
      url: 'http://127.0.0.1:11434',
      up: false,
      models: [],
      problem: 'Ollama is not running at http://127.0.0.1:11434.',
      fix: 'Start it with `ollama serve` (install it from ollama.com), or set LOOM_OLLAMA_URL to where it runs, then press Retry.',
    };
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

  it('shows a failed status call as an error', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop' });
    wb.failNext.ollama = new WorkbenchError('internal', 'Loom could not ask for Ollama’s status.');
    const ollama = new OllamaStore(wb);
    await ollama.refresh();
    render(ChatPanel, { chat: new ChatStore(wb, ollama), ollama });
    const status = screen.getByTestId('ollama-status');
    expect(status.getAttribute('role')).toBe('alert');
    expect(status.textContent).toContain('could not ask');
  });

  it('shows the CORS advice the engine gives when Ollama refuses the page', async () => {
    const wb = new FakeWorkbench();
    wb.ollamaStatus = {
      url: 'http://127.0.0.1:11434',
      up: false,
      models: [],
      problem: 'The page could not reach Ollama at http://127.0.0.1:11434: it is not running, or it refused this page (CORS).',
      fix: 'Start Ollama allowing this page: `OLLAMA_ORIGINS=http://127.0.0.1:8080 ollama serve`, then press Retry.',
    };
    const ollama = new OllamaStore(wb);
    await ollama.refresh();
    const chat = new ChatStore(wb, ollama);
    render(ChatPanel, { chat, ollama, onollamaurl: () => {} });
    const status = screen.getByTestId('ollama-status');
    expect(status.textContent).toContain('CORS');
    expect(status.querySelector('code')?.textContent).toBe('OLLAMA_ORIGINS=http://127.0.0.1:8080 ollama serve');
  });
});
