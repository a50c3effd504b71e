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
    // Most units of a value occur once or a few times: each count's term is worked out once for a
    // length (the same expression, so the same bits), not once per unit (log2 was most of the cost).
    let term: number;
    if (k < kTermSlots && kTermLength[k] === n) term = kTerm[k]!;
    else {
      const p = k / n;
      term = p * Math.log2(p);
      if (k < kTermSlots) {
        kTerm[k] = term;
        kTermLength[k] = n;
      }
    }
    h -= term;
  }
  return h;
}

/** The term of each count below kTermSlots for the value length beside it (0: none yet). */
const kTermSlots = 64;
const kTerm = new Float64Array(kTermSlots);
const kTermLength = new Int32Array(kTermSlots);
