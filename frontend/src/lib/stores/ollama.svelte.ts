// Ollama's status and the model the person picked, shared by the query
// view (its window) and the chat (who answers).
import { toWorkbenchError, type Workbench, type WorkbenchError } from '../../bridge/workbench';
import type { ModelInfo, OllamaStatus } from '../../bridge/types';

export class OllamaStore {
  status: OllamaStatus | null = $state(null);
  checking = $state(false);
  /** The status call itself failed (not "Ollama is down", which is in status). */
  error: WorkbenchError | null = $state(null);
  /** The picked model's name; "" for none. */
  model = $state('');

  constructor(private readonly workbench: Workbench) {}

  get models(): ModelInfo[] {
    return this.status?.models ?? [];
  }

  get up(): boolean {
    return this.status?.up === true;
  }

  /** The picked model, when Ollama lists it. */
  get selected(): ModelInfo | undefined {
    return this.models.find((m) => m.name === this.model);
  }

  /** Asks Ollama again; keeps the picked model while it is still listed, else picks the first. */
  async refresh(): Promise<void> {
    this.checking = true;
    try {
      this.status = await this.workbench.ollama();
      this.error = null;
      if (!this.models.some((m) => m.name === this.model)) this.model = this.models[0]?.name ?? '';
    } catch (reason) {
      this.error = toWorkbenchError(reason);
      this.status = null;
      this.model = '';
    } finally {
      this.checking = false;
    }
  }
}
