import { afterEach, describe, expect, it } from 'vitest';
import { desktopWorkbench, toWorkbenchError, WorkbenchError } from './workbench';

type GoWindow = Window & { go?: unknown };

afterEach(() => {
  delete (window as GoWindow).go;
});

describe('toWorkbenchError', () => {
  it('keeps the code, message and detail the Go ErrorFormatter sends', () => {
    const err = toWorkbenchError({ code: 'stats_failed', message: 'Could not count.', detail: 'disk full' });
    expect(err).toBeInstanceOf(WorkbenchError);
    expect([err.code, err.message, err.detail]).toEqual(['stats_failed', 'Could not count.', 'disk full']);
  });

  it('keeps the damaged file and its problem', () => {
    const err = toWorkbenchError({
      code: 'workspace_damaged',
      message: 'A file of the workspace is damaged.',
      damage: { file: '/ws/graph/indexes.bolt', problem: 'invalid database' },
    });
    expect(err.code).toBe('workspace_damaged');
    expect(err.damage).toEqual({ file: '/ws/graph/indexes.bolt', problem: 'invalid database' });
    expect(toWorkbenchError({ code: 'read_only', message: 'x', damage: 'nonsense' }).damage).toBeUndefined();
  });

  it('treats plain strings and unknown codes as internal errors', () => {
    expect(toWorkbenchError('boom').code).toBe('internal');
    expect(toWorkbenchError({ code: 'weird', message: 'x' }).code).toBe('internal');
  });
});

describe('desktopWorkbench', () => {
  it('rejects with no_backend outside the desktop app', async () => {
    await expect(desktopWorkbench.stats()).rejects.toMatchObject({ code: 'no_backend' });
  });

  it('turns a rejected binding into a WorkbenchError', async () => {
    (window as GoWindow).go = {
      bind: {
        App: {
          Stats: () => Promise.reject({ code: 'workspace_unavailable', message: 'No workspace.', detail: 'not yet implemented' }),
          WorkspaceDir: () => Promise.resolve('/tmp/ws'),
        },
      },
    };
    await expect(desktopWorkbench.workspaceDir()).resolves.toBe('/tmp/ws');
    await expect(desktopWorkbench.stats()).rejects.toMatchObject({ code: 'workspace_unavailable', detail: 'not yet implemented' });
  });

  it('maps the Go stats to the page\'s shape', async () => {
    (window as GoWindow).go = {
      bind: {
        App: {
          Stats: () =>
            Promise.resolve({
              workspace: '/tmp/ws',
              documents: 1,
              content_nodes: 2,
              concept_nodes: 3,
              edges: 4,
              tokens: 5,
              embedder: 'offline/test',
            }),
        },
      },
    };
    await expect(desktopWorkbench.stats()).resolves.toEqual({
      workspace: '/tmp/ws',
      documents: 1,
      contentNodes: 2,
      conceptNodes: 3,
      edges: 4,
      tokens: 5,
      embedder: 'offline/test',
    });
  });
});
