import { afterEach, describe, expect, it } from 'vitest';
import { desktopWorkbench, toWorkbenchError, WorkbenchError } from './workbench';
import { golden } from './fake';

type GoWindow = Window & { go?: unknown };

afterEach(() => {
  delete (window as GoWindow).go;
});

describe('toWorkbenchError', () => {
  it('keeps the code, message and detail bind sends', () => {
    const sent = golden.rejection('dialog_failed');
    const err = toWorkbenchError(sent);
    expect(err).toBeInstanceOf(WorkbenchError);
    expect([err.code, err.message, err.detail]).toEqual([sent.code, sent.message, sent.detail]);
  });

  it('keeps the engine’s codes as they are', () => {
    for (const name of ['empty_question', 'node_not_found', 'import_not_empty', 'in_use', 'read_only', 'ollama_not_running', 'ingest_running', 'closed'] as const) {
      const sent = golden.rejection(name);
      expect(toWorkbenchError(sent).code, name).toBe(sent.code);
    }
  });

  it('keeps the damaged file and its problem', () => {
    const err = toWorkbenchError(golden.damaged.open);
    expect(err.code).toBe('damaged');
    expect(err.damage).toEqual(golden.damaged.open.damage);
    expect(toWorkbenchError({ code: 'read_only', message: 'x', damage: 'nonsense' }).damage).toBeUndefined();
  });

  it('treats plain strings and codes the engine does not have as internal errors', () => {
    expect(toWorkbenchError('boom').code).toBe('internal');
    expect(toWorkbenchError({ code: 'weird', message: 'x' }).code).toBe('internal');
    // A code that named the method that failed, gone since the engine's own reach the page.
    expect(toWorkbenchError({ code: 'query_failed', message: 'x' }).code).toBe('internal');
  });
});

describe('desktopWorkbench', () => {
  it('rejects with no_backend outside the desktop app', async () => {
    await expect(desktopWorkbench.stats()).rejects.toMatchObject({ code: 'no_backend' });
  });

  it('turns a rejected binding into a WorkbenchError', async () => {
    const closed = golden.rejection('closed');
    (window as GoWindow).go = {
      bind: {
        App: {
          Stats: () => Promise.reject(closed),
          WorkspaceDir: () => Promise.resolve('/tmp/ws'),
        },
      },
    };
    await expect(desktopWorkbench.workspaceDir()).resolves.toBe('/tmp/ws');
    await expect(desktopWorkbench.stats()).rejects.toMatchObject({ code: 'closed', message: closed.message });
  });

  it('gives the engine’s answers as they are, a query’s result with its hops and limits', async () => {
    const stats = golden.workspaces.notes.workspace.stats;
    const result = golden.queries.find((q) => q.result)!.result!;
    (window as GoWindow).go = { bind: { App: { Stats: () => Promise.resolve(stats), Query: () => Promise.resolve(result) } } };
    await expect(desktopWorkbench.stats()).resolves.toEqual(stats);
    await expect(desktopWorkbench.query(golden.queries[0].request)).resolves.toEqual(result);
  });

  it('opens a source, and a file in the system’s viewer, through the bindings', async () => {
    const [id, view] = Object.entries(golden.sources)[0];
    const opened: string[] = [];
    (window as GoWindow).go = {
      bind: { App: { OpenSource: () => Promise.resolve(view), OpenInSystemViewer: (n: string) => (opened.push(n), Promise.resolve()) } },
    };
    await expect(desktopWorkbench.openSource(id)).resolves.toEqual(view);
    await desktopWorkbench.openInSystemViewer?.(id);
    expect(opened).toEqual([id]);
  });
});
