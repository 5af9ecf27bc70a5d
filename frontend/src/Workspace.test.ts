// The whole page over the fake engine in the workspace's states: open
// read-only (banner, every write off with its reason, Try again), damaged
// (the panel, Check workspace, Repair, open the result), and Check
// workspace on an open one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import App from './App.svelte';
import { WorkbenchError } from './bridge/workbench';
import { FakeWorkbench, golden } from './bridge/fake';

const inUse = golden.readOnly;
const damaged = WorkbenchError.from(golden.damaged.open);
const question = golden.questions.staleness;

configure({ asyncUtilTimeout: 5000 });
const slow = { timeout: 5000 };

function button(testId: string) {
  return screen.getByTestId(testId) as HTMLButtonElement;
}

describe('the workspace', { timeout: 30_000 }, () => {
  afterEach(() => cleanup());

  it('read-only: a calm banner says why, every write is off with the reason, questions still work', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
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
    const file = new File([golden.uploads[0].text], 'budget.md', { type: 'text/markdown' });
    await fireEvent.drop(screen.getByTestId('drop-zone'), { dataTransfer: { files: [file], items: [], types: ['Files'] } });
    expect(wb.uploads).toEqual([]);

    // Questions work.
    const box = screen.getByTestId('query-input');
    await fireEvent.input(box, { target: { value: question } });
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
    const wb = new FakeWorkbench({ library: 'notes' });
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

  it('a write that still gets through read-only is said in the banner’s words, and the banner comes', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    render(App, { workbench: wb });
    await screen.findByTestId('document-list');
    wb.readOnly = inUse; // went read-only after the page looked
    await fireEvent.click(screen.getAllByTestId('pin-document')[0]);
    const error = await screen.findByTestId('library-action-error');
    expect(error.textContent).toContain('this workspace is open read-only (the banner at the top says why and what to do)');
    // The engine's read_only made the page read the workspace again.
    expect((await screen.findByTestId('read-only-message')).textContent).toContain(inUse.message);
  });

  it('damaged: the panel names the file and the problem, checks, repairs and opens the result', async () => {
    const wb = new FakeWorkbench({ library: 'empty' });
    wb.openError = damaged;
    wb.checkup = structuredClone(golden.damaged.checkup);
    wb.repairReport = structuredClone(golden.damaged.repair);
    wb.afterRepair = 'paths';
    render(App, { workbench: wb });

    const panel = await screen.findByTestId('app-error');
    expect(panel.dataset.code).toBe('damaged');
    expect(within(panel).getByRole('heading').textContent).toBe('The workspace is damaged');
    expect(screen.getByTestId('damage-file').textContent).toBe(golden.damaged.open.damage?.file);
    expect(screen.getByTestId('damage-problem').textContent).toBe(golden.damaged.open.damage?.problem);
    // The page's words, for what it offers; the engine's (with its CLI
    // advice) are not the panel's.
    expect(screen.getByTestId('error-message').textContent).toContain('Nothing has been changed');
    expect(screen.getByTestId('error-message').textContent).not.toContain('loom doctor');
    expect(screen.queryByTestId('drop-zone')).toBeNull();

    await fireEvent.click(button('check-workspace'));
    const checkup = await screen.findByTestId('checkup');
    const problems = golden.damaged.checkup.findings.filter((f) => f.status === 'problem');
    expect(checkup.dataset.problems).toBe(String(problems.length));
    const findings = within(checkup).getAllByTestId('finding');
    expect(findings.map((f) => [f.dataset.part, f.dataset.status])).toEqual(golden.damaged.checkup.findings.map((f) => [f.part, f.status]));
    const store = findings.find((f) => f.dataset.part === 'graph store')!;
    expect(store.textContent).toContain(`Repair: ${golden.damaged.checkup.findings.find((f) => f.part === 'graph store')?.repair}`);
    expect(wb.repairs).toBe(0);

    await fireEvent.click(button('repair-workspace'));
    const report = await screen.findByTestId('repair-report');
    expect(within(report).getByTestId('repair-damaged-copy').textContent).toContain(golden.damaged.repair.damaged_copy);
    expect(within(report).getByTestId('repair-actions').textContent).toContain('rebuilt the graph');
    expect(within(report).getByTestId('repair-after').textContent).toContain('no problems');
    expect(screen.queryByTestId('check-workspace')).toBeNull(); // done: read, then open
    expect(screen.getByTestId('app').dataset.state).toBe('failed');

    await fireEvent.click(button('open-repaired'));
    expect(await screen.findByTestId('document-list')).toBeTruthy();
    expect(screen.getByTestId('app').dataset.state).toBe('ready');
    expect(screen.getAllByTestId('document-item')).toHaveLength(golden.workspaces.paths.documents.length);
  });

  it('a failed repair says why and leaves the panel to try again', async () => {
    const wb = new FakeWorkbench();
    wb.openError = damaged;
    wb.failNext.repairWorkspace = golden.error('repair_in_use');
    render(App, { workbench: wb });
    await fireEvent.click(await screen.findByTestId('repair-workspace'));
    const error = await screen.findByTestId('repair-error');
    expect(error.textContent).toContain(golden.rejection('repair_in_use').message);
    expect(button('repair-workspace').disabled).toBe(false);
  });

  it('in use with nothing to read: says so in the page’s words and Try again opens it once free', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    wb.openError = golden.error('in_use');
    wb.afterReopen = { error: null };
    render(App, { workbench: wb });
    const notice = await screen.findByTestId('app-error');
    expect(notice.dataset.code).toBe('in_use');
    expect(screen.getByTestId('error-message').textContent).toContain('Another Loom process is using this workspace');
    expect(screen.getByTestId('error-detail').textContent).toBe(golden.rejection('in_use').message);
    expect(screen.getByText(/once the other Loom process has finished or closed/)).toBeTruthy();
    await fireEvent.click(button('open-retry'));
    expect(await screen.findByTestId('document-list')).toBeTruthy();
  });

  it('Check workspace from the library: the findings in a dialog, Repair when it found problems', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    render(App, { workbench: wb });
    await screen.findByTestId('document-list');
    await fireEvent.click(button('library-check'));
    const dialog = await screen.findByTestId('check-dialog');
    await vi.waitFor(() => expect(within(dialog).getByTestId('checkup-summary').textContent).toContain('No problems found'), slow);
    expect(within(dialog).queryByTestId('repair-workspace')).toBeNull();
    await fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByTestId('check-dialog')).toBeNull();

    wb.checkup = structuredClone(golden.checkupLost);
    wb.repairReport = structuredClone(golden.repairLost);
    await fireEvent.click(button('workspace-check'));
    const again = await screen.findByTestId('check-dialog');
    // The list of watched folders is one of the parts: its damage is a
    // problem with what Repair does, a folder that is gone a note.
    const watched = (await within(again).findAllByTestId('finding')).filter((f) => f.dataset.part === 'watched folders');
    expect(watched.map((f) => f.dataset.status)).toEqual(['problem', 'note']);
    expect(watched[0].textContent).toContain('watched.json is not a list of watched folders');
    expect(watched[0].textContent).toContain('Repair: writes it again with the 1 folder that can be read');
    expect(watched[1].textContent).toContain('/home/ada/notes/archive (no longer exists)');
    const repair = (await within(again).findByTestId('repair-workspace')) as HTMLButtonElement;
    await fireEvent.click(repair);
    const report = await within(again).findByTestId('repair-report');
    expect(report.textContent).toContain('Repaired in place');
    expect(report.textContent).toContain('wrote watched.json again with the 1 folder that could be read from it');
    expect(within(report).getByTestId('repair-lost-none')).toBeTruthy();
    expect(wb.repairs).toBe(1);
    await vi.waitFor(() => expect(screen.getByTestId('app').dataset.state).toBe('ready'), slow);
  });

  it('a question that lost nodes lists them above the candidates, marks their rows and points to Check workspace', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    render(App, { workbench: wb });
    await screen.findByTestId('document-list');
    wb.lostTexts = true;
    const lost = golden.queryLost.result!.candidates.find((c) => c.unavailable)!;
    const box = screen.getByTestId('query-input');
    await fireEvent.input(box, { target: { value: golden.queryLost.request.question } });
    await fireEvent.keyDown(box, { key: 'Enter' });

    const warnings = await screen.findByTestId('query-warnings');
    expect(warnings.textContent).toContain('One node was left out');
    expect(within(warnings).getAllByTestId('query-warning')[0].textContent).toContain(lost.id);
    const row = screen.getAllByTestId('candidate-row').find((r) => r.dataset.id === lost.id)!;
    expect(row.dataset.unavailable).toBe('yes');
    expect(within(row).getByTestId('candidate-unavailable').title).toContain(lost.unavailable);
    expect(within(row).getByTestId('candidate-reason').textContent).toBe(lost.reason);

    await fireEvent.click(within(warnings).getByTestId('warnings-check'));
    expect(await screen.findByTestId('check-dialog')).toBeTruthy();
    await vi.waitFor(() => expect(wb.checks).toBe(1), slow);
  });

  it('Check workspace waits for the answer being written: the links are off and say why', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    render(App, { workbench: wb });
    await screen.findByTestId('document-list');
    await vi.waitFor(() => expect(button('chat-input').disabled).toBe(false), slow); // Ollama answered
    let release!: () => void;
    wb.step = () => new Promise((r) => (release = r));
    await fireEvent.input(screen.getByTestId('chat-input'), { target: { value: question } });
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
