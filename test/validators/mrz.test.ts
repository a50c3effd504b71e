import { describe, expect, it } from 'vitest';
import { mrzTd1Valid, mrzTd3Valid } from '../../src/validators/mrz.js';

// ICAO Doc 9303 part 4 specimen and the German specimen passport; the third was composed with check
// digits computed independently.
const icao = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'] as const;
const german = ['P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<', 'C01X00T478D<<6408125F2702283<<<<<<<<<<<<<<<4'] as const;
const canada = ['P<CANMARTIN<<SARAH<JANE<<<<<<<<<<<<<<<<<<<<<', 'HK48301278CAN9105230F3104172<<<<<<<<<<<<<<<4'] as const;

/** Line 2 with the character at `i` replaced. */
function with2(lines: readonly [string, string], i: number, c: string): string {
  const l2 = lines[1];
  return `${lines[0]}\n${l2.slice(0, i)}${c}${l2.slice(i + 1)}`;
}

describe('mrzTd3Valid', () => {
  it.each([
    ['ICAO specimen', `${icao[0]}\n${icao[1]}`],
    ['German specimen', `${german[0]}\r\n${german[1]}`],
    ['synthetic, lines joined by <br>', `${canada[0]}<br>${canada[1]}`],
    ['lines in a JSON array', `${canada[0]}","${canada[1]}`],
    ['lines concatenated', `${icao[0]}${icao[1]}`],
  ])('accepts %s', (_name, v) => expect(mrzTd3Valid(v)).toBe(true));

  it.each([
    ['document number check digit + 1', with2(icao, 9, '7')],
    ['document number character changed', with2(icao, 0, 'M')],
    ['birth date check digit + 1', with2(icao, 19, '3')],
    ['birth date digit + 1', with2(icao, 14, '5')],
    ['expiry check digit + 1', with2(icao, 27, '0')],
    ['optional data check digit + 1', with2(icao, 42, '2')],
    ['composite check digit + 1', with2(icao, 43, '1')],
    ['German composite + 1', with2(german, 43, '5')],
    ['line 1 not a passport', `I${icao[0].slice(1)}\n${icao[1]}`],
    ['line 2 too short', `${icao[0]}\n${icao[1].slice(1)}`],
    ['lower case', `${icao[0]}\n${icao[1].toLowerCase()}`],
  ])('rejects: %s', (_name, v) => expect(mrzTd3Valid(v)).toBe(false));

  it('rejects a birth date that is not a calendar date even with matching check digits', () => {
    // 743112: month 31. Check digit of 743112 is 7·7+4·3+3+1·7+1·3+2 = 76 → 6; composite recomputed.
    const l2 = 'L898902C36UTO7431126F1204159ZE184226B<<<<<1';
    const composite = 'L898902C36' + '7431126' + '1204159ZE184226B<<<<<1';
    let sum = 0;
    for (let i = 0; i < composite.length; i++) {
      const c = composite[i]!;
      const v = c === '<' ? 0 : /[0-9]/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
      sum += v * [7, 3, 1][i % 3]!;
    }
    expect(mrzTd3Valid(`${icao[0]}\n${l2}${sum % 10}`)).toBe(false);
  });
});

describe('mrzTd1Valid', () => {
  // ICAO Doc 9303 part 5 specimen; the other two were composed with independently computed check
  // digits, the second with a document number longer than nine characters (RP7KX4NC92L).
  const specimen = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'] as const;
  const french = ['IDFRAX4RTBPFW46<<<<<<<<<<<<<<<', '9006153M3001086FRA<<<<<<<<<<<2', 'DUBOIS<<PIERRE<ANDRE<<<<<<<<<<'] as const;
  const longNumber = ['IRNLDRP7KX4NC9<2L7<<<<<<<<<<<<', '8802299F2903013POL<<<<<<<<<<<0', 'NOWAK<<AGNIESZKA<<<<<<<<<<<<<<'] as const;
  const join = (l: readonly string[], sep = '\n'): string => l.join(sep);
  const edit = (l: readonly [string, string, string], line: 0 | 1, i: number, c: string): string => {
    const copy: string[] = [...l];
    copy[line] = copy[line]!.slice(0, i) + c + copy[line]!.slice(i + 1);
    return join(copy);
  };

  it.each([
    ['ICAO specimen', join(specimen)],
    ['synthetic, <br> between lines', join(french, '<br>')],
    ['long document number', join(longNumber, '\r\n')],
  ])('accepts %s', (_name, v) => expect(mrzTd1Valid(v)).toBe(true));

  it.each([
    ['document number check + 1', edit(specimen, 0, 14, '8')],
    ['document number character changed', edit(specimen, 0, 5, 'E')],
    ['birth date check + 1', edit(specimen, 1, 6, '3')],
    ['expiry check + 1', edit(specimen, 1, 14, '0')],
    ['composite + 1', edit(specimen, 1, 29, '7')],
    ['long number check + 1', edit(longNumber, 0, 17, '8')],
    ['not an ID document code', edit(specimen, 0, 0, 'P')],
    ['two lines only', join(specimen.slice(0, 2))],
  ])('rejects: %s', (_name, v) => expect(mrzTd1Valid(v)).toBe(false));
});
