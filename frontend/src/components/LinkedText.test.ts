import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import LinkedText from './LinkedText.svelte';

describe('LinkedText', () => {
  const cited = 'n-3f2a00112233aabb';
  const known = 'n-77aa00112233aabb';
  const text = `Tiling helps [${cited}, n-77aa; n-9999] a lot.`;

  it('renders cited ids as citations labelled with their source, other known ids as links, the rest as text', async () => {
    const onselect = vi.fn();
    const oncite = vi.fn();
    const { container } = render(LinkedText, { text, known: [known], cites: { [cited]: 'papers/flash.pdf p. 4–5 §3.2.1' }, onselect, oncite });
    const chip = screen.getByTestId('cite-link');
    expect(chip.textContent).toBe('papers/flash.pdf p. 4–5 §3.2.1');
    expect(chip.getAttribute('title')).toContain(cited);
    const link = screen.getByTestId('node-link');
    expect([link.dataset.id, link.textContent]).toEqual([known, 'n-77aa']);
    expect(container.textContent).toBe('Tiling helps [papers/flash.pdf p. 4–5 §3.2.1, n-77aa; n-9999] a lot.');

    await fireEvent.click(chip);
    expect(oncite).toHaveBeenCalledWith(cited);
    await fireEvent.click(link);
    expect(onselect).toHaveBeenCalledWith(known);
    expect(oncite).toHaveBeenCalledTimes(1);
  });

  it('without cites, links ids as before', () => {
    render(LinkedText, { text, known: [cited, known] });
    expect(screen.queryByTestId('cite-link')).toBeNull();
    expect(screen.getAllByTestId('node-link').map((l) => l.dataset.id)).toEqual([cited, known]);
  });
});
