import { describe, expect, it } from 'vitest';
import { sgNricValid } from '../../src/validators/sg-nric.js';

// S1234567D is the number used by ICA-derived tutorials; the others (one per series) were computed
// independently.
const valid = ['S1234567D', 'S8812345Z', 'T0254321J', 'F1234567N', 'G5512390Q', 'M4567890X'];
const invalid = [
  'S1235567D', 'S8813345Z', 'T0255321J', 'F1235567N', 'G5513390Q', 'M4568890X', // one digit + 1
  'S1234567E', // check letter + 1
  'T1234567D', // same digits, T series offset
  'A1234567D', // unknown series
  's1234567d',
];

describe('sgNricValid', () => {
  it.each(valid)('accepts %s', (v) => expect(sgNricValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(sgNricValid(v)).toBe(false));
});
