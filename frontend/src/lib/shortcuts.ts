// The workbench's keyboard shortcuts: one table the help overlay lists and
// one function the window's keydown handler asks.

export type Action =
  | 'focus-question'
  | 'run-query'
  | 'pick-files'
  | 'copy-prompt'
  | 'save-markdown'
  | 'clear-selection'
  | 'toggle-chat'
  | 'help';

const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** "Ctrl" or "⌘", as the person's keyboard says. */
export const mod = mac ? '⌘' : 'Ctrl';

export const shortcuts: { action: Action; keys: string[]; label: string }[] = [
  { action: 'focus-question', keys: [`${mod}+K`, '/'], label: 'Focus the question' },
  { action: 'run-query', keys: [`${mod}+Enter`], label: 'Assemble context for the question' },
  { action: 'pick-files', keys: [`${mod}+O`], label: 'Add files to the library' },
  { action: 'copy-prompt', keys: [`${mod}+Shift+C`], label: 'Copy the assembled prompt' },
  { action: 'save-markdown', keys: [`${mod}+S`], label: 'Save the prompt as Markdown' },
  { action: 'toggle-chat', keys: [`${mod}+J`], label: 'Show or hide the chat' },
  { action: 'clear-selection', keys: ['Esc'], label: 'Close the source viewer or this help, clear the selected node' },
  { action: 'help', keys: ['?'], label: 'Show these shortcuts' },
];

/** Whether keys typed here are text (so "/" and "?" are characters, not commands). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'file', 'color'].includes(target.type);
  }
  return false;
}

/** The action a key press asks for, or null. */
export function actionFor(e: KeyboardEvent): Action | null {
  const withMod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (withMod && !e.altKey) {
    if (e.shiftKey && key === 'c') return 'copy-prompt';
    if (e.shiftKey) return null;
    switch (key) {
      case 'k':
        return 'focus-question';
      case 'Enter':
        return 'run-query';
      case 'o':
        return 'pick-files';
      case 's':
        return 'save-markdown';
      case 'j':
        return 'toggle-chat';
    }
    return null;
  }
  if (e.altKey || withMod) return null;
  if (key === 'Escape') return 'clear-selection';
  if (isTyping(e.target)) return null;
  if (key === '/') return 'focus-question';
  if (key === '?') return 'help';
  return null;
}
