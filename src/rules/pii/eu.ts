import type { RuleDef } from '../types.js';
import { isValidDate } from '../../validators/date.js';
import { chAhvValid } from '../../validators/ch-ahv.js';
import { esNifValid } from '../../validators/es-nif.js';
import { fiHetuValid } from '../../validators/fi-hetu.js';
import { frNirValid } from '../../validators/fr-nir.js';
import { icaoCheckDigit } from '../../validators/icao9303.js';
import { itCodiceFiscaleValid } from '../../validators/it-codice-fiscale.js';
import { nlBsnValid } from '../../validators/nl-bsn.js';
import { noFodselsnummerValid } from '../../validators/no-fodselsnummer.js';
import { plPeselValid } from '../../validators/pl-pesel.js';
import { sePersonnummerValid } from '../../validators/se-personnummer.js';
import { isCapitalCode, isDigitCode } from '../run-match.js';
import { digitsOf, kLabelReach, kRunExtra, labelledRun, oneRepeatedDigit, wholeRun } from './shape.js';

// Check letters of the DNI/NIE: every letter but I, Ñ, O and U.
const kNifLetter = '[A-HJ-NP-TV-Z]';
// German document numbers (passport and identity card) use digits and these letters only: no vowels
// and none of B, D, Q, S, which are too easily read as 8, 0, 0 and 5.
const kDeDocChars = 'CFGHJKLMNPRTVWXYZ';

/**
 * Eight DNI digits that read as a recent calendar date (`20240115-E`) are far likelier to be a build or
 * batch stamp. Only 1990-2039 is treated so: about one real DNI in 500 is lost to it.
 */
function looksLikeDate(eightDigits: string): boolean {
  const y = Number(eightDigits.slice(0, 4));
  return y >= 1990 && y <= 2039 && isValidDate(y, Number(eightDigits.slice(4, 6)), Number(eightDigits.slice(6, 8)));
}

/** Labels of German passports and identity cards. */
const kDePassportWords = ['passport', 'reisepass', 'passnummer', 'pass-nr', 'passnr', 'pass nr', 'ausweis', 'dokumentennummer', 'document number'];

function dePassportValid(v: string): boolean {
  // At least one letter after the first character: `C` + 8 digits is a US passport card number, and a
  // real German number is all digits after its first letter only about once in 3,000.
  return /[A-Z]/.test(v.slice(1, 9)) && /[0-9]/.test(v);
}

/**
 * A German document number ending in its ICAO check digit: the MRZ's 9 characters and the check, or
 * 8 and the check (how other detectors read the printed 9). Same letter rules as `dePassportValid`.
 */
function dePassportChecked(v: string): boolean {
  const body = v.slice(0, -1);
  return dePassportValid(body) && icaoCheckDigit(body) === v.charCodeAt(v.length - 1) - 48;
}

/**
 * es-dni's run gate (see `RuleDef.runGate`): the value's eight digits end their run (a dash or the
 * letter comes next, and neither joins a run), and a capital letter follows, after at most a dash.
 */
function dniRunGate(text: string, _start: number, end: number): boolean {
  const c = text.charCodeAt(end);
  return isCapitalCode(c === 45 ? text.charCodeAt(end + 1) : c);
}

/** A BSN's printed forms: bare, or 4.2.3 and 3.3.3 with one kind of separator (dots or spaces). */
const kBsnShape = /^[0-9]{9}$|^[0-9]{4}([ .])[0-9]{2}\1[0-9]{3}$|^[0-9]{3}([ .])[0-9]{3}\2[0-9]{3}$/;

const kNirShape = /^[0-9A-Ba-b]{15}$|^[0-9A-Ba-b]{13} [0-9]{2}$|^[0-9] [0-9]{2} [0-9]{2} [0-9A-Ba-b]{2} [0-9]{3} [0-9]{3} [0-9]{2}$/;
const nirValid = (v: string): boolean => kNirShape.test(v) && frNirValid(v);

/** True for the Corsican department letters of a NIR. */
function corsicaLetter(c: number): boolean {
  return c === 65 || c === 66 || c === 97 || c === 98;
}

