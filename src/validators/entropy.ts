/** Counts of the ASCII code units of the string being measured; zero again between calls. */
const kAsciiCounts = new Int32Array(128);

/**
 * Shannon entropy of a string in bits per character (over UTF-16 code units).
 *
 * Runs after every match of a rule with a minimum entropy (most secrets), so it counts ASCII units in
 * one reused array instead of a Map per call (a Map and its growth were most of its cost). The terms
 * are summed in the order each unit first occurs, as a Map's iteration would, so the figure is the
 * same to the last bit as the plain definition (test/validators/entropy.test.ts holds it to that).
 */
export function shannonEntropy(value: string): number {
  const n = value.length;
  if (n === 0) return 0;
  const counts = kAsciiCounts;
  let wide: Map<number, number> | null = null;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c < 128) counts[c]!++;
    else {
      wide ??= new Map();
      wide.set(c, (wide.get(c) ?? 0) + 1);
    }
  }
  let h = 0;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    let k: number;
    if (c < 128) {
      k = counts[c]!;
      counts[c] = 0;
    } else {
      k = wide!.get(c) ?? 0;
      wide!.delete(c);
    }
    if (k === 0) continue; // counted at its first occurrence
    const p = k / n;
    h -= p * Math.log2(p);
  }
  return h;
}
