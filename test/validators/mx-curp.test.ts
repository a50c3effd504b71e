import { describe, expect, it } from 'vitest';
import { mxCurpValid } from '../../src/validators/mx-curp.js';

// HEGG560427MVZRRL04 is the widely published example; the others were computed independently (PELS… is a 2002
// birth, so its differentiator is a letter).
const valid = ['HEGG560427MVZRRL04', 'GOMA850312HDFNRN04', 'PELS020915MJCRPFA3', 'ROAJ991231HNLDLS01'];
const invalid = [
  'HEGG560427MVZRRL05', // check + 1
  'GOMA850313HDFNRN04', // day + 1 (its check would be 5)
  'PELS020915MJCRPFB3', // differentiator changed (its check would be 1)
  'GOMA850312HXXNRN03', // check right, XX is not a state
  'GOMA851312HDFNRN0X',
  'GOMA850230HDFNRN03', // check right, but 30 February
];

describe('mxCurpValid', () => {
  it.each(valid)('accepts %s', (v) => expect(mxCurpValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(mxCurpValid(v)).toBe(false));
});
