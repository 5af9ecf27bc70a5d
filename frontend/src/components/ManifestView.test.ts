import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import ManifestView from './ManifestView.svelte';

describe('ManifestView', () => {
  it('shows the manifest exactly as the model sees it', () => {
    const manifest = '[Context loaded: 3 of 7 relevant nodes, 820 tokens]\n  indented <b>not html</b>\n[Relevant, not loaded: [n-3f2a00] OAuth token analysis (410 tokens); and 3 more]';
    render(ManifestView, { manifest });
    const pre = screen.getByTestId('manifest');
    expect(pre.tagName).toBe('PRE');
    expect(pre.textContent).toBe(manifest);
    expect(pre.querySelector('b')).toBeNull();
    expect(screen.queryByTestId('catalog')).toBeNull();
  });

  it('adds the catalog when there is one', () => {
    render(ManifestView, { manifest: 'm', catalog: 'a\nb' });
    expect(screen.getByTestId('catalog').textContent).toBe('a\nb');
  });

  it('names the loaded nodes’ sources as citations that open them', async () => {
    const oncite = vi.fn();
    const sources = [
      { id: 'n-1', cite: 'notes/a.md#b L12–30' },
      { id: 'n-2', cite: 'papers/flash.pdf p. 4–5 §3.2.1' },
    ];
    render(ManifestView, { manifest: 'm', sources, oncite });
    const chips = within(screen.getByTestId('manifest-sources')).getAllByTestId('cite-link');
    expect(chips.map((c) => c.textContent)).toEqual(['notes/a.md#b L12–30', 'papers/flash.pdf p. 4–5 §3.2.1']);
    await fireEvent.click(chips[1]);
    expect(oncite).toHaveBeenCalledWith('n-2');
  });
});
