import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import App from './App.svelte';
import { WorkbenchError } from './bridge/workbench';
import { FakeWorkbench } from './bridge/fake';

const library = [
  {
    name: 'staleness.md',
    text: `# Staleness\n\n${'Staleness decays exponentially with time since last access. '.repeat(8)}\n\n## Half life\n\n${'The half life of staleness is a week. '.repeat(8)}`,
  },
  { name: 'budget.md', text: `# Budget\n\n${'The budget is the window minus the output reservation. Staleness is one signal. '.repeat(8)}` },
];

async function open(wb = new FakeWorkbench({ documents: library })) {
  render(App, { workbench: wb });
  await screen.findByTestId('document-list');
  return wb;
}

async function ask(question: string) {
  const box = screen.getByTestId('query-input') as HTMLTextAreaElement;
  await fireEvent.input(box, { target: { value: question } });
  await fireEvent.keyDown(box, { key: 'Enter' });
  return screen.findByTestId('budget-view');
}

// The machine may be busy: wait longer than the defaults before failing.
configure({ asyncUtilTimeout: 5000 });
const slow = { timeout: 5000 };

describe('App', { timeout: 30_000 }, () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('opens on the workbench with the Loom heading, the workspace and an empty-state library', async () => {
    render(App, { workbench: new FakeWorkbench() });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Loom');
    expect(await screen.findByTestId('library-empty')).toBeTruthy();
    expect(screen.getByTestId('workspace-dir').textContent).toBe('/tmp/loom-fake');
    expect(screen.getByTestId('results-empty').textContent).toContain('Ask a question');
    expect(screen.getByTestId('empty-state').textContent).toContain('drop Markdown or text files');
    expect(screen.getByTestId('file-input')).toBeTruthy();
    expect(screen.getByTestId('drop-zone')).toBeTruthy();
  });

  it('shows why the workspace did not open instead of a blank page', async () => {
    const wb = new FakeWorkbench();
    wb.failNext.stats = new WorkbenchError('workspace_unavailable', 'Loom could not open the workspace at /tmp/ws.', 'not yet implemented');
    render(App, { workbench: wb });

    const notice = await screen.findByTestId('app-error');
    expect(notice.dataset.code).toBe('workspace_unavailable');
    expect(screen.getByTestId('error-message').textContent).toContain('could not open the workspace');
    expect(screen.getByTestId('error-detail').textContent).toBe('not yet implemented');
    expect(screen.getByTestId('workspace-path').textContent).toBe('/tmp/loom-fake');
    expect(screen.queryByTestId('drop-zone')).toBeNull();
  });

  it('ingests files dropped on the drop zone and lists them', async () => {
    const wb = new FakeWorkbench();
    render(App, { workbench: wb });
    await screen.findByTestId('library-empty');
    const file = new File(['# Dropped\n\nA dropped note.'], 'dropped.md', { type: 'text/markdown' });
    await fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: [file], items: [], types: ['Files'] } });

    const item = await screen.findByTestId('document-item');
    expect(item.textContent).toContain('Dropped');
    expect(wb.uploads).toEqual([[{ name: 'dropped.md', text: '# Dropped\n\nA dropped note.' }]]);
    expect(screen.getByTestId('ingest-progress').getAttribute('aria-valuenow')).toBe('1');
    expect(screen.getByTestId('library-stats').textContent).toContain('1 document');
  });

  it('ingests what the file input chose, and names files it cannot read', async () => {
    const wb = new FakeWorkbench();
    render(App, { workbench: wb });
    await screen.findByTestId('library-empty');
    const input = screen.getByTestId('file-input') as HTMLInputElement;
    const files = [new File(['# One\n\ntext'], 'one.md'), new File(['binary'], 'photo.png')];
    Object.defineProperty(input, 'files', { value: files, configurable: true });
    await fireEvent.change(input);

    await screen.findByTestId('document-item');
    expect(wb.uploads[0].map((u) => u.name)).toEqual(['one.md']);
    const failed = screen.getAllByTestId('ingest-file').filter((li) => li.dataset.state === 'error');
    expect(failed).toHaveLength(1);
    expect(failed[0].textContent).toContain('photo.png was skipped');
  });

  it('assembles context for a question: budget bar, candidates with reasons, manifest verbatim', async () => {
    const wb = await open();
    const view = await ask('How does staleness decay?');
    const result = wb.assemble({ question: 'How does staleness decay?', budget: 4096, purpose: 'answer', level: 'adaptive' });

    expect(Number(view.dataset.window)).toBe(result.budget.window);
    expect(Number(view.dataset.loadedCount)).toBe(result.loaded);
    expect(screen.getAllByTestId('candidate-row')).toHaveLength(result.candidates.length);
    expect(screen.getByTestId('manifest').textContent).toBe(result.manifest);
    expect(screen.getByTestId('query-summary').textContent).toContain(result.branch);
    expect(wb.queries[0]).toMatchObject({ question: 'How does staleness decay?', budget: 4096 });
  });

  it('shows the engine\u2019s refusal next to the question box', async () => {
    await open();
    await fireEvent.change(screen.getByTestId('budget-input'), { target: { value: '20' } });
    const box = screen.getByTestId('query-input');
    await fireEvent.input(box, { target: { value: 'staleness' } });
    await fireEvent.click(screen.getByTestId('query-submit'));
    // The budget is too small: no result, the reason instead.
    const error = await screen.findByTestId('query-error');
    expect(error.textContent).toContain('too small');
  });

  it('re-runs live when the budget slider moves and marks nodes that left', async () => {
    const wb = await open();
    await ask('staleness');
    expect(wb.queries).toHaveLength(1);
    vi.useFakeTimers();
    const slider = screen.getByTestId('budget-slider');
    await fireEvent.input(slider, { target: { value: '300' } });
    await fireEvent.input(slider, { target: { value: '256' } });
    expect(wb.queries).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    vi.useRealTimers();
    await vi.waitFor(() => expect(wb.queries).toHaveLength(2), slow);
    expect(wb.queries[1].budget).toBe(256);
    await vi.waitFor(() => expect(screen.getAllByTestId('candidate-row').some((r) => r.classList.contains('left'))).toBe(true), slow);
  });

  it('selects a candidate\u2019s node when its row is clicked, and Escape clears it', async () => {
    await open();
    await ask('staleness');
    const row = screen.getAllByTestId('candidate-row')[0];
    await fireEvent.click(row);
    const panel = await screen.findByTestId('details-panel');
    expect(panel).toBeTruthy();
    expect(row.getAttribute('aria-selected')).toBe('true');
    await fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByTestId('details-panel')).toBeNull();
  });

  it('copies the prompt with the button and with Ctrl+Shift+C, saves with Ctrl+S', async () => {
    const wb = await open();
    await ask('staleness');
    const copy = screen.getByTestId('copy-prompt');
    await fireEvent.click(copy);
    await vi.waitFor(() => expect(copy.textContent).toContain('Copied ✓'), slow);
    const prompt = screen.getByTestId('prompt').textContent;
    expect(wb.copied).toEqual([prompt]);

    await fireEvent.keyDown(window, { key: 'C', ctrlKey: true, shiftKey: true });
    await vi.waitFor(() => expect(wb.copied).toHaveLength(2), slow);

    await fireEvent.keyDown(window, { key: 's', metaKey: true });
    await vi.waitFor(() => expect(wb.saved).toHaveLength(1), slow);
    expect(wb.saved[0].name).toBe('loom-staleness.md');
    expect(wb.saved[0].text).toContain(prompt);
  });

  it('answers keyboard shortcuts: focus, run, chat toggle, help, pick files', async () => {
    const wb = await open(new FakeWorkbench({ edition: 'desktop', documents: library }));
    const box = screen.getByTestId('query-input');

    await fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    expect(document.activeElement).toBe(box);
    (document.activeElement as HTMLElement).blur();
    await fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(box);

    await fireEvent.input(box, { target: { value: 'budget' } });
    await fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
    await screen.findByTestId('budget-view');
    expect(wb.queries).toHaveLength(1);

    // "?" typed in the question is a character, not the help.
    await fireEvent.keyDown(box, { key: '?' });
    expect(screen.queryByTestId('help-overlay')).toBeNull();
    await fireEvent.keyDown(document.body, { key: '?' });
    expect(screen.getByTestId('help-overlay').textContent).toContain('Copy the assembled prompt');
    await fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByTestId('help-overlay')).toBeNull();

    expect(screen.getByTestId('chat-panel')).toBeTruthy();
    await fireEvent.keyDown(window, { key: 'j', ctrlKey: true });
    expect(screen.queryByTestId('chat-panel')).toBeNull();
    await fireEvent.keyDown(window, { key: 'j', ctrlKey: true });
    expect(screen.getByTestId('chat-panel')).toBeTruthy();

    wb.picked = ['/home/ada/new.md'];
    await fireEvent.keyDown(window, { key: 'o', ctrlKey: true });
    await vi.waitFor(() => expect(wb.pathIngests).toEqual([['/home/ada/new.md']]), slow);
    await vi.waitFor(() => expect(screen.getAllByTestId('document-item')).toHaveLength(3), slow);
  });

  it('streams a chat answer and selects a node named in it', async () => {
    const wb = new FakeWorkbench({ documents: library });
    const first = () => wb.nodeIds[0];
    render(App, { workbench: wb });
    await screen.findByTestId('document-list');
    wb.chatScript = { chunks: ['See ', `[${first()}]`, ' for details.'] };
    const input = await screen.findByTestId('chat-input');
    await vi.waitFor(() => expect((input as HTMLTextAreaElement).disabled).toBe(false), slow);
    await fireEvent.input(input, { target: { value: 'How does staleness decay?' } });
    await fireEvent.keyDown(input, { key: 'Enter' });

    const log = screen.getByTestId('chat-log');
    await vi.waitFor(() => expect(within(log).getByTestId('chat-answer').textContent).toContain('for details.'), slow);
    const link = within(within(log).getByTestId('chat-answer')).getByTestId('node-link');
    expect(link.dataset.id).toBe(first());
    await fireEvent.click(link);
    expect(await screen.findByTestId('details-panel')).toBeTruthy();
  });

  it('says Ollama is down, how to start it, and disables sending until Retry finds it', async () => {
    const wb = new FakeWorkbench({ documents: library });
    wb.ollamaStatus = {
      url: 'http://127.0.0.1:11434', up: false, models: [],
      problem: 'Ollama is not running at http://127.0.0.1:11434', fix: 'Start it with `ollama serve`.',
    };
    render(App, { workbench: wb });
    const status = await screen.findByTestId('ollama-status');
    expect(status.textContent).toContain('not running at http://127.0.0.1:11434');
    expect(status.querySelector('code')?.textContent).toBe('ollama serve');
    expect((screen.getByTestId('chat-input') as HTMLTextAreaElement).disabled).toBe(true);

    wb.ollamaStatus = { url: 'http://127.0.0.1:11434', up: true, models: [{ name: 'llama3.2:3b', context_length: 8192, tools: true }] };
    await fireEvent.click(screen.getByTestId('ollama-retry'));
    await vi.waitFor(() => expect(screen.queryByTestId('ollama-status')).toBeNull(), slow);
    expect((screen.getByTestId('chat-input') as HTMLTextAreaElement).disabled).toBe(false);
  });
});
