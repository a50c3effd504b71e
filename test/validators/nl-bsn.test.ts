import { describe, expect, it } from 'vitest';
import { nlBsnValid } from '../../src/validators/nl-bsn.js';

// 111222333 and 123456782 are the test numbers used by Dutch developer documentation; the others were
// computed independently.
const valid = ['111222333', '123456782', '431113531', '907661452', '641257995'];
const invalid = ['111222334', '531113531', '431123531', '431113532', '007661452', '907671452', '907661453', '000000000', '43111353', '4311135310'];

describe('nlBsnValid', () => {
  it.each(valid)('accepts %s', (v) => expect(nlBsnValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(nlBsnValid(v)).toBe(false));
});
