import { describe, expect, it } from 'vitest';
import { plPeselValid } from '../../src/validators/pl-pesel.js';

// 44051401359 is the widely published example; the others were computed independently and cover
// the 1900s (month as is) and 2000s (month + 20) offsets.
const valid = ['44051401359', '85120312343', '02261509870', '90113004563'];
const invalid = [
  '45051401359', '44051402359', '44051401350',
  '86120312343', '85120313343', '85120312344',
  '03261509870', '02261500870', '02261509871',
  '91113004563', '90113005563', '90113004564',
  '85133112347', // check digit right, month 13 is no century block
  '00000000000',
];

describe('plPeselValid', () => {
  it.each(valid)('accepts %s', (v) => expect(plPeselValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(plPeselValid(v)).toBe(false));
  it.each(['4405140135', '440514013590', '4405140135a'])('rejects malformed %j', (v) => expect(plPeselValid(v)).toBe(false));
});
