// Numbers as people read them: thousands separators in their locale, bytes
// in the unit that keeps three digits, durations in the unit that is short.

// A webview started with LANG=C gets the POSIX locale, which groups no
// digits ("14890"): then fall back to English grouping.
function pickLocale(): string | undefined {
  const grouped = new Intl.NumberFormat(undefined).format(12345);
  return /\d{5}/.test(grouped) ? 'en-US' : undefined;
}

const locale = pickLocale();
const integer = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
const twoPlaces = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const onePlace = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });

/** Formats a count for people: 1234567 → "1,234,567" in their locale. */
export function formatCount(n: number): string {
  return integer.format(n);
}

/** "1 document", "3 documents": a count with its noun. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Tokens as a count with the unit: 12345 → "12,345 tokens". */
export function formatTokens(n: number): string {
  return plural(n, 'token');
}

/** Bytes in the largest unit that keeps the figure readable: 1536 → "1.5 KB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 1024) return `${formatCount(Math.max(0, n || 0))} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${onePlace.format(value)} ${units[unit]}`;
}

/** A score or signal in 0–1 with two places: 0.9234 → "0.92". */
export function formatScore(n: number): string {
  return twoPlaces.format(n);
}

/** A share as a percentage: 0.3 → "30%". */
export function formatPercent(share: number): string {
  return `${onePlace.format(share * 100)}%`;
}

/** Microseconds as the shortest readable duration: 6300 → "6.3 ms". */
export function formatMicros(us: number): string {
  if (us < 1000) return `${formatCount(us)} µs`;
  if (us < 1_000_000) return `${onePlace.format(us / 1000)} ms`;
  return `${onePlace.format(us / 1_000_000)} s`;
}

/** Nanoseconds (Go's time.Duration in JSON) as a readable duration. */
export function formatNanos(ns: number): string {
  return formatMicros(Math.round(ns / 1000));
}

/** An RFC 3339 time as a short local date and time; the input when it does not parse. */
export function formatWhen(rfc3339: string): string {
  const t = new Date(rfc3339);
  if (Number.isNaN(t.getTime())) return rfc3339;
  return t.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A run of a sentence: text, or code (what was between backticks). */
export type Run = { text: string; code?: undefined } | { code: string; text?: undefined };

/** "start it with `ollama serve`" → a text run and a code run, for sentences the engine writes with commands in backticks. */
export function codeRuns(s: string): Run[] {
  return s.split(/(`[^`]+`)/).map((part) => (part.startsWith('`') && part.endsWith('`') ? { code: part.slice(1, -1) } : { text: part }));
}

/**
 * A model server's fix as the Settings dialog says it: the engine writes
 * its fixes for the chat panel, which has a Retry button and sends people
 * to Settings; in Settings the address is the field above and the button
 * is Save and check.
 */
export function fixInSettings(fix: string): string {
  return fix
    .replace(/\b(set|change) (its|the) address in Settings\b/g, 'correct the address above')
    .replace(/\bthen press Retry\b/g, 'then press Save and check');
}
