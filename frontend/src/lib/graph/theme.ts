// The graph view's colours, from the page's CSS variables (src/app.css) so
// it follows the light and dark themes, plus the few hues the CSS does not
// name (edge kinds, sources, query states), picked per theme for contrast.
import type { EdgeKind } from '../../bridge/workbench';
import { EdgeKinds } from '../../bridge/types';
import { luminance, mix } from './colour';

export interface GraphTheme {
  dark: boolean;
  bg: string;
  surface: string;
  text: string;
  muted: string;
  accent: string;
  border: string;
  /** Content nodes by source. */
  content: { input: string; output: string; analysis: string };
  /** Edge colour per kind. */
  edges: Record<EdgeKind, string>;
  /** Ring of pinned nodes. */
  pinned: string;
  /** Ring of loaded candidates. */
  loaded: string;
  /** Dashed ring of relevant candidates that were not loaded. */
  relevant: string;
  /** Hop palette: index 0 = seeds (strongest) … 4 = 4+ hops (faint). */
  hops: [string, string, string, string, string];
  /** Nodes no seed reaches, and anything dimmed. */
  faint: string;
}

/** The kinds of edge, as the engine declares them (model.EdgeKind). */
export const EDGE_KINDS: readonly EdgeKind[] = EdgeKinds;

/** The variables app.css defines, light theme (used when the page has none, e.g. in tests). */
export const LIGHT_DEFAULTS = {
  bg: '#f6f6f8',
  surface: '#ffffff',
  text: '#1d1f24',
  muted: '#60646f',
  accent: '#3b3f9e',
  border: '#dcdde3',
};

export const DARK_DEFAULTS = {
  bg: '#1b1d22',
  surface: '#24272e',
  text: '#e8e9ed',
  muted: '#a0a4ae',
  accent: '#a9adff',
  border: '#373b45',
};

export type ThemeVars = typeof LIGHT_DEFAULTS;

/** Builds the whole theme from the six CSS variables. */
export function makeTheme(vars: ThemeVars): GraphTheme {
  const dark = luminance(vars.bg) < 0.2;
  const hopBase = dark ? '#ff8a4c' : '#c2410c';
  const hops = [0, 0.3, 0.5, 0.66, 0.8].map((t) => mix(hopBase, vars.bg, t)) as GraphTheme['hops'];
  return {
    dark,
    ...vars,
    content: dark
      ? { input: mix(vars.muted, vars.bg, 0.15), output: '#4fd1b5', analysis: '#f2c14e' }
      : { input: mix(vars.muted, vars.bg, 0.1), output: '#0f8f78', analysis: '#b7791f' },
    edges: dark
      ? { about: '#8b90ff', related: '#d38bff', parent: '#8c93a3', links: '#5cc8ff', derived: '#ffb35c', calls: '#7ee08a', imports: '#c9b27c', implements: '#ff8fa3' }
      : { about: '#5a5fd1', related: '#a23fd6', parent: '#7d8494', links: '#1c8ad6', derived: '#d9730d', calls: '#2f9e44', imports: '#8a6d1f', implements: '#c2255c' },
    pinned: dark ? '#ffd166' : '#b45309',
    loaded: dark ? '#4ade80' : '#15803d',
    relevant: dark ? '#fbbf24' : '#c2410c',
    hops,
    faint: mix(vars.muted, vars.bg, 0.72),
  };
}

/** Reads the CSS variables from an element (the document's root by default). */
export function readThemeVars(el?: Element | null): ThemeVars {
  const root = el ?? (typeof document !== 'undefined' ? document.documentElement : null);
  let dark = false;
  if (typeof window !== 'undefined' && typeof window.matchMedia === 'function') {
    dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
  }
  const defaults = dark ? DARK_DEFAULTS : LIGHT_DEFAULTS;
  if (!root || typeof getComputedStyle !== 'function') return { ...defaults };
  const style = getComputedStyle(root);
  const read = (name: keyof ThemeVars) => style.getPropertyValue(`--${name}`).trim() || defaults[name];
  return {
    bg: read('bg'),
    surface: read('surface'),
    text: read('text'),
    muted: read('muted'),
    accent: read('accent'),
    border: read('border'),
  };
}

/**
 * Calls onchange whenever the colour scheme flips; returns the unsubscribe.
 * A no-op where matchMedia is missing (jsdom).
 */
export function watchColourScheme(onchange: () => void): () => void {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {};
  const mq = window.matchMedia('(prefers-color-scheme: dark)');
  const handler = () => onchange();
  mq.addEventListener('change', handler);
  return () => mq.removeEventListener('change', handler);
}
