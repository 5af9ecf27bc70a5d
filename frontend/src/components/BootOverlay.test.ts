import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import BootOverlay from './BootOverlay.svelte';
import { FakeWorkbench } from '../bridge/fake';

describe('BootOverlay', () => {
  it('shows the download with its bytes, then the start, and goes when the engine is ready', () => {
    const wb = new FakeWorkbench();
    wb.emitBoot({ phase: 'download', loaded: 5 * 1024 * 1024, total: 20 * 1024 * 1024 });
    render(BootOverlay, { workbench: wb });
    const overlay = screen.getByTestId('boot-overlay');
    expect(overlay.dataset.phase).toBe('download');
    expect(screen.getByTestId('boot-bytes').textContent).toMatch(/5(\.0)? MB of 20(\.0)? MB/);
    expect((screen.getByTestId('boot-progress') as HTMLProgressElement).value).toBe(25);
    wb.emitBoot({ phase: 'start', loaded: 0, total: 0 });
    flushSync();
    expect(screen.getByTestId('boot-overlay').textContent).toContain('Starting the engine');
    wb.emitBoot({ phase: 'ready', loaded: 0, total: 0 });
    flushSync();
    expect(screen.queryByTestId('boot-overlay')).toBeNull();
  });

  it('says when another tab has the workspace', () => {
    const wb = new FakeWorkbench();
    wb.emitBoot({ phase: 'waiting', loaded: 0, total: 0 });
    render(BootOverlay, { workbench: wb });
    expect(screen.getByTestId('boot-overlay').textContent).toContain('Loom is open in another tab');
  });

  it('shows why the engine did not start', () => {
    const wb = new FakeWorkbench();
    wb.emitBoot({ phase: 'failed', loaded: 0, total: 0, error: 'The browser’s storage (IndexedDB) is not available.' });
    render(BootOverlay, { workbench: wb });
    expect(screen.getByRole('alert').textContent).toContain('could not start');
    expect(screen.getByTestId('boot-error').textContent).toContain('IndexedDB');
  });
});
