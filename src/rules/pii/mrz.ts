import type { RuleDef } from '../types.js';
import { mrzTd1Valid, mrzTd2Valid, mrzTd3Line2Valid, mrzTd3Valid } from '../../validators/mrz.js';

// What may sit between the two MRZ lines once the body is decoded: nothing, spaces, one or two line
// breaks (real, a literal `\n` in a plain-text body, or `<br>`), or the `","` of a JSON array.
const kLineBreak = '(?:\\r?\\n|(?:\\\\r)?\\\\n|<br ?/?>)';
const kBetweenLines = `(?:(?:[ \\t]{0,8}${kLineBreak}){0,2}[ \\t]{0,8}|"[ \\t]{0,4},[ \\t\\r\\n]{0,8}")`;

/** TD1 (three lines of 30) and TD2 (two lines of 36) zones: the document code and name line differ in place, not in kind. */
const kTd1 = `[IAC][A-Z<][A-Z<]{3}[A-Z0-9<]{25}${kBetweenLines}[0-9]{7}[MFX<][0-9]{7}[A-Z<]{3}[A-Z0-9<]{11}[0-9]${kBetweenLines}[A-Z<]{30}`;
const kTd2 = `[IAC][A-Z<][A-Z<]{34}${kBetweenLines}[A-Z0-9<]{9}[0-9<][A-Z<]{3}[0-9]{7}[MFX<][0-9]{7}[A-Z0-9<]{7}[0-9]`;

/** A TD1 or TD2 zone (their check digits sit in different places, so at most one layout passes). */
function idCardMrzValid(v: string): boolean {
  return mrzTd1Valid(v) || mrzTd2Valid(v);
}

