const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

/** Formats a count for people: 1234567 → "1,234,567" in their locale. */
export function formatCount(n: number): string {
  return integer.format(n);
}
