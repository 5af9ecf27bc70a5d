// The workspace itself: whether it opened, read-only (and why) or not at
// all (and why), opening it again, and the doctor's check and the repair.
import { toWorkbenchError, type Stats, type Workbench, type WorkbenchError, type WorkspaceState } from '../../bridge/workbench';
import type { Checkup, ReadOnlyState, RepairReport } from '../../bridge/types';
import { openFailure } from '../errors';

export type OpenState = 'loading' | 'ready' | 'failed';

/** How many of the checkup's findings are problems. */
export function problems(c: Checkup | null): number {
  return c?.findings.filter((f) => f.status === 'problem').length ?? 0;
}

export class WorkspaceStore {
  state: OpenState = $state('loading');
  /** The folder, once known (also when the workspace did not open). */
  dir = $state('');
  stats: Stats | null = $state(null);
  /** Set while the workspace is open read-only. */
  readOnly: ReadOnlyState | null = $state(null);
  /** Why the workspace did not open (state "failed"). */
  error: WorkbenchError | null = $state(null);

  /** Try again is running; tries counts them (the banner says when one found nothing changed). */
  reopening = $state(false);
  tries = $state(0);

  checking = $state(false);
  checkup: Checkup | null = $state(null);
  checkError: WorkbenchError | null = $state(null);

  repairing = $state(false);
  report: RepairReport | null = $state(null);
  repairError: WorkbenchError | null = $state(null);

  /** Called whenever the workspace (re)opens, so the page reads it again. */
  onopen: (() => void) | undefined;

  constructor(private readonly workbench: Workbench) {}

  /**
   * The tooltip of a write disabled because the workspace is read-only
   * (null when writes are allowed).
   */
  get lock(): string | null {
    return this.readOnly ? `${this.readOnly.title}: nothing can be added or changed here.` : null;
  }

  /** Asks which workspace is open and how. */
  async load(): Promise<void> {
    const [dir, st] = await Promise.allSettled([this.workbench.workspaceDir(), this.workbench.workspace()]);
    if (dir.status === 'fulfilled') this.dir = dir.value;
    if (st.status === 'rejected') {
      this.fail(toWorkbenchError(st.reason));
      return;
    }
    this.opened(st.value);
  }

  private opened(st: WorkspaceState) {
    this.dir = st.dir || this.dir;
    this.stats = st.stats;
    this.readOnly = st.read_only ?? null;
    this.error = null;
    this.state = 'ready';
    this.onopen?.();
  }

  private fail(error: WorkbenchError) {
    this.error = openFailure(error);
    this.readOnly = null;
    this.state = 'failed';
  }

  /** Closes the workspace and opens it again: "Try again". */
  async reopen(): Promise<void> {
    if (this.reopening) return;
    this.reopening = true;
    try {
      this.opened(await this.workbench.reopen());
    } catch (reason) {
      this.fail(toWorkbenchError(reason));
    } finally {
      this.tries++;
      this.reopening = false;
    }
  }

  /** Runs the doctor over the workspace. */
  async check(): Promise<void> {
    if (this.checking || this.repairing) return;
    this.checking = true;
    this.checkError = null;
    this.report = null;
    this.repairError = null;
    try {
      this.checkup = await this.workbench.checkWorkspace();
    } catch (reason) {
      this.checkError = toWorkbenchError(reason);
    } finally {
      this.checking = false;
    }
    // An open workspace was closed for the check and opened again.
    if (this.state === 'ready') await this.refresh();
  }

  /** Repairs the workspace; the report stays to be read. */
  async repair(): Promise<void> {
    if (this.checking || this.repairing) return;
    this.repairing = true;
    this.repairError = null;
    try {
      this.report = await this.workbench.repairWorkspace();
      this.checkup = this.report.after ?? null;
    } catch (reason) {
      this.repairError = toWorkbenchError(reason);
    } finally {
      this.repairing = false;
    }
    // A workspace that was open has been opened again (or failed to): the
    // page reads it. One that had not opened stays on its report until the
    // person opens it (openRepaired), so they read what was lost first.
    if (this.state === 'ready') await this.refresh();
  }

  /** After a repair of a workspace that had not opened: open the result. */
  async openRepaired(): Promise<void> {
    this.report = null;
    this.checkup = null;
    await this.load();
  }

  /** Forgets the last check and repair (the dialog closed). */
  dismiss(): void {
    if (this.checking || this.repairing) return;
    this.checkup = null;
    this.checkError = null;
    this.report = null;
    this.repairError = null;
  }

  /**
   * Reads the workspace's state again: after it was closed and opened, and
   * when a write found it read-only (it went read-only after the page
   * looked), so the banner says why.
   */
  async refresh(): Promise<void> {
    try {
      this.opened(await this.workbench.workspace());
    } catch (reason) {
      this.fail(toWorkbenchError(reason));
    }
  }
}
