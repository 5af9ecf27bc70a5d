import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebWorkbench, DEFAULT_OLLAMA_URL, OLLAMA_URL_KEY } from './web';
import type { FromWorker, ToWorker } from '../web/protocol';
import { golden } from './fake';

/** A stand-in for the engine's worker: records messages, answers as told. */
class FakeWorker {
  sent: ToWorker[] = [];
  onmessage: ((e: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  answer: (m: Extract<ToWorker, { type: 'call' }>) => FromWorker | undefined = () => undefined;

  postMessage(m: ToWorker) {
    this.sent.push(m);
    if (m.type === 'call') {
      const reply = this.answer(m);
      if (reply) queueMicrotask(() => this.emit(reply));
    }
  }

  emit(m: FromWorker) {
    this.onmessage?.({ data: m } as MessageEvent<FromWorker>);
  }
}

function setup() {
  vi.stubGlobal('indexedDB', {}); // jsdom has none; the worker is the one that uses it
  const fw = new FakeWorker();
  const wb = createWebWorkbench({ base: 'http://example.test/sub/', worker: () => fw as unknown as Worker });
  return { fw, wb };
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('webWorkbench', () => {
  it('opens a source in the page, and has no system viewer', async () => {
    const { fw, wb } = setup();
    const [id, view] = Object.entries(golden.sources)[0];
    fw.answer = (m) => (m.method === 'OpenSource' ? { type: 'result', id: m.id, ok: true, json: JSON.stringify(view) } : undefined);
    await expect(wb.openSource(id)).resolves.toEqual(view);
    expect(fw.sent.find((m) => m.type === 'call' && m.method === 'OpenSource')).toMatchObject({ args: JSON.stringify([id]) });
    expect(wb.openInSystemViewer).toBeUndefined();
  });

  it('starts the worker with the base, the Ollama URL and the origin', () => {
    localStorage.setItem(OLLAMA_URL_KEY, 'http://gpu.local:11434');
    const { fw, wb } = setup();
    expect(wb.edition).toBe('web');
    expect(fw.sent[0]).toMatchObject({ type: 'init', base: 'http://example.test/sub/', ollamaURL: 'http://gpu.local:11434', origin: location.origin });
  });

  it('calls the engine by name with JSON arguments and gives its answers as they are', async () => {
    const { fw, wb } = setup();
    const stats = golden.workspaces.notes.workspace.stats;
    const asked = golden.queries.find((q) => q.result)!;
    fw.answer = (m) => {
      if (m.method === 'Stats') return { type: 'result', id: m.id, ok: true, json: JSON.stringify(stats) };
      if (m.method === 'Query') return { type: 'result', id: m.id, ok: true, json: JSON.stringify(asked.result) };
      if (m.method === 'Pin') return { type: 'result', id: m.id, ok: true, json: 'null' };
      return undefined;
    };
    await expect(wb.stats()).resolves.toEqual(stats);
    const q = await wb.query(asked.request);
    expect(q).toEqual(asked.result);
    expect(fw.sent.find((m) => m.type === 'call' && m.method === 'Query')).toMatchObject({ args: JSON.stringify([asked.request]) });
    await expect(wb.pin(['a'], true)).resolves.toBeNull();
    const pin = fw.sent.find((m) => m.type === 'call' && m.method === 'Pin');
    expect(pin).toMatchObject({ args: JSON.stringify([['a'], true]) });
  });

  it('turns the engine’s rejections into WorkbenchErrors', async () => {
    const { fw, wb } = setup();
    const sent = golden.rejection('node_not_found');
    fw.answer = (m) => ({ type: 'result', id: m.id, ok: false, error: JSON.stringify(sent) });
    await expect(wb.node('n-1')).rejects.toMatchObject({ code: sent.code, message: sent.message });
  });

  it('relays events and boot states to their listeners', () => {
    const { fw, wb } = setup();
    const progress = vi.fn();
    const boots = vi.fn();
    const stop = wb.onIngestProgress(progress);
    wb.onBoot!(boots);
    const [first, second] = golden.ingests.uploads.events;
    fw.emit({ type: 'event', event: 'ingest:progress', data: JSON.stringify(first) });
    fw.emit({ type: 'boot', state: { phase: 'download', loaded: 10, total: 100 } });
    stop();
    fw.emit({ type: 'event', event: 'ingest:progress', data: JSON.stringify(second) });
    expect(progress).toHaveBeenCalledTimes(1);
    expect(progress.mock.calls[0][0]).toEqual(first);
    expect(boots.mock.calls.at(-1)![0]).toMatchObject({ phase: 'download', loaded: 10, total: 100 });
  });

  it('remembers the Ollama URL and tells the engine', () => {
    const { fw, wb } = setup();
    wb.setOllamaURL!('http://10.0.0.5:11434');
    expect(localStorage.getItem(OLLAMA_URL_KEY)).toBe('http://10.0.0.5:11434');
    expect(wb.ollamaURL!()).toBe('http://10.0.0.5:11434');
    expect(fw.sent.at(-1)).toEqual({ type: 'ollama', url: 'http://10.0.0.5:11434' });
    wb.setOllamaURL!('');
    expect(localStorage.getItem(OLLAMA_URL_KEY)).toBeNull();
    expect(wb.ollamaURL!()).toBe(DEFAULT_OLLAMA_URL);
  });

  it('says so when the browser lacks storage', async () => {
    vi.stubGlobal('indexedDB', undefined);
    const wb = createWebWorkbench({ worker: () => new FakeWorker() as unknown as Worker });
    const boots = vi.fn();
    wb.onBoot!(boots);
    expect(boots.mock.calls[0][0]).toMatchObject({ phase: 'failed' });
    expect(boots.mock.calls[0][0].error).toContain('IndexedDB');
    await expect(wb.stats()).rejects.toMatchObject({ code: 'workspace_unavailable' });
  });

  it('picks files in the page: pickFiles answers [] and there is no native drop', async () => {
    const { wb } = setup();
    await expect(wb.pickFiles()).resolves.toEqual([]);
    const cb = vi.fn();
    wb.onFileDrop(cb)();
    expect(cb).not.toHaveBeenCalled();
  });
});
