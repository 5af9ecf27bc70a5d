// Which node the person is looking at, shared by the graph, the candidate
// table, the chat log and the details panel. Selecting fetches the node's
// details; only the latest selection's answer is kept.
import { toWorkbenchError, type Workbench, type WorkbenchError } from '../../bridge/workbench';
import type { NodeDetail } from '../../bridge/types';

export class SelectionStore {
  /** The selected node's id, or null. */
  id: string | null = $state(null);
  /** Its details once they arrive. */
  detail: NodeDetail | null = $state(null);
  loading = $state(false);
  error: WorkbenchError | null = $state(null);

  private seq = 0;

  constructor(private readonly workbench: Workbench) {}

  /** Selects a node (null clears) and fetches what the details panel shows. */
  async select(id: string | null): Promise<void> {
    const seq = ++this.seq;
    this.id = id;
    this.error = null;
    if (id === null) {
      this.detail = null;
      this.loading = false;
      return;
    }
    if (this.detail?.id !== id) this.detail = null;
    this.loading = true;
    try {
      const detail = await this.workbench.node(id);
      if (seq === this.seq) this.detail = detail;
    } catch (reason) {
      if (seq === this.seq) this.error = toWorkbenchError(reason);
    } finally {
      if (seq === this.seq) this.loading = false;
    }
  }

  clear(): void {
    void this.select(null);
  }

  /** Fetches the selected node again (after a pin, an ingest). */
  async refresh(): Promise<void> {
    if (this.id) await this.select(this.id);
  }
}
