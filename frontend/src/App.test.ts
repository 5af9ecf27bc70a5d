import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import App from './App.svelte';
import { WorkbenchError, type Stats, type Workbench } from './bridge/workbench';

const stats: Stats = {
  workspace: '/tmp/ws',
  documents: 3,
  contentNodes: 10,
  conceptNodes: 4,
  edges: 20,
  tokens: 900,
  embedder: 'offline/glove-6b-100d-sif',
};

describe('App', () => {
  it('shows the stats card once the workspace answers', async () => {
    const workbench: Workbench = { workspaceDir: async () => '/tmp/ws', stats: async () => stats };
    render(App, { workbench });

    expect(await screen.findByTestId('workspace-stats')).toBeTruthy();
    expect(screen.getByTestId('workspace-path').textContent).toBe('/tmp/ws');
  });

  it('shows why the workspace did not open instead of a blank page', async () => {
    const workbench: Workbench = {
      workspaceDir: async () => '/tmp/ws',
      stats: async () => {
        throw new WorkbenchError('workspace_unavailable', 'Loom could not open the workspace at /tmp/ws.', 'not yet implemented');
      },
    };
    render(App, { workbench });

    const notice = await screen.findByTestId('app-error');
    expect(notice.dataset.code).toBe('workspace_unavailable');
    expect(screen.getByTestId('error-message').textContent).toContain('could not open the workspace');
    expect(screen.getByTestId('error-detail').textContent).toBe('not yet implemented');
    expect(screen.getByTestId('workspace-path').textContent).toBe('/tmp/ws');
  });
});
