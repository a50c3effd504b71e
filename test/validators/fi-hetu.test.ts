import { describe, expect, it } from 'vitest';
import { fiHetuValid } from '../../src/validators/fi-hetu.js';

// 131052-308T is the widely published example; the others were computed
// independently, including the century signs introduced in 2023 (Y for 1900s).
const valid = ['131052-308T', '230598-482P', '070411A217K', '311299Y904C'];
const invalid = [
  '131052-308U', // check character + 1
  '131052-408T', // individual number digit + 1
  '230598-582P',
  '230598-482R',
  '300298-482T', // check right, 30 February
  '131052-001W', // check right, but individual number 001 is never used
  '131052G308T', // G is not a century sign
  '131052-308', // no check character
];

describe('fiHetuValid', () => {
  it.each(valid)('accepts %s', (v) => expect(fiHetuValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(fiHetuValid(v)).toBe(false));
});
