import { describe, expect, it } from 'vitest';
import { frNirValid } from '../../src/validators/fr-nir.js';

// The first four are the examples of python-stdnum's fr.nir documentation (Corsica 2A and 2B
// included); the rest were computed independently.
const valid = ['2 95 10 99 126 111 93', '295109912611193', '253072B07300470', '253072A07300443', '185077511601280', '1 85 07 75 116 012 80', '292031305504686'];
const invalid = [
  '295109912611199', // wrong key (stdnum's own negative example)
  '253072C07300443', // 2C is not a department
  '186077511601280', // year digit + 1
  '185077511701280', // order digit + 1
  '185077511601281', // key + 1
  '293031305504686',
  '292031305504687',
  '385077511601277', // key right, but 3 is not a sex digit
  '185137511601279', // key right, but month 13
  '18507751160128', // 14 characters
];

describe('frNirValid', () => {
  it.each(valid)('accepts %s', (v) => expect(frNirValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(frNirValid(v)).toBe(false));
});
