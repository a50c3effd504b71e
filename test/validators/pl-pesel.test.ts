import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidDate } from '../../src/validators/date.js';
import { plPeselValid } from '../../src/validators/pl-pesel.js';
import { digitChanges, swapAt, utcDates } from './helpers.js';

/**
 * A second implementation in "sum to zero" form: with weights 1 3 7 9 1 3 7 9 1 3 and 1 for the check
 * digit, the weighted sum of all eleven digits is a multiple of 10; months carry the century as
 * 81-92 (1800s), 01-12, 21-32, 41-52, 61-72 (1900s to 2200s).
 */
const kWeights = [1, 3, 7, 9, 1, 3, 7, 9, 1, 3, 1];
function reference(v: string): boolean {
  if (!/^[0-9]{11}$/.test(v) || kWeights.reduce((s, w, i) => s + w * Number(v[i]), 0) % 10 !== 0) return false;
  const mm = Number(v.slice(2, 4));
  const offsets: [number, number][] = [[80, 1800], [0, 1900], [20, 2000], [40, 2100], [60, 2200]];
  const hit = offsets.find(([off]) => mm - off >= 1 && mm - off <= 12);
  return hit !== undefined && isValidDate(hit[1] + Number(v.slice(0, 2)), mm - hit[0], Number(v.slice(4, 6)));
}
const complete = (ten: string): string => {
  for (let d = 0; d < 10; d++) if (kWeights.reduce((s, w, i) => s + w * Number(`${ten}${d}`[i]), 0) % 10 === 0) return `${ten}${d}`;
  throw new Error('unreachable');
};
const kTen = fc
  .tuple(utcDates(1800, 2299), fc.stringMatching(/^[0-9]{4}$/))
  .map(([d, serial]) => {
    const iso = d.toISOString();
    const y = d.getUTCFullYear();
    const offset = y < 1900 ? 80 : y < 2000 ? 0 : y < 2100 ? 20 : y < 2200 ? 40 : 60;
    return `${iso.slice(2, 4)}${String(Number(iso.slice(5, 7)) + offset).padStart(2, '0')}${iso.slice(8, 10)}${serial}`;
  });

describe('plPeselValid', () => {
  it.each([
    '44051401359', // the worked example of the Polish Wikipedia article "PESEL" (born 14 May 1944)
    '02070803628', // the example of the government's PESEL page on gov.pl (born 8 July 1902)
  ])('accepts the published example %s', (v) => {
    expect(plPeselValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  // Synthetic numbers for the 1900s (month as is) and 2000s (month + 20); each is also checked by the
  // second implementation.
  it.each(['85120312343', '02261509870', '90113004563'])('accepts %s', (v) => {
    expect(plPeselValid(v)).toBe(true);
    expect(reference(v)).toBe(true);
  });

  it('agrees with the sum-to-zero form on random numbers of every century', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{11}$/), (v) => {
        expect(plPeselValid(v), v).toBe(reference(v));
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(kTen, (ten) => {
        const good = complete(ten);
        for (let d = 0; d < 10; d++) expect(plPeselValid(`${ten}${d}`), `${ten}${d}`).toBe(`${ten}${d}` === good);
      }),
      { numRuns: 1000 },
    );
  });

  it('rejects every single-digit change and adjacent transpositions but those of digits five apart', () => {
    // 1, 3, 7 and 9 are coprime to 10; neighbours differ by an even amount (2, 4, 2, −8, 2 …), so a
    // swap of a and b goes unseen when |a − b| = 5 (and the date stays a date).
    fc.assert(
      fc.property(kTen, fc.nat(10), (ten, at) => {
        const valid = complete(ten);
        for (const c of digitChanges(valid, at)) expect(plPeselValid(c), c).toBe(false);
        const i = Math.min(at, 9);
        const swapped = swapAt(valid, i);
        if (swapped !== null && Math.abs(Number(valid[i]) - Number(valid[i + 1])) !== 5) expect(plPeselValid(swapped), swapped).toBe(false);
        if (swapped !== null && Math.abs(Number(valid[i]) - Number(valid[i + 1])) === 5) expect(plPeselValid(swapped), swapped).toBe(reference(swapped));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    '45051401359', '44051402359', '44051401350',
    '86120312343', '85120313343', '85120312344',
    '03261509870', '02261500870', '02261509871',
    '91113004563', '90113005563', '90113004564',
    '85133112347', // check digit right, month 13 is no century block
    '00000000000',
  ])('rejects %s', (v) => expect(plPeselValid(v)).toBe(false));
  it.each(['4405140135', '440514013590', '4405140135a'])('rejects malformed %j', (v) => expect(plPeselValid(v)).toBe(false));
});