export const mrzRules: readonly RuleDef[] = [
  {
    id: 'passport-mrz',
    description: 'Machine readable zone of a passport (ICAO 9303 TD3, two lines of 44 characters) with valid check digits.',
    family: 'pii',
    tags: ['passport', 'mrz'],
    enabledByDefault: true,
    // Every TD3 MRZ has `<<` between surname and given names; the first line starts with `P`, but its
    // second character varies by issuer (`P<`, `PD`, `PO`…), so `<<` is the dependable literal.
    trigger: { keywords: ['<<'] },
    pattern: `P[A-Z<]{43}${kBetweenLines}[A-Z0-9<]{44}`,
    // The name line and the data line are both personal data: the whole zone is the value.
    maxLength: 44 + 36 + 44,
    // A `<` may follow the zone (an HTML tag), but not precede its `P` (that `P` would sit inside a filler run).
    boundary: { left: 'A-Za-z0-9<', right: 'A-Za-z0-9' },
    validate: mrzTd3Valid,
    examples: {
      positive: [
        {
          text: 'P<CANMARTIN<<SARAH<JANE<<<<<<<<<<<<<<<<<<<<<\nHK48301278CAN9105230F3104172<<<<<<<<<<<<<<<4',
          match: 'P<CANMARTIN<<SARAH<JANE<<<<<<<<<<<<<<<<<<<<<\nHK48301278CAN9105230F3104172<<<<<<<<<<<<<<<4',
        },
        {
          text: '{"mrz":["P<NLDDE<VRIES<<JAN<<<<<<<<<<<<<<<<<<<<<<<<<<","NX7RP4K212NLD8501019M2907103431113531<<<<<66"]}',
          match: 'P<NLDDE<VRIES<<JAN<<<<<<<<<<<<<<<<<<<<<<<<<<","NX7RP4K212NLD8501019M2907103431113531<<<<<66',
        },
        {
          text: '<pre>P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<br>L898902C36UTO7408122F1204159ZE184226B<<<<<10</pre>',
          match: 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<br>L898902C36UTO7408122F1204159ZE184226B<<<<<10',
        },
        {
          text: '{"mrz":"P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<\\nC01X00T478D<<6408125F2702283<<<<<<<<<<<<<<<4"}',
          contentType: 'application/json',
          match: 'P<D<<MUSTERMANN<<ERIKA<<<<<<<<<<<<<<<<<<<<<<\nC01X00T478D<<6408125F2702283<<<<<<<<<<<<<<<4',
        },
      ],
      negative: [
        // Composite check digit changed from 4 to 5.
        { text: 'P<CANMARTIN<<SARAH<JANE<<<<<<<<<<<<<<<<<<<<<\nHK48301278CAN9105230F3104172<<<<<<<<<<<<<<<5' },
        // Document number check digit changed from 8 to 9 (composite recomputed would still differ).
        { text: 'P<CANMARTIN<<SARAH<JANE<<<<<<<<<<<<<<<<<<<<<\nHK48301279CAN9105230F3104172<<<<<<<<<<<<<<<4' },
        { text: 'std::cout << value << std::endl; // P<<<<<<<<' },
        // A 43-character first line.
        { text: 'P<CANMARTIN<<SARAH<JANE<<<<<<<<<<<<<<<<<<<<\nHK48301278CAN9105230F3104172<<<<<<<<<<<<<<<4' },
      ],
    },
  },
  {
    id: 'id-card-mrz',
    description: 'Machine readable zone of an identity card or residence permit (ICAO 9303 TD1, three lines of 30 characters, or TD2, two lines of 36) with valid check digits.',
    family: 'pii',
    tags: ['national-id', 'mrz'],
    enabledByDefault: true,
    // The name line always holds `<<` between surname and given names.
    trigger: { keywords: ['<<'] },
    // A TD2 first line is 36 characters of [A-Z<], so it never holds a TD1 first line's digits: the
    // alternatives do not compete for one zone.
    pattern: `${kTd1}|${kTd2}`,
    maxLength: 30 + 36 + 30 + 36 + 30,
    boundary: { left: 'A-Za-z0-9<', right: 'A-Za-z0-9' },
    validate: idCardMrzValid,
    examples: {
      positive: [
        {
          text: 'IDFRAX4RTBPFW46<<<<<<<<<<<<<<<\n9006153M3001086FRA<<<<<<<<<<<2\nDUBOIS<<PIERRE<ANDRE<<<<<<<<<<',
          match: 'IDFRAX4RTBPFW46<<<<<<<<<<<<<<<\n9006153M3001086FRA<<<<<<<<<<<2\nDUBOIS<<PIERRE<ANDRE<<<<<<<<<<',
        },
        {
          text: '<div class="mrz">IRNLDRP7KX4NC9<2L7<<<<<<<<<<<<<br>8802299F2903013POL<<<<<<<<<<<0<br>NOWAK<<AGNIESZKA<<<<<<<<<<<<<<</div>',
          match: 'IRNLDRP7KX4NC9<2L7<<<<<<<<<<<<<br>8802299F2903013POL<<<<<<<<<<<0<br>NOWAK<<AGNIESZKA<<<<<<<<<<<<<<',
        },
        {
          text: 'IDFRAMARTIN<<CLAIRE<ANNE<<<<<<<<<<<<\nX4RTBP2K72FRA8804123F3309209<<<<<<<0',
          match: 'IDFRAMARTIN<<CLAIRE<ANNE<<<<<<<<<<<<\nX4RTBP2K72FRA8804123F3309209<<<<<<<0',
        },
        {
          text: '{"mrz":["IRNLDJANSEN<<PIETER<<<<<<<<<<<<<<<<<","RP7KX4NC90POL9202298M3101159<<<<<<<6"]}',
          match: 'IRNLDJANSEN<<PIETER<<<<<<<<<<<<<<<<<","RP7KX4NC90POL9202298M3101159<<<<<<<6',
        },
      ],
      negative: [
        // Composite check digit changed from 2 to 3.
        { text: 'IDFRAX4RTBPFW46<<<<<<<<<<<<<<<\n9006153M3001086FRA<<<<<<<<<<<3\nDUBOIS<<PIERRE<ANDRE<<<<<<<<<<' },
        // Document number check digit changed from 6 to 7.
        { text: 'IDFRAX4RTBPFW47<<<<<<<<<<<<<<<\n9006153M3001086FRA<<<<<<<<<<<2\nDUBOIS<<PIERRE<ANDRE<<<<<<<<<<' },
        // Only two of the three lines.
        { text: 'IDFRAX4RTBPFW46<<<<<<<<<<<<<<<\n9006153M3001086FRA<<<<<<<<<<<2' },
        // TD2: composite check digit changed from 0 to 1; birth date check digit changed from 3 to 4.
        { text: 'IDFRAMARTIN<<CLAIRE<ANNE<<<<<<<<<<<<\nX4RTBP2K72FRA8804123F3309209<<<<<<<1' },
        { text: 'IDFRAMARTIN<<CLAIRE<ANNE<<<<<<<<<<<<\nX4RTBP2K72FRA8804124F3309209<<<<<<<0' },
      ],
    },
  },
  {
    id: 'passport-mrz-line',
    description: 'The data line of a passport MRZ (ICAO 9303 TD3 line 2, 44 characters) on its own, with all five check digits valid.',
    family: 'pii',
    tags: ['passport', 'mrz'],
    enabledByDefault: true,
    // Without the name line a data line is evidence through its check digits only: medium, and so
    // only compiled at a threshold of medium or lower. A whole zone is passport-mrz's as well.
    confidence: 'medium',
    // The optional data field is padded with fillers in nearly every passport.
    trigger: { keywords: ['<<'] },
    pattern: '[A-Z0-9<]{9}[0-9][A-Z<]{3}[0-9]{7}[MFX<][0-9]{7}[A-Z0-9<]{14}[0-9<][0-9]',
    maxLength: 44,
    boundary: { left: 'A-Za-z0-9<', right: 'A-Za-z0-9<' },
    validate: mrzTd3Line2Valid,
    note: 'A data line whose optional field is full (no `<<`) is not triggered.',
    examples: {
      positive: [
        { text: 'mrz2=GK71029355DEU7703159M3008085<<<<<<<<<<<<<<<0', match: 'GK71029355DEU7703159M3008085<<<<<<<<<<<<<<<0', confidence: 'medium' },
        { text: '{"line2":"PA55218732ESP0211303F290604799887766<<<<<<24"}', match: 'PA55218732ESP0211303F290604799887766<<<<<<24', confidence: 'medium' },
      ],
      negative: [
        // Document number check digit changed from 5 to 6; composite changed from 0 to 1.
        { text: 'GK71029356DEU7703159M3008085<<<<<<<<<<<<<<<0' },
        { text: 'GK71029355DEU7703159M3008085<<<<<<<<<<<<<<<1' },
        { text: 'XGK71029355DEU7703159M3008085<<<<<<<<<<<<<<<0' },
      ],
    },
  },
];