/**
 * fr-nir's run gate (see `RuleDef.runGate`). A NIR without a letter is its whole run (the `wholeRun`
 * lead-in and tail), so the validator judges the run. A Corsican one (2A, 2B) is split by its letter:
 * the part before it (`2 53 07 2`) holds six digits, too few to trigger; the part after it, right (or
 * one space) after the letter, holds the last eight (`073 004 70`). So the runs that fire the rule hold
 * 15 or 8 digits (the trigger's shape `counts`).
 */
function nirRunGate(text: string, start: number, end: number): boolean {
  // The three shapes are 15, 16 and 21 characters long: other runs (timestamps) are not copied.
  const len = end - start;
  if ((len === 15 || len === 16 || len === 21) && nirValid(text.slice(start, end))) return true;
  const letter = text.charCodeAt(start - 1) === 32 ? start - 2 : start - 1;
  return corsicaLetter(text.charCodeAt(letter)) && text.charCodeAt(letter - 1) === 50 && digitsOf(text.slice(start, end)).length === 8;
}

/** fi-hetu's century signs: `-`, `+`, A-F, U-Y. */
function isHetuSign(c: number): boolean {
  return c === 45 || c === 43 || (c >= 65 && c <= 70) || (c >= 85 && c <= 89);
}

/**
 * DDMM at `i` is a day 01-31 and a month 01-12, as the pattern requires (the validator then checks the
 * date itself): random six-digit blocks before a dash, as in UUIDs, mostly are not.
 */
function hetuDayMonth(text: string, i: number): boolean {
  const day = 10 * (text.charCodeAt(i) - 48) + text.charCodeAt(i + 1) - 48;
  const month = 10 * (text.charCodeAt(i + 2) - 48) + text.charCodeAt(i + 3) - 48;
  return day >= 1 && day <= 31 && month >= 1 && month <= 12;
}

/**
 * fi-hetu's run gate looks at the maximal blocks of digits of the run (its range is their boundary):
 * its six date digits are a whole block followed by the century sign (a dash joins the run:
 * `010190-123A`), and start with a day and a month. Skips like Boyer-Moore: a non-digit among the next six characters rules out every
 * block start up to it, so a long run of shorter groups (a piece of one is handed over whole) costs
 * about one look per group instead of one per character.
 */
function hetuRunGate(text: string, start: number, end: number): boolean {
  let i = start; // a block may start here: i is the range's start or follows a non-digit
  while (i + 6 <= end) {
    let k = i + 5;
    while (k >= i && isDigitCode(text.charCodeAt(k))) k--;
    if (k >= i) {
      i = k + 1;
      continue;
    }
    let j = i + 6;
    while (j < end && isDigitCode(text.charCodeAt(j))) j++;
    if (j - i === 6 && isHetuSign(text.charCodeAt(i + 6)) && hetuDayMonth(text, i)) return true;
    i = j + 1; // text[j] is not a digit (or j is the end)
  }
  return false;
}

function nieRunGate(text: string, start: number, end: number): boolean {
  // Letters never join a run, and the dashes either side are followed by a letter: the seven digits
  // are the whole run (a piece of a long run never is one, and costs nothing to drop).
  if (end - start !== 7) return false;
  const b = text.charCodeAt(start - 1) === 45 ? text.charCodeAt(start - 2) : text.charCodeAt(start - 1);
  const a = text.charCodeAt(end) === 45 ? text.charCodeAt(end + 1) : text.charCodeAt(end);
  return b >= 88 && b <= 90 && isCapitalCode(a);
}

