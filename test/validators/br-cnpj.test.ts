import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brCnpjValid } from '../../src/validators/br-cnpj.js';
import { digitChanges } from './helpers.js';

/** A second implementation with the Receita Federal's two weight tables written out. */
const kW1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const kW2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
function dv(digits: number[], weights: number[]): number {
  const r = digits.reduce((s, d, i) => s + d * weights[i]!, 0) % 11;
  return r < 2 ? 0 : 11 - r;
}
function checkDigits(base12: string): string {
  const d = [...base12].map(Number);
  const d1 = dv(d, kW1);
  return `${d1}${dv([...d, d1], kW2)}`;
}
const reference = (v: string): boolean => /^[0-9]{14}$/.test(v) && !/^(.)\1{13}$/.test(v) && checkDigits(v.slice(0, 12)) === v.slice(12);

describe('brCnpjValid', () => {
  it('accepts 11.222.333/0001-81, the CNPJ of most developer documentation', () => {
    // By hand: 1·5 + 1·4 + 2·3 + 2·2 + 2·9 + 3·8 + 3·7 + 3·6 + 0 + 0 + 0 + 1·2 = 102 ≡ 3 → 8;
    // 1·6 + 1·5 + 2·4 + 2·3 + 2·2 + 3·9 + 3·8 + 3·7 + 0 + 0 + 0 + 1·3 + 8·2 = 120 ≡ 10 → 1.
    expect(brCnpjValid('11222333000181')).toBe(true);
    expect(checkDigits('112223330001')).toBe('81');
  });

  it('agrees with the weight tables on random numbers and every pair of check digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{12}$/), (base) => {
        for (let k = 0; k < 100; k++) {
          const v = `${base}${String(k).padStart(2, '0')}`;
          expect(brCnpjValid(v), v).toBe(reference(v));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('rejects single-digit changes unless a check digit is 0', () => {
    // Weights 2..9 are non-zero mod 11, so a change always moves the remainder; remainders 0 and 1
    // both give 0, so a change can go unseen only where a check digit is 0.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{12}$/), fc.nat(13), (base, at) => {
        const valid = base + checkDigits(base);
        fc.pre(!/^(.)\1{13}$/.test(valid));
        for (const c of digitChanges(valid, at)) {
          if (brCnpjValid(c)) expect(valid[12] === '0' || valid[13] === '0', `${valid} → ${c}`).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it.each(['11222333000182', '11222333000191', '21222333000181', '00000000000000', '11111111111111', '11.222.333/0001-81', '1122233300018'])(
    'rejects %j',
    (v) => expect(brCnpjValid(v)).toBe(false),
  );
});
