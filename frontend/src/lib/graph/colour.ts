// Small colour helpers for the graph view. Sigma takes CSS colour strings;
// everything here works on #rrggbb (and #rgb) so results are predictable.

export interface RGB {
  r: number;
  g: number;
  b: number;
}

/** Parses #rgb, #rrggbb, rgb() or rgba(); null when it cannot. */
export function parseColour(input: string): RGB | null {
  const s = input.trim().toLowerCase();
  let m = /^#([0-9a-f]{3})$/.exec(s);
  if (m) {
    const [r, g, b] = m[1].split('').map((c) => parseInt(c + c, 16));
    return { r, g, b };
  }
  m = /^#([0-9a-f]{6})(?:[0-9a-f]{2})?$/.exec(s);
  if (m) {
    const n = parseInt(m[1], 16);
    return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
  }
  m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(s);
  if (m) return { r: Math.round(+m[1]), g: Math.round(+m[2]), b: Math.round(+m[3]) };
  return null;
}

const hex2 = (n: number) => Math.max(0, Math.min(255, Math.round(n))).toString(16).padStart(2, '0');

export function toHex({ r, g, b }: RGB): string {
  return `#${hex2(r)}${hex2(g)}${hex2(b)}`;
}

const mixCache = new Map<string, string>();

/** a blended towards b by t (0 → a, 1 → b), as #rrggbb. Memoised: styling calls it per node. */
export function mix(a: string, b: string, t: number): string {
  const key = `${a}|${b}|${t}`;
  let out = mixCache.get(key);
  if (out === undefined) {
    if (mixCache.size > 4096) mixCache.clear();
    out = mixRaw(a, b, t);
    mixCache.set(key, out);
  }
  return out;
}

function mixRaw(a: string, b: string, t: number): string {
  const ca = parseColour(a) ?? { r: 128, g: 128, b: 128 };
  const cb = parseColour(b) ?? { r: 128, g: 128, b: 128 };
  return toHex({
    r: ca.r + (cb.r - ca.r) * t,
    g: ca.g + (cb.g - ca.g) * t,
    b: ca.b + (cb.b - ca.b) * t,
  });
}

/** The colour with an alpha, as rgba(). */
export function withAlpha(colour: string, alpha: number): string {
  const c = parseColour(colour) ?? { r: 128, g: 128, b: 128 };
  return `rgba(${c.r},${c.g},${c.b},${Math.max(0, Math.min(1, alpha))})`;
}

/** Relative luminance (0 black … 1 white). */
export function luminance(colour: string): number {
  const c = parseColour(colour);
  if (!c) return 1;
  const lin = (v: number) => {
    const x = v / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}
