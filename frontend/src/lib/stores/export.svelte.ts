// Taking the assembled prompt elsewhere: the clipboard, or a Markdown file.
import { toWorkbenchError, WorkbenchError, type Workbench } from '../../bridge/workbench';
import type { QueryResult } from '../../bridge/types';

/** A file name from the question: its first words, lower case, hyphenated. */
export function markdownName(question: string): string {
  const slug = question
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .slice(0, 8)
    .join('-')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `loom-${slug || 'prompt'}.md`;
}

/** The saved file: a short header saying what this is, then the prompt exactly as assembled. */
export function markdownDocument(result: QueryResult, when: Date = new Date()): string {
  const b = result.split;
  const header = [
    `# ${result.question.replace(/\s+/g, ' ').trim()}`,
    '',
    `- Assembled by Loom on ${when.toISOString()}`,
    `- Purpose ${result.purpose}, level ${result.level}, branch ${result.branch}`,
    `- Window ${b.window} tokens (${b.window_source}); context ${b.context}; loaded ${result.loaded - (result.near ?? 0)} of ${result.relevant} relevant nodes${result.near ? ` and ${result.near} near the question` : ''} (${b.loaded} tokens)`,
    `- Prompt: ${result.prompt_tokens} tokens`,
    '',
    '---',
    '',
  ];
  return header.join('\n') + result.prompt + (result.prompt.endsWith('\n') ? '' : '\n');
}

export class ExportStore {
  /** True for a moment after a copy worked. */
  copied = $state(false);
  saving = $state(false);
  /** Where the last save went ("" when cancelled or none yet). */
  savedTo = $state('');
  error: WorkbenchError | null = $state(null);

  private copiedTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly workbench: Workbench,
    private readonly opts: { feedbackMs?: number } = {},
  ) {}

  async copyPrompt(result: QueryResult | null): Promise<boolean> {
    if (!result) {
      this.error = new WorkbenchError('invalid', 'Nothing to copy yet: ask a question first.');
      return false;
    }
    try {
      await this.workbench.copyText(result.prompt);
      this.error = null;
      this.copied = true;
      clearTimeout(this.copiedTimer);
      this.copiedTimer = setTimeout(() => (this.copied = false), this.opts.feedbackMs ?? 1800);
      return true;
    } catch (reason) {
      this.error = toWorkbenchError(reason);
      return false;
    }
  }

  async saveMarkdown(result: QueryResult | null): Promise<boolean> {
    if (!result) {
      this.error = new WorkbenchError('invalid', 'Nothing to save yet: ask a question first.');
      return false;
    }
    if (this.saving) return false;
    this.saving = true;
    try {
      this.savedTo = await this.workbench.saveMarkdown(markdownName(result.question), markdownDocument(result));
      this.error = null;
      return this.savedTo !== '';
    } catch (reason) {
      this.error = toWorkbenchError(reason);
      return false;
    } finally {
      this.saving = false;
    }
  }
}