export const euRules: readonly RuleDef[] = [
  {
    id: 'es-dni',
    description: 'Spanish DNI / NIF number (8 digits + check letter) with a valid mod-23 letter.',
    family: 'pii',
    tags: ['es', 'national-id'],
    enabledByDefault: true,
    // Eight digits, contiguous or grouped by dots (`12.345.678-Z`); a dash only ever precedes the letter.
    // The gate's test, a capital after the run (maybe across a dash), is checked in the shared pass.
    trigger: { digits: { min: 8, separators: '.', shape: { after: { chars: 'A-Z', skip: '-' } } } },
    runGate: dniRunGate,
    pattern: `[0-9]{8}-?${kNifLetter}|[0-9]{2}\\.[0-9]{3}\\.[0-9]{3}-?${kNifLetter}`,
    maxLength: 12,
    validate: (v) => {
      const d = digitsOf(v);
      return !oneRepeatedDigit(d) && !looksLikeDate(d) && esNifValid(v);
    },
    examples: {
      positive: [
        { text: '{"nombre":"Lucía García","dni":"51729702B"}', match: '51729702B' },
        { text: 'DNI: 75.032.304-W, domicilio en Sevilla', match: '75.032.304-W' },
        { text: '<td>13018877-A</td>', match: '13018877-A' },
      ],
      negative: [
        { text: 'DNI 51729702C (letra incorrecta)' },
        { text: 'build 20240115-E and file report_20240115R.pdf' },
        { text: 'ref 517297021B, X51729702B, 51729702BX' },
        { text: 'DNI 00000000T' },
      ],
    },
  },
  {
    id: 'es-nie',
    description: 'Spanish NIE foreigner identity number (X/Y/Z + 7 digits + check letter) with a valid mod-23 letter.',
    family: 'pii',
    tags: ['es', 'national-id'],
    enabledByDefault: true,
    // Seven contiguous digits between the prefix letter and the check letter; the gate's letters
    // around the block (each maybe across a dash) are checked in the shared pass.
    trigger: { digits: { min: 7, max: 7, separators: '', shape: { block: { before: { chars: 'X-Z', skip: '-' }, after: { chars: 'A-Z', skip: '-' } } } } },
    runGate: nieRunGate,
    pattern: `[XYZ]-?[0-9]{7}-?${kNifLetter}`,
    maxLength: 11,
    validate: (v) => !oneRepeatedDigit(digitsOf(v)) && esNifValid(v),
    examples: {
      positive: [
        { text: '{"nie":"X4111851A","nacionalidad":"PT"}', match: 'X4111851A' },
        { text: 'NIE: Y-8576135-R', match: 'Y-8576135-R' },
        { text: 'Titular con NIE Z8248261Y.', match: 'Z8248261Y' },
      ],
      negative: [
        { text: 'NIE X4111851B' },
        { text: 'codes AX4111851A, X4111851A2 and x4111851a' },
        { text: 'sku W4111851A' },
      ],
    },
  },
  {
    id: 'it-codice-fiscale',
    description: 'Italian codice fiscale of a person (16 characters) with a valid birth day and check character, omocodia included.',
    family: 'pii',
    tags: ['it', 'tax-id'],
    enabledByDefault: true,
    trigger: { token: { min: 16, max: 16, needsLetter: true } },
    valueIsRun: true,
    pattern: '[A-Z]{6}[0-9LMNP-V]{2}[ABCDEHLMPRST][0-9LMNP-V]{2}[A-Z][0-9LMNP-V]{3}[A-Z]',
    ignoreCase: true,
    maxLength: 16,
    validate: itCodiceFiscaleValid,
    examples: {
      positive: [
        { text: '{"cognome":"Bianchi","codice_fiscale":"BNCGNN85T10F205Q"}', match: 'BNCGNN85T10F205Q' },
        { text: 'C.F. vrdlra92e45a944g - Bologna', match: 'vrdlra92e45a944g' },
        { text: '<td>FRRLCU77B21L219I</td>', match: 'FRRLCU77B21L219I' },
      ],
      negative: [
        { text: 'CF BNCGNN85T10F205R (carattere di controllo errato)' },
        { text: 'codice BNCGNN85T32F205W has day 32' },
        { text: 'hash XBNCGNN85T10F205Q and BNCGNN85T10F205Q1' },
      ],
    },
  },
  {
    id: 'fr-nir',
    description: 'French social security number (NIR, 13 digits + 2-digit key) with a valid mod-97 key, Corsica 2A/2B included.',
    family: 'pii',
    tags: ['fr', 'national-id'],
    enabledByDefault: true,
    // Only spaces join the digits. Corsican numbers hold a letter, which splits the digit run; the part
    // after it (`073 004 70`, `07300470`) always has eight digits.
    trigger: { digits: { min: 8, max: 15, separators: ' ', shape: { counts: [8, 15] } } },
    ...wholeRun(
      '[1278] [0-9]{2} [0-9]{2} (?:[0-9]{2}|2[ABab]) [0-9]{3} [0-9]{3} [0-9]{2}' +
        '|[1278][0-9]{4}(?:[0-9]{2}|2[ABab])[0-9]{6} ?[0-9]{2}',
    ),
    maxLength: 21 + kRunExtra,
    runGate: nirRunGate,
    validate: nirValid,
    examples: {
      positive: [
        { text: '{"nom":"Martin","nir":"1 85 07 75 116 012 80"}', match: '1 85 07 75 116 012 80' },
        { text: 'N° sécurité sociale : 292031305504686', match: '292031305504686' },
        { text: 'Numéro INSEE 253072B073004 70 (Haute-Corse)', match: '253072B073004 70' },
      ],
      negative: [
        { text: 'NIR 1 85 07 75 116 012 81 (clé fausse)' },
        { text: 'IMEI 385077511601277 and 3 85 07 75 116 012 77 (sex digit 3)' },
        { text: 'ref 9 1 85 07 75 116 012 80' },
        { text: 'id 1850775116012801' },
      ],
    },
  },
  {
    id: 'de-passport',
    description: 'German passport or identity card number as printed (9 characters of the restricted letter set, no check digit) next to a passport or ID label.',
    family: 'pii',
    tags: ['de', 'passport'],
    enabledByDefault: true,
    // The first character is always a letter, so a token of digits alone cannot match.
    trigger: { token: { min: 9, max: 9, needsLetter: true } },
    pattern: `[${kDeDocChars}][${kDeDocChars}0-9]{8}`,
    maxLength: 9,
    // The printed number has no check digit (only the MRZ adds one), so a label is required.
    context: { words: kDePassportWords, before: kLabelReach },
    // A number whose last character happens to be its check digit is de-passport-checked's.
    validate: (v) => dePassportValid(v) && !dePassportChecked(v),
    note: 'Without a check digit the restricted alphabet and the label are the only evidence. A number that ends in a valid ICAO check digit (one printed number in ten, and every 10-character MRZ form) is reported by de-passport-checked instead, so a number yields one finding.',
    examples: {
      positive: [
        { text: '{"dokument":"Reisepass","passnummer":"C4J7RV2K1"}', match: 'C4J7RV2K1' },
        { text: 'Passport No. CF92LTX70 (Germany)', match: 'CF92LTX70' },
      ],
      negative: [
        { text: 'Passport card C12345678 (US)' },
        { text: 'Reisepass: CA4J7RV2K (the letter A is never used)' },
        { text: '{"session":"C4J7RV2K1","build":"NJ4X82GR57"}' },
        // Its check digit holds: de-passport-checked's.
        { text: 'Personalausweis Nr. LZ6311T48' },
      ],
    },
  },
  {
    id: 'de-passport-checked',
    description: 'German passport or identity card number ending in its ICAO 9303 check digit (8 or 9 characters of the restricted letter set and the check digit).',
    family: 'pii',
    tags: ['de', 'passport'],
    enabledByDefault: true,
    trigger: { token: { min: 9, max: 10, needsLetter: true } },
    pattern: `[${kDeDocChars}][${kDeDocChars}0-9]{7,8}[0-9]`,
    maxLength: 10,
    // One token of this shape in ten passes the check by chance: without a label a number is only `medium`.
    context: { words: kDePassportWords, before: kLabelReach, without: 'medium' },
    validate: dePassportChecked,
    note: 'The MRZ form (the 9-character number and its check digit) and the 9-character form whose last character checks the first 8 (how other detectors read a printed number); printed numbers that do not end in a check digit are de-passport\'s.',
    examples: {
      positive: [
        { text: 'Passport No. CF92LTX706 (Germany)', match: 'CF92LTX706' },
        { text: 'Personalausweis Nr. LZ6311T475', match: 'LZ6311T475' },
        { text: 'Reisepass LZ6311T48', match: 'LZ6311T48' },
        { text: '{"doc":"M10JT2Y36"}', match: 'M10JT2Y36', confidence: 'medium' },
        { text: 'Nr. G2C9YN0M4 / 2031', match: 'G2C9YN0M4', confidence: 'medium' },
      ],
      negative: [
        { text: 'Reisepass CF92LTX707 (Prüfziffer falsch)' },
        { text: '{"doc":"M10JT2Y37"}' },
        { text: 'C01234565 (digits only after the letter) and CA0JT2Y36 (A is never used)' },
        { text: 'token XM10JT2Y36 and M10JT2Y361' },
      ],
    },
  },
  {
    id: 'se-personnummer',
    description: 'Swedish personal identity or coordination number (YYMMDD-NNNC) with a valid date and Luhn check digit, next to a label.',
    family: 'pii',
    tags: ['se', 'national-id'],
    enabledByDefault: true,
    // Ten or twelve digits joined by at most one `-` or `+` (`+`: over 100 years old).
    trigger: { digits: { min: 10, separators: '-+' } },
    ...labelledRun('(?:19|20)?[0-9]{6}[-+]?[0-9]{4}'),
    maxLength: 13 + kRunExtra,
    // `YYMMDD-NNNN` with a one-in-ten check is also how order and batch numbers are stamped: label required.
    context: { words: ['personnummer', 'personnr', 'person-nr', 'samordningsnummer', 'personal identity number'], before: kLabelReach },
    validate: (v) => /^(?:19|20)?[0-9]{6}[-+]?[0-9]{4}$/.test(v) && sePersonnummerValid(v),
    examples: {
      positive: [
        { text: '{"namn":"Erik Andersson","personnummer":"900101-1007"}', match: '900101-1007' },
        { text: 'Personnummer: 19640823-1006', match: '19640823-1006' },
        { text: 'Samordningsnummer 701063-2342', match: '701063-2342' },
      ],
      negative: [
        { text: 'personnummer 900101-1008' },
        { text: 'order 900101-1007 shipped' },
        { text: 'personnummer 190229-1002 (29 February 1919 and 2019 do not exist)' },
      ],
    },
  },
  {
    id: 'no-fodselsnummer',
    description: 'Norwegian national identity number or D-number (11 digits) with a valid date and both mod-11 check digits, next to a label.',
    family: 'pii',
    tags: ['no', 'national-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 11, max: 11, separators: ' ' } },
    ...labelledRun('[0-9]{6} ?[0-9]{5}'),
    maxLength: 12 + kRunExtra,
    // Date and two check digits still pass about one Chinese mobile number (13x…) in a thousand.
    context: {
      words: ['fødselsnummer', 'fodselsnummer', 'foedselsnummer', 'fnr', 'f.nr', 'personnummer', 'd-nummer', 'national identity number'],
      before: kLabelReach,
    },
    validate: (v) => /^[0-9]{6} ?[0-9]{5}$/.test(v) && noFodselsnummerValid(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"navn":"Kari Nordmann","fodselsnummer":"15037894572"}', match: '15037894572' },
        { text: 'Fødselsnummer: 071164 30295', match: '071164 30295' },
        { text: 'D-nummer 45068936881', match: '45068936881' },
      ],
      negative: [
        { text: 'fnr 15037894573' },
        { text: 'tlf 15037894572' },
        { text: 'fnr 1 15037894572' },
      ],
    },
  },
  {
    id: 'ch-ahv',
    description: 'Swiss social security number (AHV/AVS, 756.XXXX.XXXX.XC) with a valid EAN-13 check digit.',
    family: 'pii',
    tags: ['ch', 'national-id'],
    enabledByDefault: true,
    // Every AHV number starts with the country code 756 (the validator's first test).
    trigger: { digits: { min: 13, max: 13, separators: '.', shape: { first: '7' } } },
    ...wholeRun('756\\.[0-9]{4}\\.[0-9]{4}\\.[0-9]{2}|756[0-9]{10}'),
    valueIsRun: true,
    maxLength: 16 + kRunExtra,
    validate: (v) => /^756\.[0-9]{4}\.[0-9]{4}\.[0-9]{2}$|^756[0-9]{10}$/.test(v) && chAhvValid(v),
    examples: {
      positive: [
        { text: '{"name":"Müller","ahv":"756.1234.5678.97"}', match: '756.1234.5678.97' },
        { text: 'AVS-Nr. 7569402385618', match: '7569402385618' },
      ],
      negative: [
        { text: 'AHV 756.1234.5678.98' },
        { text: 'EAN 7571234567896 and 1.756.1234.5678.97' },
        { text: 'ts 7561234567897123' },
      ],
    },
  },
  {
    id: 'pl-pesel',
    description: 'Polish PESEL number (11 digits) with a valid birth date and check digit, next to a PESEL label.',
    family: 'pii',
    tags: ['pl', 'national-id'],
    enabledByDefault: true,
    // A match is a whole 11-character token (default boundaries), rarer than runs of 11+ digits.
    trigger: { token: { min: 11, max: 11 } },
    pattern: '[0-9]{11}',
    maxLength: 11,
    // Date plus check digit still passes about 2% of 11-digit numbers, including Chinese mobile numbers
    // (13x…, read as an 1800s month): without the label a number is only `medium`.
    context: { words: ['pesel'], before: kLabelReach, without: 'medium' },
    validate: plPeselValid,
    examples: {
      positive: [
        { text: '{"imie":"Anna","pesel":"85120312343"}', match: '85120312343' },
        { text: 'Numer PESEL: 02261509870', match: '02261509870' },
        // Without the label, date and check digit make a number medium.
        { text: '{"id":"17111423633"}', match: '17111423633', confidence: 'medium' },
      ],
      negative: [
        { text: 'PESEL 85120312344 (zła cyfra kontrolna)' },
        { text: 'tel. 90113004564' },
        { text: 'PESEL 85133112347 (month 13)' },
      ],
    },
  },
  {
    id: 'fi-hetu',
    description: 'Finnish personal identity code (henkilötunnus, DDMMYY-NNNC) with a valid date and check character.',
    family: 'pii',
    tags: ['fi', 'national-id'],
    enabledByDefault: true,
    // DDMMYY: six contiguous digits (the century sign may be a letter, which splits the run), the
    // century sign right after them (the gate's test, checked in the shared pass).
    trigger: { digits: { min: 6, max: 6, separators: '', shape: { block: { after: { chars: '-+A-FU-Y' } } } } },
    runGate: hetuRunGate,
    pattern: '(?:0[1-9]|[12][0-9]|3[01])(?:0[1-9]|1[0-2])[0-9]{2}[-+A-FU-Y][0-9]{3}[0-9A-FHJ-NPR-Y]',
    maxLength: 11,
    validate: fiHetuValid,
    examples: {
      positive: [
        { text: '{"nimi":"Aino Virtanen","hetu":"230598-482P"}', match: '230598-482P' },
        { text: 'Henkilötunnus: 070411A217K', match: '070411A217K' },
        { text: 'HETU 311299Y904C (2023 format)', match: '311299Y904C' },
      ],
      negative: [
        { text: 'hetu 230598-482R' },
        { text: 'date 300298-482T is 30 February' },
        { text: 'x230598-482P and 230598-482PX' },
      ],
    },
  },
  {
    id: 'nl-bsn',
    description: 'Dutch citizen service number (BSN, 9 digits) passing the eleven-test, next to a BSN label.',
    family: 'pii',
    tags: ['nl', 'national-id'],
    enabledByDefault: true,
    trigger: { digits: { min: 9, max: 9, separators: ' .' } },
    // Bare, 4.2.3 or 3.3.3 with dots or with spaces, as Dutch forms and letters print it.
    ...labelledRun('[0-9]{9}|[0-9]{4}[ .][0-9]{2}[ .][0-9]{3}|[0-9]{3}[ .][0-9]{3}[ .][0-9]{3}'),
    maxLength: 11 + kRunExtra,
    // One 9-digit number in eleven passes: without a label a number is only `medium`.
    context: { words: ['bsn', 'burgerservicenummer', 'sofinummer', 'sofi-nummer', 'citizen service number'], before: kLabelReach, without: 'medium' },
    validate: (v) => kBsnShape.test(v) && nlBsnValid(digitsOf(v)),
    examples: {
      positive: [
        { text: '{"naam":"de Vries","bsn":"431113531"}', match: '431113531' },
        { text: 'Burgerservicenummer: 9076.61.452', match: '9076.61.452' },
        { text: 'BSN 641257995\nBSN 907661452', match: '907661452' },
        { text: 'bsn: 7257 63 863', match: '7257 63 863' },
        { text: 'Sofinummer 162.275.869', match: '162.275.869' },
        // Without a label the eleven-test alone makes a number medium.
        { text: 'order 431113531 shipped', match: '431113531', confidence: 'medium' },
        { text: '<td>1922 85 142</td>', match: '1922 85 142', confidence: 'medium' },
      ],
      negative: [
        { text: 'BSN 431113532' },
        { text: 'BSN 1 431 113 531' },
        { text: 'BSN 7257.63 863 (mixed separators)' },
        { text: 'order 431113532 shipped' },
      ],
    },
  },
];
