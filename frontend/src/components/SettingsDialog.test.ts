import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import SettingsDialog from './SettingsDialog.svelte';
import { FakeWorkbench } from '../bridge/fake';

describe('SettingsDialog', () => {
  it('turns serving MCP on through the bridge and shows the URL, the token and the client configuration, each with a copy button', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop', library: 'notes' });
    render(SettingsDialog, { workbench: wb, onclose: () => {} });

    const toggle = (await screen.findByTestId('mcp-toggle')) as HTMLInputElement;
    await waitFor(() => expect(toggle.disabled).toBe(false));
    expect(toggle.checked).toBe(false);
    expect(screen.queryByTestId('mcp-url')).toBeNull();
    expect(screen.getByTestId('mcp-stdio-command').textContent).toMatch(/^loom mcp --workspace \/./);

    await fireEvent.click(toggle);
    await waitFor(() => expect(screen.getByTestId('mcp-url').textContent).toBe('http://127.0.0.1:7337/mcp'));
    expect(wb.mcpCalls).toEqual([true]);
    expect(toggle.checked).toBe(true);
    const status = wb.mcpStatus();
    expect(screen.getByTestId('mcp-token').textContent).toBe(status.token);
    const config = JSON.parse(screen.getByTestId('mcp-http-config').textContent ?? '');
    expect(config).toEqual({ mcpServers: { loom: { type: 'http', url: status.url, headers: { Authorization: `Bearer ${status.token}` } } } });

    await fireEvent.click(screen.getByTestId('copy-URL'));
    await fireEvent.click(screen.getByTestId('copy-token'));
    await fireEvent.click(screen.getByTestId('copy-HTTP configuration'));
    await fireEvent.click(screen.getByTestId('copy-command'));
    await waitFor(() => expect(wb.copied).toEqual([status.url, status.token, status.http_config, status.stdio_command]));
    expect(screen.getByTestId('copy-command').textContent?.trim()).toBe('Copied');

    await fireEvent.click(toggle);
    await waitFor(() => expect(screen.queryByTestId('mcp-url')).toBeNull());
    expect(wb.mcpCalls).toEqual([true, false]);
    expect(toggle.checked).toBe(false);
  });

  it('says why it does not serve, and a failed toggle', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop' });
    const setMCP = wb.setMCP!;
    wb.setMCP = async (on) => ({ ...(await setMCP(on)), serving: false, problem: 'Loom could not listen on 127.0.0.1:7337.' });
    render(SettingsDialog, { workbench: wb, onclose: () => {} });
    const toggle = (await screen.findByTestId('mcp-toggle')) as HTMLInputElement;
    await waitFor(() => expect(toggle.disabled).toBe(false));
    await fireEvent.click(toggle);
    expect((await screen.findByTestId('mcp-problem')).textContent).toContain('could not listen');
    expect(screen.queryByTestId('mcp-url')).toBeNull();
  });

  it('says serving MCP is desktop-only in the web edition', () => {
    const wb = new FakeWorkbench({ edition: 'web' });
    render(SettingsDialog, { workbench: wb, onclose: () => {} });
    expect(screen.queryByTestId('mcp-toggle')).toBeNull();
    expect(screen.getByTestId('mcp-desktop-only').textContent).toContain('desktop app');
    expect(screen.getByTestId('mcp-desktop-only').textContent).toContain('loom mcp --workspace DIR');
  });
});
