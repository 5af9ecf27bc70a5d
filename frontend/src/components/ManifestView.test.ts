import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import ManifestView from './ManifestView.svelte';

describe('ManifestView', () => {
  it('shows the manifest exactly as the model sees it', () => {
    const manifest = '[Context loaded: 3 of 7 relevant nodes]\n[Node: OAuth token analysis | relevance: 0.92 | source: output]\n  indented <b>not html</b>\n[Additional context available but not loaded: 4 nodes]';
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
});
