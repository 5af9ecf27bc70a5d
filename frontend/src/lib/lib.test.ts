import { describe, expect, it } from 'vitest';
import { splitNodeIds } from './nodeids';
import { actionFor } from './shortcuts';
import { fixInSettings, formatBytes, formatCount, formatMicros, plural } from './format';
import ollamaGolden from '../bridge/golden/ollama.json';

const key = (init: KeyboardEventInit, target?: EventTarget) => {
  const e = new KeyboardEvent('keydown', init);
  if (target) Object.defineProperty(e, 'target', { value: target });
  return e;
};

describe('splitNodeIds', () => {
  const known = ['n-3f2a00112233aabb', 'c-0011223344556677'];

  it('links known ids, unique prefixes and full ids; leaves the rest as text', () => {
    const pieces = splitNodeIds('See [n-3f2a] and c-0011223344556677, n-ffffffffffffffff, not n-zz or n-1234.', known);
    expect(pieces.filter((p) => p.id).map((p) => [p.text, p.id])).toEqual([
      ['n-3f2a', 'n-3f2a00112233aabb'],
      ['c-0011223344556677', 'c-0011223344556677'],
      ['n-ffffffffffffffff', 'n-ffffffffffffffff'],
    ]);
    expect(pieces.map((p) => p.text).join('')).toBe('See [n-3f2a] and c-0011223344556677, n-ffffffffffffffff, not n-zz or n-1234.');
  });

  it('gives the ids it knows a cite for their cite, several to a bracket, shortened or not', () => {
    const cites = { 'n-3f2a00112233aabb': 'papers/flash.pdf p. 4–5 §3.2.1', 'n-77aa00112233aabb': 'notes/a.md#b L12–30' };
    const text = 'Tiling [n-3f2a00112233aabb, n-77aa; n-9999] helps [n-4444444444444444].';
    const pieces = splitNodeIds(text, [], cites);
    expect(pieces.filter((p) => p.id).map((p) => [p.text, p.id, p.cite])).toEqual([
      ['n-3f2a00112233aabb', 'n-3f2a00112233aabb', 'papers/flash.pdf p. 4–5 §3.2.1'],
      ['n-77aa', 'n-77aa00112233aabb', 'notes/a.md#b L12–30'],
      // A full id nothing cites is still a node (it may be in the graph), without a cite.
      ['n-4444444444444444', 'n-4444444444444444', undefined],
    ]);
    expect(pieces.some((p) => p.text.includes('n-9999') && !p.id), 'an id nothing knows stays text').toBe(true);
    expect(pieces.map((p) => p.text).join('')).toBe(text);
  });

  it('links ids a prompt writes in letters, inside brackets only', () => {
    // n-3f2a… is "opad" in letters (0 → e, 1 → t, 2 → a, 3 → o, … a → d, … f → p), n-77aa… "rrdd".
    const cites = { 'n-3f2a00112233aabb': 'papers/flash.pdf p. 4–5 §3.2.1', 'n-77aa00112233aabb': 'notes/a.md#b L12–30' };
    const text = 'Tiling [opad, rrdd; hpih] helps [OPAD]; opad outside a bracket is a word, and so is [rain].';
    const pieces = splitNodeIds(text, [], cites);
    expect(pieces.filter((p) => p.id).map((p) => [p.text, p.id, p.cite])).toEqual([
      ['opad', 'n-3f2a00112233aabb', 'papers/flash.pdf p. 4–5 §3.2.1'],
      ['rrdd', 'n-77aa00112233aabb', 'notes/a.md#b L12–30'],
      ['OPAD', 'n-3f2a00112233aabb', 'papers/flash.pdf p. 4–5 §3.2.1'],
    ]);
    expect(pieces.map((p) => p.text).join('')).toBe(text);
  });
});

describe('actionFor', () => {
  it('maps the shortcuts', () => {
    expect(actionFor(key({ key: 'k', ctrlKey: true }))).toBe('focus-question');
    expect(actionFor(key({ key: 'k', metaKey: true }))).toBe('focus-question');
    expect(actionFor(key({ key: 'Enter', ctrlKey: true }))).toBe('run-query');
    expect(actionFor(key({ key: 'o', ctrlKey: true }))).toBe('pick-files');
    expect(actionFor(key({ key: 'C', ctrlKey: true, shiftKey: true }))).toBe('copy-prompt');
    expect(actionFor(key({ key: 's', metaKey: true }))).toBe('save-markdown');
    expect(actionFor(key({ key: 'j', ctrlKey: true }))).toBe('toggle-chat');
    expect(actionFor(key({ key: 'Escape' }))).toBe('clear-selection');
    expect(actionFor(key({ key: 'c', ctrlKey: true }))).toBeNull(); // plain copy stays the system's
  });

  it('leaves "/" and "?" to text fields', () => {
    const area = document.createElement('textarea');
    expect(actionFor(key({ key: '/' }, area))).toBeNull();
    expect(actionFor(key({ key: '?' }, area))).toBeNull();
    expect(actionFor(key({ key: '/' }, document.body))).toBe('focus-question');
    expect(actionFor(key({ key: '?' }, document.body))).toBe('help');
  });
});

describe('format', () => {
  it('writes numbers for people', () => {
    expect(formatCount(1234567)).toMatch(/^1.234.567$/);
    expect(plural(1, 'node')).toBe('1 node');
    expect(plural(2, 'node')).toBe('2 nodes');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatMicros(640)).toBe('640 µs');
    expect(formatMicros(6300)).toBe('6.3 ms');
  });
});

describe('fixInSettings', () => {
  it("says the engine's fixes as the Settings dialog has them: the address above, Save and check", () => {
    const fix = ollamaGolden.not_running.fix;
    expect(fix).toContain('press Retry'); // the chat panel's words, written by the engine
    expect(fixInSettings(fix)).toBe(
      'Start it with `ollama serve` (install it from ollama.com), or correct the address above (or LOOM_OLLAMA_URL), then press Save and check.',
    );
    expect(fixInSettings('Start your server, or change the address in Settings, then press Retry.')).toBe(
      'Start your server, or correct the address above, then press Save and check.',
    );
    expect(fixInSettings('Pull one, for example `ollama pull llama3.2`.')).toBe('Pull one, for example `ollama pull llama3.2`.');
  });
});
