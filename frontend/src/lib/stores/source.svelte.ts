// The source viewer's state: which node's source is open, the document the
// engine sent for it, and opening the file in the system's viewer (desktop).
// Only the latest open's answer is kept.
import { toWorkbenchError, type Workbench, type WorkbenchError } from '../../bridge/workbench';
import type { SourceView } from '../../bridge/types';

export class SourceStore {
  /** The node whose source is open, or null (closed). */
  id: string | null = $state(null);
  /** The document once it arrives. */
  view: SourceView | null = $state(null);
  loading = $state(false);
  error: WorkbenchError | null = $state(null);
  /** Opening the file in the system's viewer failed: why. */
  systemError: WorkbenchError | null = $state(null);

  private seq = 0;

  constructor(private readonly workbench: Workbench) {}

  /** The system's viewer is there: the desktop app (the web edition has none). */
  get canOpenInSystem(): boolean {
    return typeof this.workbench.openInSystemViewer === 'function';
  }

  /** Opens the source of a node (a citation was clicked). */
  async open(id: string): Promise<void> {
    const seq = ++this.seq;
    this.id = id;
    this.error = null;
    this.systemError = null;
    if (this.view && !this.view.sections.some((s) => s.id === id)) this.view = null;
    this.loading = true;
    try {
      const view = await this.workbench.openSource(id);
      if (seq === this.seq) this.view = view;
    } catch (reason) {
      if (seq === this.seq) {
        this.view = null;
        this.error = toWorkbenchError(reason);
      }
    } finally {
      if (seq === this.seq) this.loading = false;
    }
  }

  close(): void {
    this.seq++;
    this.id = null;
    this.view = null;
    this.loading = false;
    this.error = null;
    this.systemError = null;
  }

  /** Hands the open source's file to the system's viewer (at the focus's page). */
  async openInSystem(): Promise<void> {
    const focus = this.view?.focus;
    if (!focus || !this.workbench.openInSystemViewer) return;
    this.systemError = null;
    try {
      await this.workbench.openInSystemViewer(focus);
    } catch (reason) {
      this.systemError = toWorkbenchError(reason);
    }
  }
}
