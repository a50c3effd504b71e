import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidDate } from '../../src/validators/date.js';
import { fiHetuValid } from '../../src/validators/fi-hetu.js';
import { swapAt, utcDates } from './helpers.js';

/**
 * A second implementation from DVV's description: the nine digits DDMMYYZZZ as one number, its
 * remainder mod 31 (taken digit by digit here) indexing 0-9 then A-Y without G, I, O, Q and Z.
 */
const kCheck = [...'0123456789', ...'ABCDEFHJKLMNPRSTUVWXY'];
function checkChar(nine: string): string {
  let r = 0;
  for (const c of nine) r = (r * 10 + Number(c)) % 31;
  return kCheck[r]!;
}
const kCentury: Record<string, number> = { '+': 1800, '-': 1900, Y: 1900, X: 1900, W: 1900, V: 1900, U: 1900, A: 2000, B: 2000, C: 2000, D: 2000, E: 2000, F: 2000 };
function reference(v: string): boolean {
  const m = /^([0-9]{6})(.)([0-9]{3})(.)$/.exec(v);
  if (!m || kCentury[m[2]!] === undefined || Number(m[3]) < 2) return false;
  const [dd, mm, yy] = [m[1]!.slice(0, 2), m[1]!.slice(2, 4), m[1]!.slice(4, 6)].map(Number) as [number, number, number];
  return isValidDate(kCentury[m[2]!]! + yy, mm, dd) && checkChar(m[1]! + m[3]!) === m[4];
}

describe('fiHetuValid', () => {
  it.each([
    // DVV's example, and its examples for the century signs added in 2023 (the same person's code
    // with each new sign), from "Henkilötunnuksen muutos 2023".
    '131052-308T',
    '010594Y9032', '010594Y9021', '020594X903P', '020594X902N', '030594W903B', '030694W9024',
    '040594V9030', '040594V902Y', '050594U903M', '050594U902L', '010516B903X', '010516B902W',
    '020516C903K', '020516C902J', '030516D9037', '030516D9026', '010501E9032', '020502E902X',
    '020503F9037', '020504A902E', '020504B904H',
  ])('accepts the published example %s', (v) => {
    expect(fiHetuValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  // Synthetic numbers; each is also checked by the second implementation.
  it.each(['230598-482P', '070411A217K', '311299Y904C'])('accepts %s', (v) => {
    expect(fiHetuValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the second implementation on random codes', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-3][0-9][01][0-9][0-9]{2}[-+A-FU-Y][0-9]{3}$/), (body) => {
        const nine = body.slice(0, 6) + body.slice(7);
        for (const c of [checkChar(nine), kCheck[(kCheck.indexOf(checkChar(nine)) + 1) % 31]!, 'G', 'Z']) {
          expect(fiHetuValid(body + c), body + c).toBe(reference(body + c));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('rejects every single-digit change of the individual number and every swap of its digits', () => {
    // 31 is prime and 10^k ≢ 0 (mod 31): any change δ·10^k or swap (a − b)·9·10^k moves the remainder.
    fc.assert(
      fc.property(utcDates(1900, 1999), fc.integer({ min: 2, max: 899 }), fc.nat(2), (d, n, at) => {
        const iso = d.toISOString();
        const ddmmyy = iso.slice(8, 10) + iso.slice(5, 7) + iso.slice(2, 4);
        const zzz = String(n).padStart(3, '0');
        const valid = `${ddmmyy}-${zzz}${checkChar(ddmmyy + zzz)}`;
        expect(fiHetuValid(valid), valid).toBe(true);
        for (let v = 0; v < 10; v++) {
          const c = valid.slice(0, 7 + at) + v + valid.slice(8 + at);
          if (c !== valid) expect(fiHetuValid(c), c).toBe(false);
        }
        const swapped = swapAt(valid, 7 + Math.min(at, 1));
        if (swapped !== null) expect(fiHetuValid(swapped), swapped).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    '131052-308U', // check character + 1
    '131052-408T', // individual number digit + 1
    '230598-582P',
    '230598-482R',
    '300298-482T', // check right, 30 February
    '131052-001W', // check right, but individual number 001 is never used
    '131052G308T', // G is not a century sign
    '131052-308', // no check character
  ])('rejects %s', (v) => expect(fiHetuValid(v)).toBe(false));
});
