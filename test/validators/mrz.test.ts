import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mrzTd1Valid, mrzTd2Valid, mrzTd3Line2Valid, mrzTd3Valid } from '../../src/validators/mrz.js';
import { digitChanges, digitPositions, utcDates } from './helpers.js';

// ICAO Doc 9303 part 4 specimen, the German specimen passport (Erika Mustermann), and the older
// specimen of Doc 9303 part 11 appendix D (document number L898902C< with a filler); the fourth is
// synthetic, composed with the check digits of `check` below.
const icao = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'] as const;
const german = ['P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<', 'C01X00T478D<<6408125F2702283<<<<<<<<<<<<<<<4'] as const;
const part11 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C<3UTO6908061F9406236ZE184226B<<<<<14'] as const;
const canada = ['P<CANMARTIN<<SARAH<JANE<<<<<<<<<<<<<<<<<<<<<', 'HK48301278CAN9105230F3104172<<<<<<<<<<<<<<<4'] as const;

/**
 * The ICAO Doc 9303 part 3 §4.9 check digit, written independently of src/validators/icao9303.ts
 * (column sums of weight 7, 3, 1 over MRZ alphabet values), to compose MRZs from their fields.
 */
function check(field: string): string {
  const cols = [0, 0, 0];
  for (let i = 0; i < field.length; i++) cols[i % 3]! += field[i] === '<' ? 0 : '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.indexOf(field[i]!);
  return String((7 * cols[0]! + 3 * cols[1]! + cols[2]!) % 10);
}
/** TD3 line 2 from its fields (Doc 9303 part 4: the composite covers positions 1-10, 14-20, 22-43). */
function td3Line2(doc: string, nat: string, birth: string, sex: string, expiry: string, optional: string): string {
  const body = `${doc}${check(doc)}${nat}${birth}${check(birth)}${sex}${expiry}${check(expiry)}${optional}${check(optional)}`;
  return body + check(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
}
/** TD1 lines 1 and 2 from their fields (Doc 9303 part 5: the composite covers line 1 6-30, line 2 1-7, 9-15, 19-29). */
function td1Lines(
  codeAndState: string, doc: string, optional1: string, birth: string, sex: string, expiry: string, nat: string, optional2: string,
): [string, string] {
  const line1 = `${codeAndState}${doc}${check(doc)}${optional1}`;
  const line2 = `${birth}${check(birth)}${sex}${expiry}${check(expiry)}${nat}${optional2}`;
  return [line1, line2 + check(line1.slice(5, 30) + line2.slice(0, 7) + line2.slice(8, 15) + line2.slice(18, 29))];
}
const kYymmdd = utcDates(1930, 2049).map((d) => d.toISOString().slice(2, 10).replace(/-/g, ''));
const kDocNo = fc.stringMatching(/^[A-Z0-9][A-Z0-9<]{8}$/);
const kNat = fc.stringMatching(/^[A-Z]{3}$/);
const kSex = fc.constantFrom('M', 'F', 'X', '<');
const kOptional = (n: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^[A-Z0-9<]{${n}}$`));
const kTd1Line1Fields = fc.tuple(kNat, kDocNo, kOptional(15));

/** Line 2 with the character at `i` replaced. */
function with2(lines: readonly [string, string], i: number, c: string): string {
  const l2 = lines[1];
  return `${lines[0]}\n${l2.slice(0, i)}${c}${l2.slice(i + 1)}`;
}

describe('mrzTd3Valid', () => {
  it.each([
    ['ICAO specimen', `${icao[0]}\n${icao[1]}`],
    ['German specimen', `${german[0]}\r\n${german[1]}`],
    ['Doc 9303 part 11 specimen', `${part11[0]}\n${part11[1]}`],
    ['synthetic, lines joined by <br>', `${canada[0]}<br>${canada[1]}`],
    ['lines in a JSON array', `${canada[0]}","${canada[1]}`],
    ['lines concatenated', `${icao[0]}${icao[1]}`],
  ])('accepts %s', (_name, v) => expect(mrzTd3Valid(v)).toBe(true));

  it('composes the published and synthetic line 2s with the independent check digit', () => {
    for (const l of [icao[1], german[1], part11[1], canada[1]]) {
      expect(td3Line2(l.slice(0, 9), l.slice(10, 13), l.slice(13, 19), l[20]!, l.slice(21, 27), l.slice(28, 42)), l).toBe(l.replace(/<(.)$/, '0$1'));
    }
  });

  it('accepts composed MRZs and rejects any change of one digit of line 2', () => {
    // Every digit of line 2 is under a field check and the composite; 7, 3 and 1 are coprime to 10.
    fc.assert(
      fc.property(kDocNo, kNat, kYymmdd, kSex, kYymmdd, kOptional(14), fc.nat(43), (doc, nat, birth, sex, expiry, opt, at) => {
        const line2 = td3Line2(doc, nat, birth, sex, expiry, opt);
        expect(mrzTd3Valid(`${icao[0]}\n${line2}`), line2).toBe(true);
        const positions = digitPositions(line2);
        const i = positions[at % positions.length]!;
        for (const c of digitChanges(line2, i)) expect(mrzTd3Valid(`${icao[0]}\n${c}`), c).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

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
  // ICAO Doc 9303 part 5 specimen; french and longNumber are synthetic (the second with a document
  // number longer than nine characters, RP7KX4NC92L), their digits checked by `check` below.
  const specimen = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'] as const;
  // ICAO Doc 9303 part 11 appendix D.2: a twelve-character document number (D23145890734).
  const part11Td1 = ['I<UTOD23145890<7349<<<<<<<<<<<', '3407127M9507122UTO<<<<<<<<<<<2', 'STEVENSON<<PETER<JOHN<<<<<<<<<'] as const;
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
    ['Doc 9303 part 11 specimen, long document number', join(part11Td1)],
    ['synthetic, <br> between lines', join(french, '<br>')],
    ['long document number', join(longNumber, '\r\n')],
  ])('accepts %s', (_name, v) => expect(mrzTd1Valid(v)).toBe(true));

  it('composes the specimen and the synthetic cards with the independent check digit', () => {
    for (const [l1, l2] of [specimen, french]) {
      const composed = td1Lines(l1.slice(0, 5), l1.slice(5, 14), l1.slice(15), l2.slice(0, 6), l2[7]!, l2.slice(8, 14), l2.slice(15, 18), l2.slice(18, 29));
      expect(composed).toEqual([l1, l2]);
    }
    // A long number's check digit covers the whole number, as part 11 appendix D.2 shows.
    expect(check('D23145890734')).toBe('9');
    const [l1, l2] = longNumber;
    expect([check('RP7KX4NC92L'), check(l2.slice(0, 6)), check(l2.slice(8, 14))]).toEqual([l1[17], l2[6], l2[14]]);
    expect(check(l1.slice(5, 30) + l2.slice(0, 7) + l2.slice(8, 15) + l2.slice(18, 29))).toBe(l2[29]);
  });

  it('accepts composed cards and rejects any change of one digit of lines 1-2', () => {
    fc.assert(
      fc.property(kTd1Line1Fields, kYymmdd, kSex, kYymmdd, kNat, kOptional(11), fc.nat(60), ([state, doc, opt1], birth, sex, expiry, nat, opt2, at) => {
        const [l1, l2] = td1Lines(`I<${state}`, doc, opt1, birth, sex, expiry, nat, opt2);
        const l3 = 'DOE<<JANE<<<<<<<<<<<<<<<<<<<<<';
        expect(mrzTd1Valid(join([l1, l2, l3])), `${l1} ${l2}`).toBe(true);
        const both = l1 + l2;
        const positions = digitPositions(both);
        const i = positions[at % positions.length]!;
        for (const c of digitChanges(both, i)) expect(mrzTd1Valid(join([c.slice(0, 30), c.slice(30), l3])), c).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

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

describe('mrzTd3Line2Valid', () => {
  it.each([
    ['ICAO specimen', icao[1]],
    ['German specimen', german[1]],
    ['Doc 9303 part 11 specimen', part11[1]],
  ])('accepts the data line of the %s on its own', (_name, l) => expect(mrzTd3Line2Valid(l)).toBe(true));

  it('accepts composed data lines and rejects any change of one digit', () => {
    fc.assert(
      fc.property(kDocNo, kNat, kYymmdd, kSex, kYymmdd, kOptional(14), fc.nat(43), (doc, nat, birth, sex, expiry, opt, at) => {
        const line2 = td3Line2(doc, nat, birth, sex, expiry, opt);
        expect(mrzTd3Line2Valid(line2), line2).toBe(true);
        const positions = digitPositions(line2);
        for (const c of digitChanges(line2, positions[at % positions.length]!)) expect(mrzTd3Line2Valid(c), c).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['document number check digit + 1', with2(icao, 9, '7').slice(-44)],
    ['composite check digit + 1', with2(icao, 43, '1').slice(-44)],
    ['one character short', icao[1].slice(1)],
    ['with its name line', `${icao[0]}\n${icao[1]}`],
  ])('rejects: %s', (_name, v) => expect(mrzTd3Line2Valid(v)).toBe(false));
});

describe('mrzTd2Valid', () => {
  // ICAO Doc 9303 part 6 specimen (TD2, Anna Maria Eriksson of Utopia).
  const specimen = ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'] as const;
  /** TD2 line 2 from its fields (Doc 9303 part 6: the composite covers positions 1-10, 14-20, 22-35). */
  function td2Line2(doc: string, nat: string, birth: string, sex: string, expiry: string, optional: string): string {
    const body = `${doc}${check(doc)}${nat}${birth}${check(birth)}${sex}${expiry}${check(expiry)}${optional}`;
    return body + check(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 35));
  }
  const name = 'IDFRAMARTIN<<CLAIRE<ANNE<<<<<<<<<<<<';

  it.each([
    ['ICAO specimen', `${specimen[0]}\n${specimen[1]}`],
    ['ICAO specimen, <br> between lines', `${specimen[0]}<br>${specimen[1]}`],
    ['ICAO specimen, lines concatenated', `${specimen[0]}${specimen[1]}`],
  ])('accepts %s', (_name, v) => expect(mrzTd2Valid(v)).toBe(true));

  it('composes the specimen with the independent check digit', () => {
    const l = specimen[1];
    expect(td2Line2(l.slice(0, 9), l.slice(10, 13), l.slice(13, 19), l[20]!, l.slice(21, 27), l.slice(28, 35))).toBe(l);
  });

  it('accepts composed zones and rejects any change of one digit of line 2', () => {
    fc.assert(
      fc.property(kDocNo, kNat, kYymmdd, kSex, kYymmdd, kOptional(7), fc.nat(35), (doc, nat, birth, sex, expiry, opt, at) => {
        const line2 = td2Line2(doc, nat, birth, sex, expiry, opt);
        // A filler at the check position means a longer number continued in the optional data.
        fc.pre(line2[9] !== '<');
        expect(mrzTd2Valid(`${name}\n${line2}`), line2).toBe(true);
        const positions = digitPositions(line2);
        for (const c of digitChanges(line2, positions[at % positions.length]!)) expect(mrzTd2Valid(`${name}\n${c}`), c).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('reads a document number longer than nine characters from the optional data', () => {
    // RP7KX4NC92L: nine characters, a filler at the check position, then 2L and the check digit.
    const line2 = td2Line2('RP7KX4NC9', 'POL', '880229', 'F', '290301', `2L${check('RP7KX4NC92L')}<<<<`).replace(/^(.{9})./, '$1<');
    const fixed = line2.slice(0, 35) + check(line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 35));
    expect(mrzTd2Valid(`${name}\n${fixed}`)).toBe(true);
    expect(mrzTd2Valid(`${name}\n${fixed.slice(0, 30)}${(Number(fixed[30]) + 1) % 10}${fixed.slice(31)}`)).toBe(false);
  });

  it.each([
    ['composite + 1', `${specimen[0]}\n${specimen[1].slice(0, 35)}7`],
    ['document number check + 1', `${specimen[0]}\n${specimen[1].slice(0, 9)}8${specimen[1].slice(10)}`],
    ['a passport code', `P${specimen[0].slice(1)}\n${specimen[1]}`],
    ['no << in the name', `I<UTOERIKSSON<ANNA<MARIA<<<<<<<<<<<<`.replace('<<<<<<<<<<<<', 'X<X<X<X<X<X<') + `\n${specimen[1]}`],
    ['a TD1 zone', 'I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<MARIA<<<<<<<<<<'],
  ])('rejects: %s', (_name, v) => expect(mrzTd2Valid(v)).toBe(false));
});
