import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWorkbench, golden } from '../../bridge/fake';
import { QueryStore } from './query.svelte';
import { OllamaStore } from './ollama.svelte';
import { WorkbenchError } from '../../bridge/workbench';

const { linked, staleness, noWords } = golden.questions;

describe('QueryStore', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('debounces live re-runs and sends only the last budget', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    const q = new QueryStore(wb);
    q.question = linked;
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
    const wb = new FakeWorkbench({ library: 'notes' });
    wb.queryLatency = () => 1000;
    const q = new QueryStore(wb);
    const stop = q.start();
    wb.emitOllamaWait(golden.wait);
    expect(q.waiting).toBeNull(); // no question is waiting
    q.question = staleness;
    const run = q.run();
    wb.emitOllamaWait(golden.wait);
    expect(q.waiting).toBe(golden.wait.message);
    await vi.advanceTimersByTimeAsync(1000);
    await run;
    expect(q.waiting).toBeNull();
    expect(q.result).not.toBeNull();
    stop();
  });

  it('applies only the latest response when an earlier one comes back later', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    wb.queryLatency = (req) => (req.budget === 2000 ? 500 : 10);
    const q = new QueryStore(wb);
    q.question = linked;
    q.budget = 2000;
    const slow = q.run();
    q.budget = 100;
    const fast = q.run();
    await vi.advanceTimersByTimeAsync(20);
    await fast;
    expect(q.result?.split.context).toBe(100);
    expect(q.running).toBe(false);
    await vi.advanceTimersByTimeAsync(600);
    await slow;
    expect(q.result?.split.context).toBe(100);
  });

  it('tells which nodes entered and left the loaded set since the previous run', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    const q = new QueryStore(wb);
    q.question = linked;
    q.budget = 4096;
    await q.run();
    const all = q.result!.candidates.filter((c) => c.loaded).map((c) => c.id);
    expect(all.length).toBe(3);
    expect(q.entered.size).toBe(0);

    q.budget = 70;
    await q.run();
    const few = q.result!.candidates.filter((c) => c.loaded).map((c) => c.id);
    expect(few.length).toBe(1);
    expect([...q.left].sort()).toEqual(all.filter((id) => !few.includes(id)).sort());
    expect(q.entered.size).toBe(0);

    q.budget = 4096;
    await q.run();
    expect([...q.entered].sort()).toEqual(all.filter((id) => !few.includes(id)).sort());
    expect(q.left.size).toBe(0);

    q.question = staleness;
    await q.run();
    expect(q.entered.size + q.left.size).toBe(0);
  });

  it('sends the settings and the picked model with its window', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    const ollama = new OllamaStore(wb);
    await ollama.refresh();
    const big = golden.ollama.up.models[1];
    ollama.model = big.name;
    const q = new QueryStore(wb, ollama);
    q.question = `  ${staleness}  `;
    q.purpose = 'verify';
    q.level = 'summary';
    q.scope = 'notes';
    await q.run();
    expect(wb.queries[0]).toEqual({
      question: staleness, budget: 4096, purpose: 'verify', level: 'summary', model: big.name, window: big.context_length, scope: 'notes',
    });
    expect(q.maxBudget).toBe(big.max_budget); // the engine's rule for the model's window
    expect(big.max_budget).toBeGreaterThan(big.context_length / 2);
    expect(big.max_budget).toBeLessThan(big.context_length * 0.7);
    ollama.model = '';
    expect(q.maxBudget).toBe(q.result!.limits.max_budget); // the last answer's (its request named no model)
  });

  it('offers the purposes and levels the engine declares', async () => {
    const { purposes, levels } = await import('./query.svelte');
    expect(purposes).toEqual(['answer', 'verify', 'explore', 'decide', 'create']);
    expect(levels).toEqual(['adaptive', 'detailed', 'summary', 'essence', 'map']);
  });

  it('shows the engine’s error with its code and keeps the last good result', async () => {
    const wb = new FakeWorkbench({ library: 'notes' });
    const q = new QueryStore(wb);
    q.question = linked;
    await q.run();
    const good = q.result;
    q.budget = 20;
    await q.run();
    // Too small for the manifest: the engine refuses the request, saying why.
    expect(q.error?.code).toBe('invalid');
    expect(q.error?.message).toContain('smaller than the manifest needs');
    expect(q.result).toBe(good);

    q.question = noWords;
    q.budget = 4096;
    await q.run();
    expect(q.error?.code).toBe('invalid');
    expect(q.error?.message).toBe(golden.queries.find((g) => g.request.question === noWords)?.error?.message);

    wb.failNext.query = golden.error('ingest_running');
    q.question = linked;
    await q.run();
    expect(q.error?.code).toBe('busy');
  });

  it('asks for a question before running', async () => {
    const wb = new FakeWorkbench();
    const q = new QueryStore(wb);
    await q.run();
    expect(q.error).toBeInstanceOf(WorkbenchError);
    expect(q.error).toMatchObject({ code: 'invalid', message: 'Type a question first.' });
    expect(wb.queries).toHaveLength(0);
  });
});
