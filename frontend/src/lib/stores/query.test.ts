import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWorkbench } from '../../bridge/fake';
import { QueryStore } from './query.svelte';
import { OllamaStore } from './ollama.svelte';
import { WorkbenchError } from '../../bridge/workbench';

const docs = [
  { name: 'a.md', text: '# Staleness\n\nStaleness decays exponentially with time since last access. '.repeat(3) },
  { name: 'b.md', text: '# Budget\n\nThe budget is the window minus the output reservation and the staleness share. '.repeat(4) },
  { name: 'c.md', text: '# Manifest\n\nThe manifest lists staleness and loaded nodes. '.repeat(2) },
];

describe('QueryStore', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('debounces live re-runs and sends only the last budget', async () => {
    const wb = new FakeWorkbench({ documents: docs });
    const q = new QueryStore(wb);
    q.question = 'staleness decay';
    await q.run();
    expect(wb.queries).toHaveLength(1);

    q.setBudget(300);
    await vi.advanceTimersByTimeAsync(100);
    q.setBudget(400);
    await vi.advanceTimersByTimeAsync(100);
    q.setBudget(500);
    expect(wb.queries).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(150);
    expect(wb.queries.map((r) => r.budget)).toEqual([4096, 500]);
  });

  it('shows Ollama’s silence while a question waits for a model’s window, and drops it when the answer comes', async () => {
    const wb = new FakeWorkbench({ documents: docs });
    wb.queryLatency = () => 1000;
    const q = new QueryStore(wb);
    const stop = q.start();
    wb.emitOllamaWait({ url: 'u', task: 'describe model m', silent_ns: 1e10, limit_ns: 3e10, stalled: false, midstream: false, message: 'not running' });
    expect(q.waiting).toBeNull(); // no question is waiting
    q.question = 'staleness';
    const run = q.run();
    wb.emitOllamaWait({ url: 'u', task: 'describe model m', silent_ns: 1e10, limit_ns: 3e10, stalled: false, midstream: false, message: 'Waiting for Ollama to describe model m: nothing yet after 10 s.' });
    expect(q.waiting).toContain('describe model m');
    await vi.advanceTimersByTimeAsync(1000);
    await run;
    expect(q.waiting).toBeNull();
    expect(q.result).not.toBeNull();
    stop();
  });

  it('applies only the latest response when an earlier one comes back later', async () => {
    const wb = new FakeWorkbench({ documents: docs });
    wb.queryLatency = (req) => (req.budget === 2000 ? 500 : 10);
    const q = new QueryStore(wb);
    q.question = 'staleness';
    q.budget = 2000;
    const slow = q.run();
    q.budget = 120;
    const fast = q.run();
    await vi.advanceTimersByTimeAsync(20);
    await fast;
    expect(q.result?.budget.context).toBe(120);
    expect(q.running).toBe(false);
    await vi.advanceTimersByTimeAsync(600);
    await slow;
    expect(q.result?.budget.context).toBe(120);
  });

  it('tells which nodes entered and left the loaded set since the previous run', async () => {
    const wb = new FakeWorkbench({ documents: docs });
    const q = new QueryStore(wb);
    q.question = 'staleness';
    q.budget = 8000;
    await q.run();
    const all = q.result!.candidates.filter((c) => c.loaded).map((c) => c.id);
    expect(all.length).toBe(3);
    expect(q.entered.size).toBe(0);

    q.budget = 120;
    await q.run();
    const few = q.result!.candidates.filter((c) => c.loaded).map((c) => c.id);
    expect(few.length).toBeLessThan(all.length);
    expect([...q.left].sort()).toEqual(all.filter((id) => !few.includes(id)).sort());
    expect(q.entered.size).toBe(0);

    q.budget = 8000;
    await q.run();
    expect([...q.entered].sort()).toEqual(all.filter((id) => !few.includes(id)).sort());
    expect(q.left.size).toBe(0);

    q.question = 'budget window';
    await q.run();
    expect(q.entered.size + q.left.size).toBe(0);
  });

  it('sends the settings and the picked model with its window', async () => {
    const wb = new FakeWorkbench({ documents: docs });
    const ollama = new OllamaStore(wb);
    await ollama.refresh();
    ollama.model = 'qwen2.5:7b';
    const q = new QueryStore(wb, ollama);
    q.question = '  staleness  ';
    q.purpose = 'verify';
    q.level = 'summary';
    q.scope = 'uploads';
    await q.run();
    expect(wb.queries[0]).toEqual({
      question: 'staleness', budget: 4096, purpose: 'verify', level: 'summary', model: 'qwen2.5:7b', window: 32768, scope: 'uploads',
    });
    expect(q.maxBudget).toBe(19648); // 60% of the window, in steps of 64
    ollama.model = '';
    expect(q.maxBudget).toBe(32768);
  });

  it('shows the engine\u2019s error and keeps the last good result', async () => {
    const wb = new FakeWorkbench({ documents: docs });
    const q = new QueryStore(wb);
    q.question = 'staleness';
    await q.run();
    const good = q.result;
    q.budget = 10;
    await q.run();
    expect(q.error?.message).toContain('too small');
    expect(q.result).toBe(good);

    wb.failNext.query = new WorkbenchError('query_failed', 'The index is being rebuilt.');
    q.budget = 4000;
    await q.run();
    expect(q.error?.code).toBe('query_failed');
  });

  it('asks for a question before running', async () => {
    const wb = new FakeWorkbench();
    const q = new QueryStore(wb);
    await q.run();
    expect(q.error?.message).toBe('Type a question first.');
    expect(wb.queries).toHaveLength(0);
  });
});
