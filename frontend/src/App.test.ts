import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import App from './App.svelte';
import { FakeWorkbench, golden } from './bridge/fake';
import { fromPromptId } from './lib/nodeids';

const { linked, staleness, noWords } = golden.questions;

/** The golden uploads as the files a person drops or picks. */
const files = () => golden.uploads.map((u) => new File([u.text], u.name.split('/').pop()!, { type: 'text/markdown' }));

async function open(wb = new FakeWorkbench({ library: 'notes' })) {
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
    expect(screen.getByTestId('workspace-dir').textContent).toBe(golden.workspaces.empty.workspace.dir);
    expect(screen.getByTestId('results-empty').textContent).toContain('Ask a question');
    expect(screen.getByTestId('empty-state').textContent).toContain('drop papers (PDF), notes and vaults (Markdown, Org), web pages, Word files, references (BibTeX, RIS) or code');
    expect(screen.getByTestId('file-input')).toBeTruthy();
    expect(screen.getByTestId('drop-zone')).toBeTruthy();
  });

  it('shows why the workspace did not open instead of a blank page', async () => {
    const wb = new FakeWorkbench();
    wb.failNext.stats = golden.error('closed');
    wb.failNext.workspace = golden.error('closed');
    render(App, { workbench: wb });

    const notice = await screen.findByTestId('app-error');
    expect(notice.dataset.code).toBe('closed');
    expect(screen.getByTestId('error-message').textContent).toBe(golden.rejection('closed').message);
    expect(screen.getByTestId('workspace-path').textContent).toBe(golden.workspaces.empty.workspace.dir);
    expect(screen.queryByTestId('drop-zone')).toBeNull();
  });

  it('says in its own words that the workspace did not open for a reason nobody foresaw, the engine’s as the cause', async () => {
    const wb = new FakeWorkbench();
    wb.failNext.workspace = golden.error('internal'); // the workspace's folder is a file
    render(App, { workbench: wb });
    const notice = await screen.findByTestId('app-error');
    expect(notice.dataset.code).toBe('internal');
    expect(screen.getByTestId('error-message').textContent).toContain('Loom could not open the workspace');
    expect(screen.getByTestId('error-detail').textContent).toContain(golden.rejection('internal').detail);
  });

  it('ingests files dropped on the drop zone and lists them', async () => {
    const wb = new FakeWorkbench();
    render(App, { workbench: wb });
    await screen.findByTestId('library-empty');
    // In folder notes/, as the drop of a folder names them.
    const dropped = golden.uploads.map((u) => Object.assign(new File([u.text], u.name.split('/').pop()!), { webkitRelativePath: u.name }));
    await fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: dropped, items: [], types: ['Files'] } });

    const items = await screen.findAllByTestId('document-item');
    expect(items.map((i) => i.textContent)).toEqual(golden.workspaces.notes.documents.map((d) => expect.stringContaining(d.title)));
    expect(wb.uploads).toEqual([golden.uploads]);
    expect(screen.getByTestId('ingest-progress').getAttribute('aria-valuenow')).toBe(String(golden.ingests.uploads.events.at(-1)!.files_done));
    expect(screen.getByTestId('library-stats').textContent).toContain(`${golden.workspaces.notes.documents.length} documents`);
    // The engine's problem with each file it could not take.
    const failed = screen.getAllByTestId('ingest-file').filter((li) => li.dataset.state === 'error');
    expect(failed).toHaveLength(golden.ingests.uploads.result.errors.length);
    expect(failed.map((li) => li.textContent)).toEqual(expect.arrayContaining(golden.ingests.uploads.result.errors.map((e) => expect.stringContaining(e.problem))));
  });

  it('ingests what the file input chose, and names files it cannot read', async () => {
    const wb = new FakeWorkbench();
    render(App, { workbench: wb });
    await screen.findByTestId('library-empty');
    const input = screen.getByTestId('file-input') as HTMLInputElement;
    const chosen = [...golden.uploads.map((u) => Object.assign(new File([u.text], u.name.split('/').pop()!), { webkitRelativePath: u.name })), new File(['binary'], 'photo.png')];
    Object.defineProperty(input, 'files', { value: chosen, configurable: true });
    await fireEvent.change(input);

    await screen.findAllByTestId('document-item');
    expect(wb.uploads[0].map((u) => u.name)).toEqual(golden.uploads.map((u) => u.name));
    const failed = screen.getAllByTestId('ingest-file').filter((li) => li.dataset.state === 'error');
    expect(failed).toHaveLength(1 + golden.ingests.uploads.result.errors.length);
    expect(failed[0].textContent).toContain('photo.png was skipped');
  });

  it('assembles context for a question: budget bar, candidates with reasons, manifest verbatim', async () => {
    const wb = await open();
    const view = await ask(linked);
    const result = wb.assemble({ question: linked, budget: 4096 });

    expect(Number(view.dataset.window)).toBe(result.split.window);
    expect(Number(view.dataset.loadedCount)).toBe(result.loaded);
    expect(screen.getAllByTestId('candidate-row')).toHaveLength(result.candidates.length);
    expect(screen.getByTestId('manifest').textContent).toBe(result.manifest);
    expect(screen.getByTestId('query-summary').textContent).toContain(result.branch);
    expect(wb.queries[0]).toMatchObject({ question: linked, budget: 4096 });
  });

  it('shows the engine’s refusal of the question next to the question box, and marks the box', async () => {
    await open();
    const box = screen.getByTestId('query-input');
    await fireEvent.input(box, { target: { value: noWords } });
    await fireEvent.click(screen.getByTestId('query-submit'));
    const error = await screen.findByTestId('query-error');
    expect(error.dataset.code).toBe('invalid');
    expect(error.textContent?.trim()).toBe(golden.queries.find((q) => q.request.question === noWords)?.error?.message);
    expect(box.getAttribute('aria-invalid')).toBe('true');
  });

  it('shows the engine’s refusal of a budget too small for the manifest, saying why', async () => {
    await open();
    await fireEvent.change(screen.getByTestId('budget-input'), { target: { value: '20' } });
    const box = screen.getByTestId('query-input');
    await fireEvent.input(box, { target: { value: linked } });
    await fireEvent.click(screen.getByTestId('query-submit'));
    const error = await screen.findByTestId('query-error');
    expect(error.dataset.code).toBe('invalid');
    expect(error.textContent).toContain('smaller than the manifest needs');
  });

  it('shows a failure that is not the question’s with its cause, without marking the box', async () => {
    const wb = await open();
    wb.failNext.query = golden.error('internal');
    const box = screen.getByTestId('query-input');
    await fireEvent.input(box, { target: { value: linked } });
    await fireEvent.click(screen.getByTestId('query-submit'));
    const error = await screen.findByTestId('query-error');
    expect(error.dataset.code).toBe('internal');
    expect(error.textContent).toContain(golden.rejection('internal').message);
    expect(box.getAttribute('aria-invalid')).toBeNull();
  });

  it('re-runs live when the budget slider moves and marks nodes that left', async () => {
    const wb = await open();
    await ask(linked);
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
    // 256 is answered as 100 is: two of the three nodes still loaded.
    await vi.waitFor(() => expect(screen.getAllByTestId('candidate-row').filter((r) => r.classList.contains('left'))).toHaveLength(1), slow);
  });

  it('selects a candidate\u2019s node when its row is clicked, and Escape clears it', async () => {
    await open();
    await ask(staleness);
    const row = screen.getAllByTestId('candidate-row')[0];
    await fireEvent.click(row);
    const panel = await screen.findByTestId('details-panel');
    expect(panel).toBeTruthy();
    expect(row.getAttribute('aria-selected')).toBe('true');
    await fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByTestId('details-panel')).toBeNull();
  });

  it('puts the node details beside the graph, never over its controls', async () => {
    await open();
    await ask(staleness);
    await fireEvent.click(screen.getAllByTestId('candidate-row')[0]);
    const panel = await screen.findByTestId('details-panel');
    const graph = screen.getByTestId('graph-view');
    // A column of its own: not inside the graph's pane (nor the context's), so nothing of theirs lies under it.
    expect(graph.contains(panel)).toBe(false);
    expect(panel.closest('.graph-pane')).toBeNull();
    expect(panel.closest('.results-pane')).toBeNull();
    expect(panel.parentElement?.classList.contains('middle')).toBe(true);
    // The graph's filters still answer while it is open.
    await fireEvent.click(screen.getByTestId('graph-filters-toggle'));
    await fireEvent.click(screen.getByTestId('graph-filter-kind-concept'));
    expect(Number(graph.dataset.visible)).toBeLessThan(Number(graph.dataset.nodes));
  });

  it('a collection chip narrows the graph and the document list along with the question’s scope', async () => {
    await open();
    const graph = screen.getByTestId('graph-view');
    const chip = within(screen.getByTestId('collection-list')).getByText(/^notes/);
    await fireEvent.click(chip);
    expect((screen.getByTestId('query-scope') as HTMLSelectElement).value).toBe('notes');
    await fireEvent.click(screen.getByTestId('graph-filters-toggle'));
    const graphChip = screen.getAllByTestId('graph-filter-collection').find((b) => b.dataset.name === 'notes')!;
    expect(graphChip.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('graph-filter-count').textContent).toBe('1');
    // All: the filter and the scope go together.
    await fireEvent.click(within(screen.getByTestId('collection-list')).getByText('All'));
    expect((screen.getByTestId('query-scope') as HTMLSelectElement).value).toBe('');
    expect(graphChip.getAttribute('aria-pressed')).toBe('false');
    expect(graph.dataset.visible).toBe(graph.dataset.nodes);
  });

  it('the graph’s document filter narrows the document list, and Show all clears it', async () => {
    await open();
    const docs = golden.workspaces.notes.documents;
    expect(screen.getAllByTestId('document-item')).toHaveLength(docs.length);
    await fireEvent.click(screen.getByTestId('graph-filters-toggle'));
    await fireEvent.input(screen.getByTestId('graph-doc-search'), { target: { value: docs[0].title } });
    const choice = screen.getAllByTestId('graph-filter-document').find((c) => c.dataset.id === docs[0].id)!;
    await fireEvent.click(choice);
    const items = screen.getAllByTestId('document-item');
    expect(items.map((i) => i.dataset.id)).toEqual([docs[0].id]);
    const note = screen.getByTestId('document-list-filtered');
    expect(note.dataset.shown).toBe('1');
    expect(note.dataset.total).toBe(String(docs.length));
    const graph = screen.getByTestId('graph-view');
    expect(Number(graph.dataset.visible)).toBeLessThan(Number(graph.dataset.nodes));
    await fireEvent.click(screen.getByTestId('document-list-clear-filter'));
    expect(screen.getAllByTestId('document-item')).toHaveLength(docs.length);
    expect(graph.dataset.visible).toBe(graph.dataset.nodes);
  });

  it('copies the prompt with the button and with Ctrl+Shift+C, saves with Ctrl+S', async () => {
    const wb = await open();
    await ask(staleness);
    const copy = screen.getByTestId('copy-prompt');
    await fireEvent.click(copy);
    await vi.waitFor(() => expect(copy.textContent).toContain('Copied ✓'), slow);
    const prompt = screen.getByTestId('prompt').textContent;
    expect(wb.copied).toEqual([prompt]);

    await fireEvent.keyDown(window, { key: 'C', ctrlKey: true, shiftKey: true });
    await vi.waitFor(() => expect(wb.copied).toHaveLength(2), slow);

    await fireEvent.keyDown(window, { key: 's', metaKey: true });
    await vi.waitFor(() => expect(wb.saved).toHaveLength(1), slow);
    expect(wb.saved[0].name).toBe('loom-how-does-staleness-decay.md');
    expect(wb.saved[0].text).toContain(prompt);
  });

  it('keeps a re-embed’s progress and its Cancel in the top bar while a question’s results hide the workspace panel', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop', library: 'notes' });
    wb.ollamaStatus = structuredClone(golden.modelServer.status); // a server with an embedding model to re-embed with
    await open(wb);
    const offer = await screen.findByTestId('reembed-text-embedding-nomic-embed-text-v1.5');
    const held: (() => void)[] = [];
    wb.step = () => new Promise<void>((r) => held.push(r));
    const next = async () => {
      await waitFor(() => expect(held).toHaveLength(1));
      held.shift()?.();
    };
    await fireEvent.click(offer);
    await screen.findByTestId('reembed-progress');
    expect(screen.queryByTestId('reembed-topbar')).toBeNull(); // the workspace panel shows it
    const [, started] = golden.modelServer.reembed.events;
    await next();
    await next();
    await waitFor(() => expect(screen.getByTestId('reembed-progress').textContent).toContain(`0 of ${started.total} nodes`));

    wb.step = () => Promise.resolve(); // the question runs freely; the re-embed stays held
    await ask(linked);
    expect(screen.queryByTestId('reembed-progress')).toBeNull();
    const tag = screen.getByTestId('reembed-topbar');
    expect(tag.textContent).toContain(`Re-embedding: 0 of ${started.total} nodes`);
    await fireEvent.click(screen.getByTestId('reembed-topbar-cancel'));
    expect(wb.reembedCancels).toBe(1);
  });

  it('opens the settings from the top bar, where MCP is served from; Escape closes them', async () => {
    const wb = await open(new FakeWorkbench({ edition: 'desktop', library: 'notes' }));
    await fireEvent.click(screen.getByTestId('settings-button'));
    const dialog = await screen.findByTestId('settings-dialog');
    const toggle = (await within(dialog).findByTestId('mcp-toggle')) as HTMLInputElement;
    await waitFor(() => expect(toggle.disabled).toBe(false));
    await fireEvent.click(toggle);
    await within(dialog).findByTestId('mcp-url', {}, slow);
    expect(wb.mcpCalls).toEqual([true]);
    await fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(screen.queryByTestId('settings-dialog')).toBeNull();
  });

  it('answers keyboard shortcuts: focus, run, chat toggle, help, pick files', async () => {
    const wb = await open(new FakeWorkbench({ edition: 'desktop', library: 'notes' }));
    const box = screen.getByTestId('query-input');

    await fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    expect(document.activeElement).toBe(box);
    (document.activeElement as HTMLElement).blur();
    await fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(box);

    await fireEvent.input(box, { target: { value: linked } });
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

    wb.picked = golden.paths;
    await fireEvent.keyDown(window, { key: 'o', ctrlKey: true });
    await vi.waitFor(() => expect(wb.pathIngests).toEqual([golden.paths]), slow);
    await vi.waitFor(() => expect(screen.getAllByTestId('document-item')).toHaveLength(golden.workspaces.paths.documents.length), slow);
  });

  it('streams a chat answer whose citation opens the cited passage, and shows it in the graph', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    const answer = golden.chats.answer.turn;
    const cited = answer.loaded[0];
    const cite = answer.cites![cited];
    render(App, { workbench: wb });
    await screen.findByTestId('document-list');
    const input = await screen.findByTestId('chat-input');
    await vi.waitFor(() => expect((input as HTMLTextAreaElement).disabled).toBe(false), slow);
    await fireEvent.input(input, { target: { value: staleness } });
    await fireEvent.keyDown(input, { key: 'Enter' });

    const log = screen.getByTestId('chat-log');
    await vi.waitFor(() => expect(within(log).getByTestId('chat-answer').textContent).toBe(answer.answer.replace(/(?<=\[)[a-z]{3,16}(?=\])/, (m) => (cited.startsWith(fromPromptId(m) ?? '-') ? cite : m))), slow);
    const link = within(within(log).getByTestId('chat-answer')).getByTestId('cite-link');
    expect(link.dataset.id).toBe(cited);
    link.focus(); // as a keyboard reaches it (a click focuses it in a browser, not in jsdom)
    await fireEvent.click(link);

    const viewer = await screen.findByTestId('source-viewer');
    const focus = await within(viewer).findByTestId('source-focus');
    expect(wb.sourcesOpened).toEqual([cited]);
    expect(focus.dataset.id).toBe(cited);
    expect(focus.getAttribute('aria-current')).toBe('true');
    expect(within(viewer).getByTestId('source-cite').textContent).toBe(cite);
    expect(focus.textContent).toContain(golden.sources[cited].sections.find((s) => s.id === cited)!.text.split('\n')[0]);
    expect(within(viewer).queryByTestId('source-open-system'), 'the web edition has no system viewer').toBeNull();

    // Escape closes it and gives the focus back to the citation.
    await fireEvent.keyDown(within(viewer).getByTestId('source-close'), { key: 'Escape' });
    expect(screen.queryByTestId('source-viewer')).toBeNull();
    expect(document.activeElement).toBe(link);

    await fireEvent.click(link);
    await fireEvent.click(await screen.findByTestId('source-show-in-graph'));
    expect(screen.queryByTestId('source-viewer')).toBeNull();
    expect(await screen.findByTestId('details-panel')).toBeTruthy();
    expect((await screen.findByTestId('node-cite')).textContent).toContain(cite);
  });

  it('opens a candidate’s source from the results, and on the desktop the file in the system’s viewer', async () => {
    const wb = await open(new FakeWorkbench({ library: 'notes', edition: 'desktop' }));
    await ask(staleness);
    const table = await screen.findByTestId('candidate-table');
    const loaded = wb.assemble({ question: staleness, budget: 4096 }).candidates.find((c) => c.loaded)!;
    const chip = within(table).getAllByTestId('cite-link').find((l) => l.dataset.id === loaded.id)!;
    expect(chip.textContent).toBe(loaded.cite);
    await fireEvent.click(chip);
    const system = await screen.findByTestId('source-open-system');
    await fireEvent.click(system);
    await vi.waitFor(() => expect(wb.systemViewer).toEqual([loaded.id]), slow);
    // The other shortcuts wait while the viewer is open; Escape on the page closes it.
    await fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByTestId('source-viewer')).toBeNull();
  });

  it('says Ollama is down, how to start it, and disables sending until Retry finds it', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    wb.ollamaStatus = structuredClone(golden.ollama.notRunning);
    render(App, { workbench: wb });
    const status = await screen.findByTestId('ollama-status');
    expect(status.textContent).toContain(golden.ollama.notRunning.problem);
    expect(status.querySelector('code')?.textContent).toBe('ollama serve');
    expect((screen.getByTestId('chat-input') as HTMLTextAreaElement).disabled).toBe(true);

    wb.ollamaStatus = structuredClone(golden.ollama.up);
    await fireEvent.click(screen.getByTestId('ollama-retry'));
    await vi.waitFor(() => expect(screen.queryByTestId('ollama-status')).toBeNull(), slow);
    expect((screen.getByTestId('chat-input') as HTMLTextAreaElement).disabled).toBe(false);
  });
});
