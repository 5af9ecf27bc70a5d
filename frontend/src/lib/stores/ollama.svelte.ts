// The model server's status (Ollama, or the OpenAI-compatible server
// configured) and the model the person picked, shared by the query view
// (its window) and the chat (who answers).
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

  /** The models that chat (or may: the server does not say): not those that only embed. */
  get chatModels(): ModelInfo[] {
    return this.models.filter((m) => !m.embedding || m.completion);
  }

  get up(): boolean {
    return this.status?.up === true;
  }

  /** What to call the server: "Ollama", "LM Studio", … */
  get server(): string {
    return this.status?.server || 'Ollama';
  }

  /** The picked model, when the server lists it. */
  get selected(): ModelInfo | undefined {
    return this.models.find((m) => m.name === this.model);
  }

  /** Asks the server again; keeps the picked model while it is still listed, else the settings' chat model, else the first. */
  async refresh(): Promise<void> {
    this.checking = true;
    try {
      this.status = await this.workbench.ollama();
      this.error = null;
      const chat = this.chatModels;
      if (!chat.some((m) => m.name === this.model)) this.model = chat.find((m) => m.name === this.status?.chat_model)?.name ?? chat[0]?.name ?? '';
    } catch (reason) {
      this.error = toWorkbenchError(reason);
      this.status = null;
      this.model = '';
    } finally {
      this.checking = false;
    }
  }
}
