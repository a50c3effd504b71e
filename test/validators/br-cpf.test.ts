import { describe, expect, it } from 'vitest';
import { brCpfValid } from '../../src/validators/br-cpf.js';

// 111.444.777-35 is the CPF most often printed in developer documentation; the others were computed
// independently.
const valid = ['11144477735', '22490807552', '16561405358', '23526915911'];
const invalid = [
  '21144477735', '11144577735', '11144477745', '11144477736',
  '32490807552', '22490907552', '22490807562', '22490807553',
  '26561405358', '16561505358', '16561405368', '16561405359',
  '33526915911', '23526015911', '23526915921', '23526915912',
  // Repeated digits satisfy the arithmetic but are never issued.
  '00000000000', '11111111111', '99999999999',
];

describe('brCpfValid', () => {
  it.each(valid)('accepts %s', (v) => expect(brCpfValid(v)).toBe(true));
  it.each(invalid)('rejects %s', (v) => expect(brCpfValid(v)).toBe(false));
  it.each(['111.444.777-35', '1114447773', '111444777350'])('rejects malformed %j', (v) => expect(brCpfValid(v)).toBe(false));
});
