import { describe, expect, it } from 'vitest';
import { WorkbenchError } from '../bridge/workbench';
import { golden } from '../bridge/fake';
import { ollamaCodes, openFailure, readOnlyRefusal, writeFailure } from './errors';

describe('the page’s words for the engine’s codes', () => {
  it('says why the workspace did not open with what the page offers, the engine’s message as the detail', () => {
    const damaged = openFailure(WorkbenchError.from(golden.damaged.open));
    expect(damaged.code).toBe('damaged');
    expect(damaged.message).toContain('Check workspace shows what can still be read');
    expect(damaged.detail).toBe(golden.damaged.open.message);
    expect(damaged.damage).toEqual(golden.damaged.open.damage);

    const inUse = openFailure(golden.error('in_use'));
    expect(inUse.message).toContain('press Try again');
    expect(inUse.detail).toBe(golden.rejection('in_use').message);

    // An internal failure's cause stays in the detail, after the engine's message.
    const internal = openFailure(golden.error('internal'));
    expect(internal.message).toContain('Loom could not open the workspace');
    expect(internal.detail).toBe(`${golden.rejection('internal').message} (${golden.rejection('internal').detail})`);
  });

  it('leaves a failure it has nothing better for as the engine said it', () => {
    const closed = golden.error('closed');
    expect(openFailure(closed)).toBe(closed);
    const notFound = golden.error('node_not_found');
    expect(writeFailure(notFound)).toBe(notFound);
  });

  it('says a write refused as read-only in the banner’s words', () => {
    const err = writeFailure(golden.error('read_only'));
    expect(err.code).toBe('read_only');
    expect(err.message).toBe(readOnlyRefusal);
    expect(err.detail).toBe(golden.rejection('read_only').message);
  });

  it('knows the codes of an Ollama that cannot take a turn', () => {
    expect(ollamaCodes).toContain(golden.rejection('ollama_not_running').code);
    expect(ollamaCodes).toContain(golden.ollama.notRunning.code);
    expect(ollamaCodes).not.toContain('ollama_bad_stream');
  });
});
