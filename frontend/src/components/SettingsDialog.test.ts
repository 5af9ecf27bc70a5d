import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import SettingsDialog from './SettingsDialog.svelte';
import { FakeWorkbench, golden } from '../bridge/fake';

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

  it('shows the model server with every model and what it can do, and a missing model with how to get it', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop' });
    wb.ollamaStatus = structuredClone(golden.modelServer.status);
    render(SettingsDialog, { workbench: wb, onclose: () => {} });

    await waitFor(() => expect(screen.getAllByTestId('server-model')).toHaveLength(golden.modelServer.status.models.length));
    expect(screen.getByTestId('server-up').textContent).toBe(`LM Studio at ${golden.modelServer.status.url} has 3 models.`);
    const row = (name: string) => {
      const tr = screen.getAllByTestId('server-model').find((r) => r.dataset.name === name);
      if (!tr) throw new Error(`no row for ${name}`);
      return { window: tr.querySelector('[data-testid="model-window"]')?.textContent, caps: [...tr.querySelectorAll('[data-testid="model-cap"]')].map((c) => c.textContent) };
    };
    // Chat, tools, embeddings, vision.
    expect(row('qwen/qwen3-4b')).toEqual({ window: '8,192 of 40,960', caps: ['✓', '✓', '—', '—'] });
    expect(row('google/gemma-3-1b')).toEqual({ window: '32,768', caps: ['✓', '—', '—', '✓'] });
    expect(row('text-embedding-nomic-embed-text-v1.5')).toEqual({ window: '2,048', caps: ['—', '—', '✓', '—'] });

    const missing = screen.getByTestId('server-missing');
    expect(missing.textContent).toContain('The chat model mistral-7b is missing');
    expect(missing.querySelector('code')?.textContent).toBe('lms get mistral-7b');

    // The form says what is kept, never the key.
    expect((screen.getByTestId('provider-openai') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByTestId('server-url') as HTMLInputElement).value).toBe(golden.modelServer.settings.openai_url);
    const key = screen.getByTestId('server-key') as HTMLInputElement;
    expect(key.value).toBe('');
    expect(key.placeholder).toContain('a key is kept');
    expect((screen.getByTestId('server-chat-model') as HTMLSelectElement).value).toBe('mistral-7b');
    const embedOptions = [...(screen.getByTestId('server-embed-model') as HTMLSelectElement).options].map((o) => o.value);
    expect(embedOptions).toEqual(['', 'text-embedding-nomic-embed-text-v1.5']);
  });

  it('marks what a server does not report, and says so', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop' });
    wb.ollamaStatus = structuredClone(golden.modelServer.llamacpp);
    render(SettingsDialog, { workbench: wb, onclose: () => {} });
    await waitFor(() => expect(screen.getAllByTestId('server-model')).toHaveLength(1));
    const cells = screen.getAllByTestId('model-cap');
    expect(cells.map((c) => c.textContent)).toEqual(['?', '✓', '?', '—']);
    expect(cells[0].getAttribute('title')).toBe('not reported by the server');
    expect(screen.getByTestId('model-window').textContent).toBe('16,384 of 40,960');
    expect(screen.getByTestId('server-settings').textContent).toContain('?: the server does not say');
  });

  it('saves the provider choice with its address and a new key, then shows the new server’s models', async () => {
    const wb = new FakeWorkbench({ edition: 'desktop' });
    let changed = 0;
    render(SettingsDialog, { workbench: wb, onclose: () => {}, onmodelserver: () => changed++ });
    await screen.findByTestId('server-form');
    await waitFor(() => expect(screen.getAllByTestId('server-model')).toHaveLength(golden.ollama.up.models.length));

    await fireEvent.click(screen.getByTestId('provider-ollama'));
    const url = screen.getByTestId('server-url') as HTMLInputElement;
    expect(url.placeholder).toBe(golden.modelServer.settings.default_ollama_url);
    expect(screen.queryByTestId('server-key')).toBeNull();
    await fireEvent.input(url, { target: { value: 'http://127.0.0.1:11500' } });
    await fireEvent.click(screen.getByTestId('server-save'));
    await waitFor(() => expect(wb.serverSettingsCalls).toHaveLength(1));
    expect(wb.serverSettingsCalls[0]).toMatchObject({ provider: 'ollama', ollama_url: 'http://127.0.0.1:11500' });
    expect(wb.serverSettingsCalls[0].api_key).toBeUndefined();
    await waitFor(() => expect(changed).toBe(1));

    await fireEvent.click(screen.getByTestId('provider-openai'));
    await fireEvent.input(screen.getByTestId('server-key'), { target: { value: 'new-key' } });
    await fireEvent.input(screen.getByTestId('server-context'), { target: { value: '16384' } });
    await fireEvent.click(screen.getByTestId('server-save'));
    await waitFor(() => expect(wb.serverSettingsCalls).toHaveLength(2));
    expect(wb.serverSettingsCalls[1]).toMatchObject({ provider: 'openai', api_key: 'new-key', context_length: 16384 });
    await waitFor(() => expect(screen.getByTestId('server-up').textContent).toContain('LM Studio'));
    expect(screen.getAllByTestId('server-model')).toHaveLength(golden.modelServer.status.models.length);
    expect((screen.getByTestId('server-key') as HTMLInputElement).value).toBe(''); // the key is not kept in the page
    expect(changed).toBe(2);

    await fireEvent.click(screen.getByTestId('server-forget-key'));
    await fireEvent.click(screen.getByTestId('server-save'));
    await waitFor(() => expect(wb.serverSettingsCalls).toHaveLength(3));
    expect(wb.serverSettingsCalls[2].forget_api_key).toBe(true);
    expect((screen.getByTestId('server-key') as HTMLInputElement).placeholder).toContain('none');
  });

  it('says the web edition talks to the Ollama of its chat panel', async () => {
    const wb = new FakeWorkbench({ edition: 'web' });
    render(SettingsDialog, { workbench: wb, onclose: () => {} });
    expect(screen.getByTestId('server-web-only').textContent).toContain('chat panel');
    expect(screen.queryByTestId('server-form')).toBeNull();
    await waitFor(() => expect(screen.getAllByTestId('server-model')).toHaveLength(golden.ollama.up.models.length));
  });
});
