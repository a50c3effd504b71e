import fc from 'fast-check';

/**
 * Shared pieces of the checksum tests: the edits of their error-detection properties (single-digit
 * changes, swaps of neighbours) and random calendar dates for identifiers that embed one.
 */

/** `s` with the digit at `i` replaced by each other digit. */
export function digitChanges(s: string, i: number): string[] {
  const out: string[] = [];
  for (let d = 0; d < 10; d++) if (String(d) !== s[i]) out.push(s.slice(0, i) + d + s.slice(i + 1));
  return out;
}

/** `s` with the characters at `i` and `i + 1` swapped, or null when they are equal. */
export function swapAt(s: string, i: number): string | null {
  if (s[i] === s[i + 1]) return null;
  return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
}

/** Digit positions of `s`. */
export function digitPositions(s: string): number[] {
  return [...s].flatMap((c, i) => (c >= '0' && c <= '9' ? [i] : []));
}

/** Random real dates from 1 January `fromYear` to 31 December `toYear` (UTC). */
export function utcDates(fromYear: number, toYear: number): fc.Arbitrary<Date> {
  return fc.date({ min: new Date(Date.UTC(fromYear, 0, 1)), max: new Date(Date.UTC(toYear, 11, 31)), noInvalidDate: true });
}
