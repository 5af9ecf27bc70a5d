// What the page says for the failures it words itself. The engine's
// message is written for any front end (the CLI too: "use another
// --workspace"); where the page has something better to offer — a banner
// that says why, a panel with Check workspace and Repair, Try again — it
// switches on the code and says that instead, keeping the engine's message
// as the detail.
import { WorkbenchError, type PageErrorCode } from '../bridge/workbench';

/** A write the engine refused because the workspace is open read-only (code read_only): the banner says why. */
export const readOnlyRefusal = 'Nothing was changed: this workspace is open read-only (the banner at the top says why and what to do).';

/** Why the workspace did not open, for the codes the page offers a way out of. */
const openWording: Partial<Record<PageErrorCode, string>> = {
  damaged:
    'A file of the workspace is damaged, so Loom did not open it. Nothing has been changed. Check workspace shows what can still be read; Repair salvages it into a fresh workspace in the same place and keeps the damaged one beside it.',
  in_use:
    'Another Loom process is using this workspace, and it has not saved anything Loom could read meanwhile. Close it (or let its ingest finish), then press Try again.',
  internal:
    'Loom could not open the workspace. Check that its folder is readable and writable (on the desktop, LOOM_WORKSPACE can point Loom at another folder).',
};

/**
 * The codes of an Ollama that cannot take a turn at all — not running, not
 * answering, without the model: the chat is off, which the Ollama note says
 * as information, not as an error. (A stream that broke or a prompt too
 * long for the model are errors of the turn.)
 */
export const ollamaCodes: readonly PageErrorCode[] = ['ollama_not_running', 'ollama_timeout', 'ollama_model_missing'];

/**
 * The page's wording of a failure, with the engine's message kept as the
 * detail; the failure itself when the page has nothing better to say.
 */
function reworded(err: WorkbenchError, message: string | undefined): WorkbenchError {
  if (!message || message === err.message) return err;
  const detail = err.detail ? `${err.message} (${err.detail})` : err.message;
  return new WorkbenchError(err.code, message, detail, err.damage);
}

/** Why the workspace did not open, as the page says it. */
export function openFailure(err: WorkbenchError): WorkbenchError {
  return reworded(err, openWording[err.code]);
}

/** A write that failed, as the page says it: a read-only workspace in the banner's words. */
export function writeFailure(err: WorkbenchError): WorkbenchError {
  return reworded(err, err.code === 'read_only' ? readOnlyRefusal : undefined);
}
