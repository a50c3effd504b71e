import { describe, expect, it } from 'vitest';
import { auMedicareValid } from '../../src/validators/au-medicare.js';

// 2123 45670 1 is the number printed in developer guides; the others were computed independently.
const valid = ['2123456701', '2951461751', '3517028375', '6123450903', '21234567011'];
const invalid = [
  '2123456711', // check + 1
  '2051461751', '2951462751', '2951461761',
  '3617028375', '3517029375', '3517028385',
  '7123456751', // check right, but cards start 2-6
  '21234567010', // individual reference number 0
  '212345670',
];

describe('auMedicareValid', () => {
  it.each(valid)('accepts %s', (v) => expect(auMedicareValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(auMedicareValid(v)).toBe(false));
});
