import type { RuleDef } from '../types.js';
import { mrzTd1Valid, mrzTd3Valid } from '../../validators/mrz.js';

// What may sit between the two MRZ lines once the body is decoded: nothing, spaces, one or two line
// breaks (real, a literal `\n` in a plain-text body, or `<br>`), or the `","` of a JSON array.
const kLineBreak = '(?:\\r?\\n|(?:\\\\r)?\\\\n|<br ?/?>)';
const kBetweenLines = `(?:(?:[ \\t]{0,8}${kLineBreak}){0,2}[ \\t]{0,8}|"[ \\t]{0,4},[ \\t\\r\\n]{0,8}")`;

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
    description: 'Machine readable zone of an identity card or residence permit (ICAO 9303 TD1, three lines of 30 characters) with valid check digits.',
    family: 'pii',
    tags: ['national-id', 'mrz'],
    enabledByDefault: true,
    // The name line always holds `<<` between surname and given names.
    trigger: { keywords: ['<<'] },
    pattern: `[IAC][A-Z<][A-Z<]{3}[A-Z0-9<]{25}${kBetweenLines}[0-9]{7}[MFX<][0-9]{7}[A-Z<]{3}[A-Z0-9<]{11}[0-9]${kBetweenLines}[A-Z<]{30}`,
    maxLength: 30 + 36 + 30 + 36 + 30,
    boundary: { left: 'A-Za-z0-9<', right: 'A-Za-z0-9' },
    validate: mrzTd1Valid,
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
      ],
      negative: [
        // Composite check digit changed from 2 to 3.
        { text: 'IDFRAX4RTBPFW46<<<<<<<<<<<<<<<\n9006153M3001086FRA<<<<<<<<<<<3\nDUBOIS<<PIERRE<ANDRE<<<<<<<<<<' },
        // Document number check digit changed from 6 to 7.
        { text: 'IDFRAX4RTBPFW47<<<<<<<<<<<<<<<\n9006153M3001086FRA<<<<<<<<<<<2\nDUBOIS<<PIERRE<ANDRE<<<<<<<<<<' },
        // Only two of the three lines.
        { text: 'IDFRAX4RTBPFW46<<<<<<<<<<<<<<<\n9006153M3001086FRA<<<<<<<<<<<2' },
      ],
    },
  },
];
