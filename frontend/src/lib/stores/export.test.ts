import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeWorkbench, golden } from '../../bridge/fake';
import { ExportStore, markdownDocument, markdownName } from './export.svelte';
import { fromPromptId } from '../nodeids';

describe('ExportStore', () => {
  const wb = new FakeWorkbench({ library: 'notes' });
  const result = wb.assemble({ question: golden.questions.staleness, budget: 2000 });

  afterEach(() => vi.useRealTimers());

  it('copies the assembled prompt and says so for a while', async () => {
    vi.useFakeTimers();
    const ex = new ExportStore(wb, { feedbackMs: 1000 });
    expect(await ex.copyPrompt(result)).toBe(true);
    expect(wb.copied).toEqual([result.prompt]);
    // Its sources read outside Loom: each block names its file and first line after its (shortened) id
    // (its full text shows where it ends), and its title once (here the text opens with it, so the
    // header leaves it out).
    for (const c of result.candidates.filter((c) => c.loaded)) {
      expect(c.level).toBe('detailed');
      expect(c.id.startsWith(fromPromptId(c.short_id ?? '') ?? '-'), 'the short id is a prefix of the id, in letters').toBe(true);
      const header = wb.copied[0].split('\n').find((l) => l.startsWith(`[${c.short_id}] `));
      expect(header).toBe(`[${c.short_id}] ${c.title.split(' › ')[0]} · ${c.cite!.split(' ').pop()!.split('–')[0]}`);
    }
    expect(wb.copied[0]).toMatch(/staleness\.txt · L\d+\nPlain text notes about staleness/);
    expect(ex.copied).toBe(true);
    await vi.advanceTimersByTimeAsync(999);
    expect(ex.copied).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(ex.copied).toBe(false);
  });

  it('refuses to copy before there is a prompt', async () => {
    const ex = new ExportStore(new FakeWorkbench());
    expect(await ex.copyPrompt(null)).toBe(false);
    expect(ex.error?.message).toContain('ask a question first');
  });

  it('saves the prompt as Markdown named after the question', async () => {
    const ex = new ExportStore(wb);
    expect(await ex.saveMarkdown(result)).toBe(true);
    const saved = wb.saved.at(-1)!;
    expect(saved.name).toBe('loom-how-does-staleness-decay.md');
    expect(saved.text.startsWith('# How does staleness decay?\n')).toBe(true);
    expect(saved.text).toContain(result.prompt);
    expect(ex.savedTo).toBe('/tmp/loom-how-does-staleness-decay.md');
  });

  it('names files from any question', () => {
    expect(markdownName('Café — über résumé?!')).toBe('loom-cafe-uber-resume.md');
    expect(markdownName('???')).toBe('loom-prompt.md');
    expect(markdownDocument(result, new Date(0))).toContain('1970-01-01T00:00:00.000Z');
  });

  it('counts what is near the question apart from the relevant', () => {
    expect(markdownDocument(result)).toContain(`loaded ${result.loaded} of ${result.relevant} relevant nodes (`);
    const wide = { ...result, loaded: result.loaded + 3, near: 3 };
    expect(markdownDocument(wide)).toContain(`loaded ${result.loaded} of ${result.relevant} relevant nodes and 3 near the question (`);
  });
});
