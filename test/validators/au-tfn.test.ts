import { describe, expect, it } from 'vitest';
import { auTfnValid } from '../../src/validators/au-tfn.js';

// 123456782 is the TFN printed in tutorials; the others were computed independently.
const valid = ['123456782', '552068552', '441785967', '512283632', '91257059'];
const invalid = ['123456783', '652068552', '552078552', '552068562', '01257059', '91258059', '91257050', '000000000', '1234567', '1234567820'];

describe('auTfnValid', () => {
  it.each(valid)('accepts %s', (v) => expect(auTfnValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(auTfnValid(v)).toBe(false));
});
