import { describe, expect, it } from 'vitest';
import { baseFontName, fontStyle, multiply, runsFromText, type FontFacts } from './pdf';

/** A US Letter page's viewport at scale 1, unrotated: y flips, the origin moves to the top. */
const letter = [1, 0, 0, -1, 0, 792];

/** A text item as pdf.js's getTextContent gives it: transform in PDF user space (origin at the bottom left). */
function item(str: string, x: number, baseline: number, size: number, width: number, fontName = 'g_d0_f1') {
  return { str, dir: 'ltr', transform: [size, 0, 0, size, x, baseline], width, height: size, fontName, hasEOL: false };
}

const styles = {
  g_d0_f1: { fontFamily: 'serif', ascent: 0.75, descent: -0.25, vertical: false },
  g_d0_f2: { fontFamily: 'serif', ascent: 0.75, descent: -0.25, vertical: false },
};

describe('runsFromText', () => {
  it('gives upright text its advance along the baseline and one size above it, top-left origin', () => {
    const runs = runsFromText({ items: [item('Introduction', 72, 700, 12, 80.5)], styles }, letter);
    expect(runs).toEqual([{ text: 'Introduction', x0: 72, y0: 80, x1: 152.5, y1: 92, size: 12, bold: false, italic: false, font: '' }]);
  });

  it('keeps the items’ order and leaves out blank items and marked-content markers', () => {
    const items = [
      { type: 'beginMarkedContent', id: '' },
      item('Left', 72, 700, 10, 20),
      item(' ', 92, 700, 10, 2.5),
      item('', 0, 0, 0, 0),
      { type: 'endMarkedContent', id: '' },
      item('Right', 320, 700, 10, 24),
    ];
    expect(runsFromText({ items, styles }, letter).map((r) => r.text)).toEqual(['Left', 'Right']);
  });

  it('reads bold and italic from the fonts pdf.js loaded, and drops their subset tag', () => {
    const fonts: Record<string, FontFacts> = {
      g_d0_f1: { name: 'ABCDEF+CMBX12', bold: false, italic: false },
      g_d0_f2: { name: 'QRSTUV+NimbusRomNo9L-ReguItal', bold: false, italic: true },
    };
    const runs = runsFromText({ items: [item('1 Method', 72, 700, 14.35, 60), item('emphasised', 72, 680, 10, 40, 'g_d0_f2')], styles }, letter, (id) => fonts[id]);
    expect(runs.map((r) => [r.font, r.bold, r.italic, r.size])).toEqual([
      ['CMBX12', true, false, 14.35],
      ['NimbusRomNo9L-ReguItal', false, true, 10],
    ]);
  });

  it('trusts pdf.js’s own bold and black flags when the name says nothing', () => {
    const runs = runsFromText({ items: [item('Heavy', 72, 700, 10, 30)], styles }, letter, () => ({ name: 'F1', black: true }));
    expect(runs[0].bold).toBe(true);
  });

  it('boxes text that runs up the margin (arXiv’s stamp) around its rotated rectangle', () => {
    // Rotated 90° anticlockwise: the baseline goes up the page from (30, 200).
    const stamp = { str: 'arXiv:2101.00001v1', dir: 'ltr', transform: [0, 20, -20, 0, 30, 200], width: 300, height: 20, fontName: 'g_d0_f1', hasEOL: false };
    const [run] = runsFromText({ items: [stamp], styles }, letter);
    expect(run).toMatchObject({ x0: 10, x1: 30, y0: 292, y1: 592, size: 20 });
  });

  it('applies the page’s crop box offset and rotation through the viewport', () => {
    // A page whose crop box starts at (50, 40): pdf.js's viewport moves the origin there.
    const cropped = [1, 0, 0, -1, -50, 832];
    const [run] = runsFromText({ items: [item('Text', 122, 740, 10, 20)], styles }, cropped);
    expect(run).toMatchObject({ x0: 72, y0: 82, x1: 92, y1: 92 });
    // The same page shown turned a quarter (Rotate 90): the text now runs down the view.
    const turned = [0, 1, 1, 0, 0, 0];
    const [down] = runsFromText({ items: [item('Text', 122, 740, 10, 20)], styles }, turned);
    expect(down).toMatchObject({ x0: 740, x1: 750, y0: 122, y1: 142, size: 10 });
  });
});

describe('fontStyle', () => {
  it.each([
    // TeX's codes
    ['CMBX12', true, false],
    ['CMR10', false, false],
    ['CMTI10', false, true],
    ['CMBXTI10', true, true],
    ['CMMI10', false, true],
    ['CMSL10', false, true],
    ['SFBX1200', true, false],
    ['SFTI1000', false, true],
    ['LMRoman10-Bold', true, false],
    ['LMRoman10-BoldItalic', true, true],
    ['LinLibertineTB', true, false],
    ['LinLibertineTZI', true, true],
    ['LinLibertineTI', false, true],
    ['LinLibertineT', false, false],
    ['LinBiolinumTB', true, false],
    // Foundries' words
    ['Times-Bold', true, false],
    ['TimesNewRomanPS-BoldMT', true, false],
    ['TimesNewRomanPSMT', false, false],
    ['Arial,BoldItalic', true, true],
    ['Helvetica-Oblique', false, true],
    ['NimbusRomNo9L-Medi', true, false],
    ['NimbusRomNo9L-MediItal', true, true],
    ['NimbusRomNo9L-Regu', false, false],
    ['MinionPro-It', false, true],
    ['MinionPro-BoldIt', true, true],
    ['MyriadPro-Semibold', true, false],
    ['Calibri', false, false],
    ['Arial-Black', true, false],
    ['SourceSansPro-Medium', false, false],
    ['Georgia', false, false],
    ['ABCDEF+CMBX10', true, false],
  ])('%s: bold %s, italic %s', (name, bold, italic) => {
    expect(fontStyle(name)).toEqual({ bold, italic });
  });

  it('drops a subset tag and nothing else', () => {
    expect(baseFontName('ABCDEF+CMR10')).toBe('CMR10');
    expect(baseFontName('Times-Roman')).toBe('Times-Roman');
  });
});

describe('multiply', () => {
  it('applies the right-hand matrix first, as pdf.js’s Util.transform', () => {
    expect(multiply(letter, [2, 0, 0, 2, 10, 20])).toEqual([2, 0, 0, -2, 10, 772]);
  });
});
