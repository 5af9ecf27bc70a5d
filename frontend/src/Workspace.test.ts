// The whole page over the fake engine in the workspace's states: open
// read-only (banner, every write off with its reason, Try again), damaged
// (the panel, Check workspace, Repair, open the result), and Check
// workspace on an open one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import App from './App.svelte';
import { WorkbenchError } from './bridge/workbench';
import { FakeWorkbench } from './bridge/fake';
import type { ReadOnlyState } from './bridge/types';

const library = [
  { name: 'staleness.md', text: `# Staleness\n\n${'Staleness decays exponentially with time since last access. '.repeat(8)}` },
  { name: 'budget.md', text: `# Budget\n\n${'The budget is the window minus the output reservation. Staleness is one signal. '.repeat(8)}` },
];

const inUse: ReadOnlyState = {
  reason: 'another Loom process is using it; reading the index it saved last',
  in_use: true,
  title: 'Read-only: another Loom process is using this workspace',
  message:
    'Read-only: another Loom process is using this workspace — questions work; nothing you add or change here is saved. Close the other one (a window, loom watch or an ingest), then press Try again to edit.',
};

const damaged = new WorkbenchError(
  'workspace_damaged',
  'A file of the workspace at /tmp/loom-fake is damaged, so Loom did not open it. Nothing has been changed.',
  '/tmp/loom-fake/graph/indexes.bolt: invalid database',
  { file: '/tmp/loom-fake/graph/indexes.bolt', problem: 'invalid database: the meta pages are unreadable' },
);

configure({ asyncUtilTimeout: 5000 });
const slow = { timeout: 5000 };

function button(testId: string) {
  return screen.getByTestId(testId) as HTMLButtonElement;
}

