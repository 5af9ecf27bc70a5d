import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWebWorkbench, DEFAULT_OLLAMA_URL, OLLAMA_URL_KEY } from './web';
import type { FromWorker, ToWorker } from '../web/protocol';

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
  it('starts the worker with the base, the Ollama URL and the origin', () => {
    localStorage.setItem(OLLAMA_URL_KEY, 'http://gpu.local:11434');
    const { fw, wb } = setup();
    expect(wb.edition).toBe('web');
    expect(fw.sent[0]).toMatchObject({ type: 'init', base: 'http://example.test/sub/', ollamaURL: 'http://gpu.local:11434', origin: location.origin });
  });

  it('calls the engine by name with JSON arguments and maps the results', async () => {
    const { fw, wb } = setup();
    fw.answer = (m) => {
      if (m.method === 'Stats')
        return { type: 'result', id: m.id, ok: true, json: JSON.stringify({ workspace: '/loom/workspace', documents: 2, content_nodes: 5, concept_nodes: 3, edges: 9, tokens: 100, embedder: 'offline' }) };
      if (m.method === 'Query')
        return { type: 'result', id: m.id, ok: true, json: JSON.stringify({ result: { question: JSON.parse(m.args)[0].question }, concept_hops: { c1: 0 } }) };
      if (m.method === 'Pin') return { type: 'result', id: m.id, ok: true, json: 'null' };
      return undefined;
    };
    await expect(wb.stats()).resolves.toMatchObject({ documents: 2, contentNodes: 5, conceptNodes: 3 });
    const q = await wb.query({ question: 'why?', budget: 4000 });
    expect(q.question).toBe('why?');
    expect(q.concept_hops).toEqual({ c1: 0 });
    await expect(wb.pin(['a'], true)).resolves.toBeNull();
    const pin = fw.sent.find((m) => m.type === 'call' && m.method === 'Pin');
    expect(pin).toMatchObject({ args: JSON.stringify([['a'], true]) });
  });

  it('turns the engine’s rejections into WorkbenchErrors', async () => {
    const { fw, wb } = setup();
    fw.answer = (m) => ({ type: 'result', id: m.id, ok: false, error: JSON.stringify({ code: 'not_found', message: 'No such node.', detail: 'n-1' }) });
    await expect(wb.node('n-1')).rejects.toMatchObject({ code: 'not_found', message: 'No such node.', detail: 'n-1' });
  });

  it('relays events and boot states to their listeners', () => {
    const { fw, wb } = setup();
    const progress = vi.fn();
    const boots = vi.fn();
    const stop = wb.onIngestProgress(progress);
    wb.onBoot!(boots);
    fw.emit({ type: 'event', event: 'ingest:progress', data: JSON.stringify({ job: 'j1', files_done: 1 }) });
    fw.emit({ type: 'boot', state: { phase: 'download', loaded: 10, total: 100 } });
    stop();
    fw.emit({ type: 'event', event: 'ingest:progress', data: JSON.stringify({ job: 'j1', files_done: 2 }) });
    expect(progress).toHaveBeenCalledTimes(1);
    expect(progress.mock.calls[0][0]).toMatchObject({ files_done: 1 });
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
