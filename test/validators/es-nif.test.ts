import { describe, expect, it } from 'vitest';
import { esNifValid } from '../../src/validators/es-nif.js';

// 12345678Z is the DNI used in every explanation of the mod-23 letter; the others were computed
// independently.
const valid = ['12345678Z', '51729702B', '75032304W', '13018877A', '75.032.304-W', '13018877-a', 'X4111851A', 'Y8576135R', 'Z8248261Y', 'Y-8576135-R'];
const invalid = [
  '12345678A',
  '51729703B', // last digit + 1 (its letter would be N)
  '51729702C',
  '75032314W',
  'X4111852A', // last digit + 1 (its letter would be G)
  'Y8576135S',
  'Z8248261Z',
  'W4111851A', // W is not an NIE prefix
  '5172970B', // seven digits
  'X41118510A',
];

describe('esNifValid', () => {
  it.each(valid)('accepts %s', (v) => expect(esNifValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(esNifValid(v)).toBe(false));
});