describe('the workspace', { timeout: 30_000 }, () => {
  afterEach(() => cleanup());

  it('read-only: a calm banner says why, every write is off with the reason, questions still work', async () => {
    const wb = new FakeWorkbench({ documents: library });
    wb.readOnly = inUse;
    render(App, { workbench: wb });
    const banner = await screen.findByTestId('read-only-banner');
    expect(banner.getAttribute('role')).toBe('status'); // information, not an alert
    expect(screen.getByTestId('read-only-message').textContent).toContain(inUse.message);
    expect(screen.getByTestId('read-only-tag').textContent).toBe('read-only');
    await screen.findByTestId('document-list');

    const why = `${inUse.title}: nothing can be added or changed here.`;
    for (const id of ['pick-files', 'import-workspace', 'chat-send']) {
      expect(button(id).disabled, id).toBe(true);
      expect(button(id).title, id).toBe(why);
    }
    for (const id of ['pin-document', 'reingest-document', 'remove-document']) {
      for (const b of screen.getAllByTestId(id) as HTMLButtonElement[]) {
        expect(b.disabled, id).toBe(true);
        expect(b.title, id).toBe(why);
      }
    }
    expect((screen.getByTestId('chat-input') as HTMLTextAreaElement).disabled).toBe(true);
    expect(screen.getByTestId('chat-read-only').textContent).toContain('each conversation is kept in the workspace');
    expect(screen.getByTestId('drop-zone').textContent).toContain('Read-only');

    // A drop is refused by the page, not sent to fail.
    const file = new File(['# Dropped\n\nA note.'], 'dropped.md', { type: 'text/markdown' });
    await fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: [file], items: [], types: ['Files'] } });
    expect(wb.uploads).toEqual([]);

    // Questions work.
    const box = screen.getByTestId('query-input');
    await fireEvent.input(box, { target: { value: 'How does staleness decay?' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByTestId('budget-view')).toBeTruthy();

    // Node details: pinning is off too.
    await fireEvent.click(screen.getAllByTestId('candidate-row')[0]);
    await vi.waitFor(() => expect(button('node-pin').disabled).toBe(true), slow);
    expect(button('node-pin').title).toBe(why);
  });

  it('read-only: the empty library’s sample is off too', async () => {
    const wb = new FakeWorkbench();
    wb.readOnly = inUse;
    render(App, { workbench: wb });
    const sample = (await screen.findByTestId('try-sample')) as HTMLButtonElement;
    expect(sample.disabled).toBe(true);
    expect(sample.title).toContain('another Loom process');
  });

  it('Try again reopens the workspace: still read-only says so, writable again takes the banner away', async () => {
    const wb = new FakeWorkbench({ documents: library });
    wb.readOnly = inUse;
    render(App, { workbench: wb });
    await screen.findByTestId('document-list');

    await fireEvent.click(button('read-only-retry'));
    expect(await screen.findByTestId('read-only-still')).toBeTruthy();
    expect(wb.reopens).toBe(1);

    let release!: () => void;
    wb.workspaceStep = () => new Promise((r) => (release = r));
    wb.afterReopen = { readOnly: null };
    await fireEvent.click(button('read-only-retry'));
    await vi.waitFor(() => expect(button('read-only-retry').disabled).toBe(true), slow); // one at a time
    release();
    await vi.waitFor(() => expect(screen.queryByTestId('read-only-banner')).toBeNull(), slow);
    expect(screen.getByTestId('app').dataset.readOnly).toBe('no');
    expect(button('pick-files').disabled).toBe(false);
    expect((screen.getAllByTestId('pin-document')[0] as HTMLButtonElement).disabled).toBe(false);

    // Writable: a pin goes through.
    await fireEvent.click(screen.getAllByTestId('pin-document')[0]);
    await vi.waitFor(() => expect(wb.pins).toHaveLength(1), slow);
  });

  it('a write that still gets through read-only is shown with the engine’s reason', async () => {
    const wb = new FakeWorkbench({ documents: library });
    render(App, { workbench: wb });
    await screen.findByTestId('document-list');
    wb.readOnly = inUse; // went read-only after the page looked
    await fireEvent.click(screen.getAllByTestId('pin-document')[0]);
    const error = await screen.findByTestId('library-action-error');
    expect(error.textContent).toContain('open read-only');
  });

  it('damaged: the panel names the file and the problem, checks, repairs and opens the result', async () => {
    const wb = new FakeWorkbench({ documents: library });
    wb.openError = damaged;
    wb.checkup = {
      workspace: '/tmp/loom-fake',
      store: 'damaged',
      findings: [
        { part: 'settings', status: 'ok', detail: 'config.json reads' },
        {
          part: 'graph store',
          status: 'problem',
          detail: 'the graph store /tmp/loom-fake/graph/indexes.bolt is damaged: invalid database',
          repair: 'salvages 2 documents, 3 sections and 2 concepts from it (0 quads lost) into a new workspace',
        },
        { part: 'index cache', status: 'note', detail: 'saved at generation 3, the store is at 4' },
      ],
      lost_texts: [
        { node: 'n-1', reference: 'budget.md § Budget', document: 'budget.md', problem: 'its stored text is missing', source: '/notes/budget.md' },
        { node: 'n-2', reference: 'old.md § Old', document: 'old.md', problem: 'its stored text is damaged' },
      ],
    };
    wb.repairReport = {
      workspace: '/tmp/loom-fake',
      salvaged: true,
      damaged_copy: '/tmp/loom-fake.damaged-1',
      actions: ['read the graph from the index cache (a whole copy of the graph at generation 3)', 'rebuilt the graph in /tmp/loom-fake.repaired: 2 documents, 3 sections, 2 concepts'],
      lost: ['n-2 (old.md § Old): its text is gone; ingest old.md again'],
      after: { workspace: '/tmp/loom-fake', store: 'ok', findings: [{ part: 'graph store', status: 'ok', detail: 'sound' }] },
    };
    render(App, { workbench: wb });

    const panel = await screen.findByTestId('app-error');
    expect(panel.dataset.code).toBe('workspace_damaged');
    expect(within(panel).getByRole('heading').textContent).toBe('The workspace is damaged');
    expect(screen.getByTestId('damage-file').textContent).toBe('/tmp/loom-fake/graph/indexes.bolt');
    expect(screen.getByTestId('damage-problem').textContent).toContain('meta pages are unreadable');
    expect(screen.getByTestId('error-message').textContent).toContain('Nothing has been changed');
    expect(screen.queryByTestId('drop-zone')).toBeNull();

    await fireEvent.click(button('check-workspace'));
    const checkup = await screen.findByTestId('checkup');
    expect(checkup.dataset.problems).toBe('1');
    const findings = within(checkup).getAllByTestId('finding');
    expect(findings.map((f) => [f.dataset.part, f.dataset.status])).toEqual([
      ['settings', 'ok'],
      ['graph store', 'problem'],
      ['index cache', 'note'],
    ]);
    expect(findings[1].textContent).toContain('Repair: salvages 2 documents');
    const lost = within(checkup).getAllByTestId('lost-text');
    expect(lost[0].textContent).toContain('Repair reads it back from /notes/budget.md');
    expect(lost[1].textContent).toContain('ingest old.md again');
    expect(wb.repairs).toBe(0);

    await fireEvent.click(button('repair-workspace'));
    const report = await screen.findByTestId('repair-report');
    expect(within(report).getByTestId('repair-damaged-copy').textContent).toContain('/tmp/loom-fake.damaged-1');
    expect(within(report).getByTestId('repair-actions').textContent).toContain('rebuilt the graph');
    expect(within(report).getByTestId('repair-lost').textContent).toContain('ingest old.md again');
    expect(within(report).getByTestId('repair-after').textContent).toContain('no problems');
    expect(screen.queryByTestId('check-workspace')).toBeNull(); // done: read, then open
    expect(screen.getByTestId('app').dataset.state).toBe('failed');

    await fireEvent.click(button('open-repaired'));
    expect(await screen.findByTestId('document-list')).toBeTruthy();
    expect(screen.getByTestId('app').dataset.state).toBe('ready');
    expect(screen.getAllByTestId('document-item')).toHaveLength(2);
  });

  it('a failed repair says why and leaves the panel to try again', async () => {
    const wb = new FakeWorkbench();
    wb.openError = damaged;
    wb.failNext.repairWorkspace = new WorkbenchError('repair_failed', 'Loom could not repair the workspace at /tmp/loom-fake. Nothing of it was removed.', 'disk full');
    render(App, { workbench: wb });
    await fireEvent.click(await screen.findByTestId('repair-workspace'));
    const error = await screen.findByTestId('repair-error');
    expect(error.textContent).toContain('Nothing of it was removed');
    expect(error.textContent).toContain('disk full');
    expect(button('repair-workspace').disabled).toBe(false);
  });

  it('busy with nothing to read: says so and Try again opens it once free', async () => {
    const wb = new FakeWorkbench({ documents: library });
    wb.openError = new WorkbenchError('workspace_busy', 'Another Loom process is using the workspace at /tmp/loom-fake. Close it, then press Try again.');
    wb.afterReopen = { error: null };
    render(App, { workbench: wb });
    const notice = await screen.findByTestId('app-error');
    expect(notice.dataset.code).toBe('workspace_busy');
    await fireEvent.click(button('open-retry'));
    expect(await screen.findByTestId('document-list')).toBeTruthy();
  });

  it('Check workspace from the library: the findings in a dialog, Repair when it found problems', async () => {
    const wb = new FakeWorkbench({ documents: library });
    render(App, { workbench: wb });
    await screen.findByTestId('document-list');
    await fireEvent.click(button('library-check'));
    const dialog = await screen.findByTestId('check-dialog');
    await vi.waitFor(() => expect(within(dialog).getByTestId('checkup-summary').textContent).toContain('No problems found'), slow);
    expect(within(dialog).queryByTestId('repair-workspace')).toBeNull();
    await fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByTestId('check-dialog')).toBeNull();

    wb.checkup = {
      workspace: '/tmp/loom-fake',
      store: 'ok',
      findings: [{ part: 'stored texts', status: 'problem', detail: '1 of 3 texts is missing', repair: 'reads 1 back from its file' }],
    };
    wb.repairReport = { workspace: '/tmp/loom-fake', salvaged: false, actions: ["read 1 sections' texts back from their source files"], lost: [] };
    await fireEvent.click(button('workspace-check'));
    const again = await screen.findByTestId('check-dialog');
    const repair = (await within(again).findByTestId('repair-workspace')) as HTMLButtonElement;
    await fireEvent.click(repair);
    const report = await within(again).findByTestId('repair-report');
    expect(report.textContent).toContain('Repaired in place');
    expect(within(report).getByTestId('repair-lost-none')).toBeTruthy();
    expect(wb.repairs).toBe(1);
    await vi.waitFor(() => expect(screen.getByTestId('app').dataset.state).toBe('ready'), slow);
  });

  it('a question that lost nodes lists them above the candidates, marks their rows and points to Check workspace', async () => {
    const wb = new FakeWorkbench({ documents: library });
    render(App, { workbench: wb });
    await screen.findByTestId('document-list');
    const lostId = wb.nodeIds[0];
    wb.unavailable = { [lostId]: `its text cannot be read: content/ab/abcd is missing` };
    const box = screen.getByTestId('query-input');
    await fireEvent.input(box, { target: { value: 'How does staleness decay?' } });
    await fireEvent.keyDown(box, { key: 'Enter' });

    const warnings = await screen.findByTestId('query-warnings');
    expect(warnings.textContent).toContain('One node was left out');
    expect(within(warnings).getAllByTestId('query-warning')[0].textContent).toContain(lostId);
    const row = screen.getAllByTestId('candidate-row').find((r) => r.dataset.id === lostId)!;
    expect(row.dataset.unavailable).toBe('yes');
    expect(within(row).getByTestId('candidate-unavailable').title).toContain('content/ab/abcd is missing');
    expect(within(row).getByTestId('candidate-reason').textContent).toContain('not loaded: its text cannot be read');

    await fireEvent.click(within(warnings).getByTestId('warnings-check'));
    expect(await screen.findByTestId('check-dialog')).toBeTruthy();
    await vi.waitFor(() => expect(wb.checks).toBe(1), slow);
  });

  it('Check workspace waits for the answer being written: the links are off and say why', async () => {
    const wb = new FakeWorkbench({ documents: library });
    render(App, { workbench: wb });
    await screen.findByTestId('document-list');
    await vi.waitFor(() => expect(button('chat-input').disabled).toBe(false), slow); // Ollama answered
    let release!: () => void;
    wb.step = () => new Promise((r) => (release = r));
    await fireEvent.input(screen.getByTestId('chat-input'), { target: { value: 'How does staleness decay?' } });
    await fireEvent.click(button('chat-send'));
    await vi.waitFor(() => expect(button('library-check').disabled).toBe(true), slow);
    expect(button('library-check').title).toContain('Wait for the answer');
    expect(button('workspace-check').disabled).toBe(true);
    await fireEvent.click(button('library-check'));
    expect(screen.queryByTestId('check-dialog')).toBeNull();
    expect(wb.checks).toBe(0);
    wb.step = () => Promise.resolve();
    release();
    await vi.waitFor(() => expect(button('library-check').disabled).toBe(false), slow);
  });
});
