import { describe, expect, it } from 'vitest';
import { cnResidentIdValid } from '../../src/validators/cn-resident-id.js';

// 11010519491231002X is the example of GB 11643-1999; the others were computed independently.
const valid = ['11010519491231002X', '11010519491231002x', '440305198802173613', '320102200109309503', '510104197506052389'];
const invalid = [
  '11010519491231003X', // sequence digit + 1
  '110105194912310020', // wrong check character
  '440305198802173623',
  '320102200109309513',
  '510104197506052399',
  // Check character right, but the date or region is not.
  '110105194913310021', // month 13
  '440305198802303617', // 30 February
  '090105194912310020', // province 09 does not exist
  '110105189912310023', // born 1899
];

describe('cnResidentIdValid', () => {
  it.each(valid)('accepts %s', (v) => expect(cnResidentIdValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(cnResidentIdValid(v)).toBe(false));
  it.each(['11010519491231002', '1101051949123100X2', '110105 19491231002X'])('rejects malformed %j', (v) => expect(cnResidentIdValid(v)).toBe(false));
});
