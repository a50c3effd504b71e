import { describe, expect, it } from 'vitest';
import { chAhvValid } from '../../src/validators/ch-ahv.js';

// 756.9217.0769.85 is the widely published example; the others were computed independently.
const valid = ['756.9217.0769.85', '7569217076985', '756.1234.5678.97', '7569402385618'];
const invalid = [
  '756.9217.0769.86', // check + 1
  '7569317076985', // one digit + 1
  '7561334567897',
  '7561234567898',
  '7571234567896', // EAN-13 check right, but not the Swiss prefix 756
  '756.1234.5678.9',
];

describe('chAhvValid', () => {
  it.each(valid)('accepts %s', (v) => expect(chAhvValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(chAhvValid(v)).toBe(false));
});
