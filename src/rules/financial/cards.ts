import type { RuleDef, RuleExample, RunMatch } from '../types.js';
import { luhnValid } from '../../validators/luhn.js';
import { runGoesOn } from '../run-match.js';
import { kNumberLeadIn, kNumberLeadInLength, numberLeadInStart } from './shape.js';

/**
 * Payment card numbers (PANs), one rule per brand. Every rule shares the same shape:
 *
 * - trigger: a digit run of at least the brand's shortest length (the shared digits tracker);
 * - pattern: a lead-in that proves the number starts here (see `kNumberLeadIn`), then the brand's
 *   first four digits and either the rest unseparated or digits joined by one kind of optional single
 *   separator, taking up to one digit MORE than the brand's longest length. Taking the overrun is
 *   deliberate: a value that is a slice of a longer number (`4111 1111 1111 1111 2025`, a UUID's
 *   digits) comes out too long or in a wrong grouping and `validate` drops it, instead of the slice
 *   being reported. The price: a space-grouped number directly followed by a space and more digits
 *   (`4111 1111 1111 1111 12/29`) is dropped too; written unseparated or with dashes it is found;
 * - validate: separators are none or all the same single space or dash, in a grouping cards and forms
 *   print (4-4-4-4 or 8-8 for 16 digits, 4-6-5 or 4-4-4-3 for 15, 4-6-4 or 4-4-4-2 for 14, 4-4-4-4-3
 *   for 19; 17 and 18 digits are accepted unseparated only), the length is one the brand issues, the
 *   IIN range is the brand's, and the Luhn check holds (through the `luhn` package, see
 *   src/validators/luhn.ts).
 *
 * IIN ranges follow the networks' published ranges as summarised by ISO/IEC 7812 registries and the
 * acquirers' BIN guides. Where two brands overlap, one rule owns the range so a number yields a single
 * finding: the Discover/UnionPay co-branded range 622126-622925 is reported as `card-discover`. The
 * eight major brands share one run gate; `card-other-network` (regional networks, off by default)
 * has its own, so the default rules' gate is not loosened by the other networks' first digits.
 */

interface Brand {
  readonly id: string;
  readonly name: string;
  readonly tag: string;
  /** Regex for the first four digits (cheap pre-selection; `iin` is the exact check). */
  readonly first4: string;
  /**
   * The digits the brand's numbers may start with, for the trigger's run shape: the eight major
   * brands share `23456` (one shape for all of them in the shared pass); it must agree with the
   * first digits of the brand's run gate.
   */
  readonly firstDigits: string;
  readonly lengths: readonly number[];
  readonly iin: (digits: string) => boolean;
  readonly enabledByDefault: boolean;
  readonly note?: string;
  readonly positive: readonly RuleExample[];
  readonly negative: readonly RuleExample[];
}

/** Groupings printed on cards and in forms, by number length (group sizes joined with `-`). */
const kGroupings: Readonly<Record<number, readonly string[]>> = {
  14: ['4-6-4', '4-4-4-2'],
  15: ['4-6-5', '4-4-4-3'],
  16: ['4-4-4-4', '8-8'],
  19: ['4-4-4-4-3'],
};

/** Whether the number its first `len` digits make is in [lo, hi] (an issuer range). */
function prefixIn(digits: string, len: number, lo: number, hi: number): boolean {
  // Read off the codes (no slice, no string-to-number): `digits` holds digits only.
  let p = 0;
  for (let i = 0; i < len && i < digits.length; i++) p = p * 10 + digits.charCodeAt(i) - 48;
  return p >= lo && p <= hi;
}

/**
 * Accepts the value if it is a plausible, Luhn-valid card number of `brand`: digits in groups joined
 * by one kind of separator, a space or a dash (`4111 1111-1111 1111` mixes them), in a grouping cards
 * print. One pass over the value's codes, run on every card value found.
 */
function cardValidator(brand: Brand): (value: string) => boolean {
  return (value) => {
    let sep = 0;
    let group = 0;
    let count = 0;
    // The sizes of the groups before the current one, as a grouping code.
    let shape = 0;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        group++;
        count++;
        continue;
      }
      // A separator: the first one met, between two groups of digits.
      if ((c !== 32 && c !== 45) || (sep !== 0 && c !== sep) || group === 0) return false;
      sep = c;
      shape = shape * 32 + group;
      group = 0;
    }
    if (group === 0 || !brand.lengths.includes(count)) return false;
    if (sep !== 0 && !printedGrouping(count, shape, group)) return false;
    const digits = sep === 0 ? value : value.replaceAll(String.fromCharCode(sep), '');
    if (!brand.iin(digits)) return false;
    return luhnValid(digits);
  };
}

/**
 * Whether a number of `digits` digits, grouped as `shape` (the sizes of the groups before the last,
 * as a grouping code) and a last group of `last`, is in one of the printed groupings. A grouping code
 * is the sizes in base 32 (`4-4-4-4` is ((4·32 + 4)·32 + 4)·32 + 4): no strings built per value or
 * prefix. Groups hold fewer than 32 digits (a number at most 19), so codes differ as groupings do.
 */
function printedGrouping(digits: number, shape: number, last: number): boolean {
  return (kGroupingCodes[digits] ?? []).includes(shape * 32 + last);
}
/** `kGroupings` as codes, by number length. */
const kGroupingCodes: Readonly<Record<number, readonly number[]>> = Object.fromEntries(
  Object.entries(kGroupings).map(([length, groupings]) => [length, groupings.map((g) => g.split('-').reduce((code, size) => code * 32 + Number(size), 0))]),
);

const kMinCardDigits = 12;
const kMaxCardDigits = 19;

/**
 * The run gate of the eight major brands together (see `RuleDef.runGate`): true when some brand's
 * value could be in the run. A card value starts at the first digit of its run: the lead-in
 * (`kNumberLeadIn`) never lets it follow a digit, or a digit and one separator, and the shared
 * tracker's runs are exactly digits joined by single separators. So the value is the run's text up to
 * its 12th to 19th digit, and the gate asks about those few prefixes what the brands' validators would
 * (cheap checks first: a first digit of 2-6, as every brand has, the grouping, Luhn; then each brand's
 * lengths and IIN range). Timestamps, order numbers, ids
 * followed by a status code, the long numbers of every log line, are dropped before any of the brands'
 * patterns or their screen runs. Each brand's rule has its own gate (`brandRunGate`), so a run
 * holding a Visa number wakes only the Visa rule's window, not all eight.
 */
export function cardRunGate(text: string, start: number, end: number): boolean {
  return majorMask(text, start, end) !== 0;
}

/**
 * card-other-network's run gate: the same test with its own first digits and validator, so each
 * rule's run shape follows from its gate (a run the major brands' shape drops never passes theirs).
 */
export function otherNetworkRunGate(text: string, start: number, end: number): boolean {
  return cardGate(text, start, end, kOtherFirstDigit, kOtherBrands) !== 0;
}

/**
 * Which major brands may have a value in the run (bit i: `kMajorBrands[i]`), worked out
 * once per run: the brands' gates are asked one after another about the same run.
 */
function majorMask(text: string, start: number, end: number): number {
  const m = kMajorMemo;
  if (m.start === start && m.end === end && m.text === text) return m.mask;
  m.mask = cardGate(text, start, end, kMajorFirstDigit, kMajorBrands);
  m.text = text;
  m.start = start;
  m.end = end;
  return m.mask;
}
const kMajorMemo = { text: '', start: -1, end: -1, mask: 0 };

/** First digits by code (0-127): the eight brands start with 2-6; the other networks with 1, 2, 5, 6, 8 or 9. */
const kMajorFirstDigit = firstDigits('23456');
const kOtherFirstDigit = firstDigits('125689');
function firstDigits(digits: string): Uint8Array {
  const t = new Uint8Array(128);
  for (const d of digits) t[d.charCodeAt(0)] = 1;
  return t;
}

/**
 * Which of `brands` may have a value in the run (bit i: brands[i]); every bit when undecided. A prefix
 * in a printed grouping that passes Luhn is one of a brand's values when its length is the brand's
 * and its IIN is in the brand's range: the rest of the brand's validator, asked once per prefix.
 */
function cardGate(text: string, start: number, end: number, first: Uint8Array, brands: readonly Brand[]): number {
  const all = (1 << brands.length) - 1;
  // A run the tracker cut into pieces (or text cut at the kept buffer's start) may continue one on its
  // left: no decision then.
  const before = start > 0 ? text.charCodeAt(start - 1) : -1;
  if (before >= 48 && before <= 57) return all;
  if ((before === 32 || before === 45 || before === 46) && start > 1) {
    const b2 = text.charCodeAt(start - 2);
    if (b2 >= 48 && b2 <= 57) return all;
  }
  // The run's digits up to the 19th (a dot ends the value), with the separator before each. Most runs
  // of a log fail the cheapest tests on the way, before anything is copied: a brand's first digit
  // (`first`), and, when separators come before the 12th digit, a first group of 4 or 8 (every
  // grouping starts with one: `6332907625 200 546` is no card) and one kind of separator, a space or a
  // dash (`2024-473989 200 470` is none either). The shared pass checks the same as the rules' run shape;
  // this is the gate's own statement of it.
  const after = kGateAfter;
  const sepBefore = kGateSep;
  let n = 0;
  let sep = 0;
  let firstSep = 0;
  for (let i = start; i < end && n < kMaxCardDigits; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (n === 0 && first[c] !== 1) return 0;
      sepBefore[n] = sep;
      after[n++] = i + 1;
      sep = 0;
    } else if (c === 46) break;
    else {
      sep = c;
      if (n === 0 || n >= kMinCardDigits) continue;
      if (firstSep === 0) {
        if ((n !== 4 && n !== 8) || (c !== 32 && c !== 45)) return 0;
        firstSep = c;
      } else if (c !== firstSep) return 0;
    }
  }
  if (n < kMinCardDigits) return 0;
  // The Luhn sum of every prefix, grown one digit at a time without a string: `even` doubles the
  // digits at even indexes, `odd` those at odd ones; a prefix of length len doubles every other digit
  // from its second-to-last, so it takes `odd` when len - 1 is even and `even` otherwise. Only a prefix
  // whose sum is a multiple of 10 goes on to the brands' IIN and length checks (the sum is Luhn's own
  // check; `luhnValid` judges the value later, and test/rules/gates.test.ts holds the gate to it).
  let even = 0;
  let odd = 0;
  let mask = 0;
  let digits: string | null = null;
  // The prefix's shape, grown one digit at a time: its separator (0 none, -1 mixed) and group sizes.
  let kind = 0;
  let shape = 0;
  let group = 1;
  for (let len = 1; len <= n; len++) {
    const i = len - 1;
    const d = text.charCodeAt(after[i]! - 1) - 48;
    const twice = d < 5 ? 2 * d : 2 * d - 9;
    if ((i & 1) === 0) {
      even += twice;
      odd += d;
    } else {
      even += d;
      odd += twice;
    }
    if (len === 1) continue;
    const s = sepBefore[i]!;
    if (s !== 0) {
      kind = kind === 0 || kind === s ? s : -1;
      shape = shape * 32 + group;
      group = 0;
    }
    group++;
    if (len < kMinCardDigits || kind === -1) continue;
    // Separated values come only in the brands' groupings (the validator's own rule, checked first
    // because it is cheap and rejects the id-and-status-code runs of logs).
    if (kind !== 0 && !printedGrouping(len, shape, group)) continue;
    if (((i & 1) === 0 ? odd : even) % 10 !== 0) continue;
    if (digits === null) {
      digits = '';
      for (let k = 0; k < n; k++) digits += text[after[k]! - 1];
    }
    const prefix = digits.slice(0, len);
    for (let b = 0; b < brands.length; b++) {
      const brand = brands[b]!;
      if (brand.lengths.includes(len) && brand.iin(prefix)) mask |= 1 << b;
    }
    if (mask === all) return all;
  }
  return mask;
}

/** Scratch of `cardRunGate` (synchronous, so one set serves every call). */
const kGateAfter = new Int32Array(kMaxCardDigits);
const kGateSep = new Int32Array(kMaxCardDigits);

function cardRule(brand: Brand): RuleDef {
  const min = Math.min(...brand.lengths);
  const max = Math.max(...brand.lengths);
  // Unseparated: the remaining digits, plus a `-`/`.` overrun (`4111111111111111-7`, `….50`) so such
  // compounds are dropped; a space after an unseparated number ends it (`4111111111111111 12/29`).
  // Grouped: digits with single separators, up to one digit past the longest length (overrun).
  const plain = `[0-9]{${min - 4},${max - 4}}(?:[.-][0-9])?`;
  // One branch per separator, so a grouped number ends where its separator changes (a dash-grouped
  // number followed by a space: `4000-0566-5566-5556 12/29`); the dot branch only takes dotted
  // compounds whole, for `validate` to drop.
  const repeat = `{${min - 4},${max + 1 - 4}}`;
  const grouped = `(?:-?[0-9])${repeat}|(?: ?[0-9])${repeat}|(?:[.]?[0-9])${repeat}`;
  const rule: RuleDef = {
    id: brand.id,
    description: `${brand.name} payment card number (brand prefix, length, grouping and Luhn checked).`,
    family: 'financial-information',
    tags: ['card', brand.tag],
    enabledByDefault: brand.enabledByDefault,
    // Cards are written with spaces or dashes only: dots do not join the run (decimals, SVG paths).
    // The run gate's first tests are checked in the shared pass itself, as far as a shape can say
    // them: the brand's first digits; before the 8th digit, groups of one separator after a first
    // group of 4 (an 8-8 number has no separator there).
    trigger: { digits: { min, separators: ' -', shape: { first: brand.firstDigits, groups: { within: 8, first: 4, chars: ' -' } } } },
    pattern: `${kNumberLeadIn}(${brand.first4}(?:${plain}|${grouped}))`,
    group: 1,
    // The lead-in judges the left side itself (it may start with a letter: `Visa 4111…`).
    boundary: { left: '' },
    // Lead-in, four digits, then each further digit with at most one separator before it.
    maxLength: kNumberLeadInLength + 4 + 2 * (max + 1 - 4),
    runGate: brand === kOtherNetworks ? otherNetworkRunGate : brandRunGate(brand),
    runMatch: cardRunMatch(brand.first4, min, max),
    validate: cardValidator(brand),
    // `4012888888881881 4012-8888-8888-1881 4012 8888 8888 1881`: after an accepted card, the next
    // number of the list needs no lead-in (a card never follows a digit and a space otherwise).
    inLists: true,
    examples: { positive: brand.positive, negative: brand.negative },
  };
  return brand.note === undefined ? rule : { ...rule, note: brand.note };
}

/**
 * A card rule's match on a group that is one number (`RunMatch`): a run of `min` to `max` digits,
 * unseparated or joined by one kind of separator (a space or a dash) after a first group of at least
 * four and fewer than `min` digits, starting with the brand's first four digits, after a lead-in, and
 * followed by nothing the pattern would take on. Then the pattern's value is the whole run: unseparated,
 * its first branch takes every digit; grouped, that branch stops at the first separator short of its
 * minimum, and the branch of the run's separator takes every digit (at most `max` - 4 of its `max` - 3).
 * Inside the run no lead-in fits, so no other match starts there.
 */
function cardRunMatch(first4: string, min: number, max: number): RunMatch {
  const head = new RegExp(`(?:${first4})`, 'y');
  return (text, start, end, out) => {
    const ms = numberLeadInStart(text, start);
    if (ms < 0 || runGoesOn(text, end)) return false;
    let digits = 0;
    let sep = 0;
    let firstGroup = 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) {
        digits++;
        continue;
      }
      // One kind of separator, each between two digits (the run's last character is checked below).
      if ((c !== 32 && c !== 45) || (sep !== 0 && c !== sep) || i === start || text.charCodeAt(i - 1) === c) return false;
      if (sep === 0) {
        sep = c;
        firstGroup = digits;
      }
    }
    const last = text.charCodeAt(end - 1);
    if (last < 48 || last > 57 || digits < min || digits > max) return false;
    if (sep !== 0 && (firstGroup < 4 || firstGroup >= min)) return false;
    head.lastIndex = start;
    if (!head.test(text) || head.lastIndex !== start + 4) return false;
    out[0] = ms;
    out[1] = start;
    out[2] = end;
    return true;
  };
}

// Numbers below are the networks' public test numbers (Stripe and PayPal developer docs) or synthetic
// numbers made for these examples with a computed Luhn check digit.

const kVisa: Brand = {
  id: 'card-visa',
  name: 'Visa',
  tag: 'visa',
  first4: '4[0-9]{3}',
  firstDigits: '23456',
  // 13-digit Visa numbers are no longer issued, and 13-digit EAN barcodes of German products
  // (prefixes 400-440) would pass one time in ten: left out on purpose.
  lengths: [16, 19],
  iin: (d) => d[0] === '4',
  enabledByDefault: true,
  positive: [
    { text: '{"payment":{"card_number":"4111111111111111","exp":"12/29"}}', match: '4111111111111111' },
    { text: '<td class="pan">4111 1111 1111 1111</td>', match: '4111 1111 1111 1111' },
    { text: 'card=4500-1234-1234-5677&cvc=123', match: '4500-1234-1234-5677' },
    { text: '카드번호 4012 8888 8888 1881 입니다', match: '4012 8888 8888 1881' },
    { text: 'visa19: 4000 1234 5678 9012 343\n', match: '4000 1234 5678 9012 343' },
    { text: '"pan": "\\u0034111111111111111"', contentType: 'application/json', match: '4111111111111111' },
    { text: 'pan 4000-0566-5566-5556 12/29 cvc 123', match: '4000-0566-5566-5556' },
    { text: 'test cards: 4242424242424242 4000-0566-5566-5556 4000 0025 0000 3155\n', match: '4000 0025 0000 3155' },
  ],
  negative: [
    { text: '{"card_number":"4111111111111112"}' },
    { text: '{"orderId":"1000234523452345","total":"4111.11"}' },
    { text: 'ref 14111111111111111 and x4111111111111111 and 4111111111111111a' },
    { text: 'mixed 4111 1111-1111 1111 separators' },
    { text: '"id":"41111111-1111-1111-1111-111111111111"' },
    { text: 'run 4111 1111 1111 1111 2025 and 1111 4242 4242 4242 4242' },
    { text: 'ts=1700000000000 ms' },
    { text: 'ORD-4111111111111111 and 4111.1111.1111.1111 and 4111111111111111.50' },
  ],
};

const kMastercard: Brand = {
  id: 'card-mastercard',
  name: 'Mastercard',
  tag: 'mastercard',
  first4: '(?:5[1-5][0-9]{2}|2[2-7][0-9]{2})',
  firstDigits: '23456',
  lengths: [16],
  iin: (d) => prefixIn(d, 2, 51, 55) || prefixIn(d, 4, 2221, 2720),
  enabledByDefault: true,
  positive: [
    { text: '{"pan":"5555555555554444"}', match: '5555555555554444' },
    { text: 'Card: 2223 0031 2200 3222 (Mastercard 2-series)', match: '2223 0031 2200 3222' },
    { text: '<input value="2712-3456-7890-1236">', match: '2712-3456-7890-1236' },
  ],
  negative: [
    { text: '{"pan":"5555555555554445"}' },
    { text: 'outside 2-series: 2721123456789019 and 2220123456789015' },
    { text: 'prefix 56: 5655555555554444' },
    { text: 'grouping 5555 5555 5555 4444 1 and 555555 5555554444 and 5555555 555554444' },
  ],
};

const kAmex: Brand = {
  id: 'card-amex',
  name: 'American Express',
  tag: 'amex',
  first4: '3[47][0-9]{2}',
  firstDigits: '23456',
  lengths: [15],
  iin: (d) => d.startsWith('34') || d.startsWith('37'),
  enabledByDefault: true,
  positive: [
    { text: '{"amex":"378282246310005"}', match: '378282246310005' },
    { text: '<span>3714 496353 98431</span>', match: '3714 496353 98431' },
    { text: 'AMEX 3782-822463-10005 exp 04/30', match: '3782-822463-10005' },
    { text: 'grouped as sixteen-digit cards are: 3782 8224 6310 005', match: '3782 8224 6310 005' },
  ],
  negative: [
    { text: '{"amex":"378282246310006"}' },
    { text: 'wrong grouping 3782 82246 310005 and 3782 8224 6310 006' },
    { text: 'imei 353456789012347 and 358282246310005' },
    { text: 'longer 3782 822463 10005 1234' },
  ],
};

const kDiscover: Brand = {
  id: 'card-discover',
  name: 'Discover',
  tag: 'discover',
  first4: '(?:6011|64[4-9][0-9]|65[0-9]{2}|622[1-9])',
  firstDigits: '23456',
  lengths: [16, 17, 18, 19],
  iin: (d) => d.startsWith('6011') || prefixIn(d, 3, 644, 649) || d.startsWith('65') || prefixIn(d, 6, 622126, 622925),
  enabledByDefault: true,
  positive: [
    { text: '{"card":"6011111111111117"}', match: '6011111111111117' },
    { text: 'Discover: 6011 0009 9013 9424.', match: '6011 0009 9013 9424' },
    { text: 'cobrand=6221261234567897;', match: '6221261234567897' },
    { text: '<b>6229 2512 3456 7890 124</b>', match: '6229 2512 3456 7890 124' },
  ],
  negative: [
    { text: '{"card":"6011111111111118"}' },
    { text: 'below 644: 6430123456789012; before 622126: 6221251234567898' },
    { text: '17 digits grouped 6500 1234 5678 9012 1' },
    { text: 'glued x6011111111111117 and 96011111111111117 and 6011111111111117y' },
  ],
};

const kJcb: Brand = {
  id: 'card-jcb',
  name: 'JCB',
  tag: 'jcb',
  first4: '35[2-8][0-9]',
  firstDigits: '23456',
  lengths: [16, 17, 18, 19],
  iin: (d) => prefixIn(d, 4, 3528, 3589),
  enabledByDefault: true,
  positive: [
    { text: '{"jcb":"3530111333300000"}', match: '3530111333300000' },
    { text: 'カード番号：3566 0020 2036 0505', match: '3566 0020 2036 0505' },
    { text: 'pan=3589-1234-5678-9012-346\n', match: '3589-1234-5678-9012-346' },
    { text: 'JCB: 35301113 33300000', match: '35301113 33300000' },
  ],
  negative: [
    { text: '{"jcb":"3530111333300001"}' },
    { text: 'below range 3527123456789013' },
    { text: 'mixed 3530 1113-3330 0000' },
  ],
};

const kDiners: Brand = {
  id: 'card-diners',
  name: 'Diners Club',
  tag: 'diners',
  first4: '(?:30[0-5][0-9]|3[689][0-9]{2})',
  firstDigits: '23456',
  // 14 digits is the classic length; 16-digit numbers exist on the 30x/36 ranges (Stripe's test
  // number 3056930009020004 is one).
  lengths: [14, 16],
  iin: (d) => prefixIn(d, 3, 300, 305) || d.startsWith('36') || d.startsWith('38') || d.startsWith('39'),
  enabledByDefault: true,
  positive: [
    { text: '{"diners":"30569309025904"}', match: '30569309025904' },
    { text: 'Diners 3622 720627 1667', match: '3622 720627 1667' },
    { text: '<td>3056-9300-0902-0004</td>', match: '3056-9300-0902-0004' },
    { text: 'Diners 3622 7206 2716 67', match: '3622 7206 2716 67' },
  ],
  negative: [
    { text: '{"diners":"30569309025905"}' },
    { text: 'prefix 306: 3061234567898 and 30612345678904' },
    { text: '15 digits 385200000232371' },
  ],
};

const kUnionPay: Brand = {
  id: 'card-unionpay',
  name: 'UnionPay',
  tag: 'unionpay',
  first4: '62[0-9]{2}',
  firstDigits: '23456',
  lengths: [16, 17, 18, 19],
  // 622126-622925 is co-branded with Discover and reported by `card-discover` only.
  iin: (d) => d.startsWith('62') && !prefixIn(d, 6, 622126, 622925),
  enabledByDefault: true,
  positive: [
    { text: '{"unionpay":"6200000000000005"}', match: '6200000000000005' },
    { text: '银行卡号：6205 5000 0000 0000 004。', match: '6205 5000 0000 0000 004' },
    { text: 'card=621234567890123457&ok', match: '621234567890123457' },
  ],
  negative: [
    { text: '{"unionpay":"6200000000000006"}' },
    { text: 'co-branded 6221261234567897 is Discover’s' },
    { text: '15 digits 620000000000004' },
  ],
};

const kMaestro: Brand = {
  id: 'card-maestro',
  name: 'Maestro',
  tag: 'maestro',
  // Switch (633110, 6333) and Solo (6334, 6767), the UK debit cards that became Maestro UK.
  first4: '(?:5018|5020|5038|5893|6304|633[134]|6759|676[1-37])',
  firstDigits: '23456',
  lengths: [12, 13, 14, 15, 16, 17, 18, 19],
  iin: (d) => kMaestroIins.includes(d.slice(0, 4)) && (!d.startsWith('6331') || d.startsWith('633110')),
  enabledByDefault: false,
  note: 'Maestro numbers run from 12 to 19 digits, so with Luhn passing one number in ten, short digit runs (12-15 digits, common as ids) on these prefixes would be reported; enable it where Maestro cards are expected.',
  positive: [
    { text: '{"maestro":"6759649826438453"}', match: '6759649826438453' },
    { text: 'Maestro 6304 1234 5678 9015', match: '6304 1234 5678 9015' },
    { text: 'pan: 5018123456789', match: '5018123456789' },
    { text: 'Switch 6331 1012 3456 7892', match: '6331 1012 3456 7892' },
    { text: 'solo=6767123456789015', match: '6767123456789015' },
  ],
  negative: [
    { text: '{"maestro":"6759649826438454"}' },
    { text: 'not Maestro 6760123456789012' },
    { text: 'too short 50181234567' },
    { text: 'not Switch 6331201234567890' },
  ],
};

const kMaestroIins = ['5018', '5020', '5038', '5893', '6304', '6331', '6333', '6334', '6759', '6761', '6762', '6763', '6767'];

/**
 * Networks of the ISO/IEC 7812 register outside the eight brands, on ranges none of them owns, with
 * the lengths each network issues. Source: the IIN table of Wikipedia's "Payment card number" article
 * (a compilation of the register and the networks' published BIN ranges), which lists each of these
 * as Luhn-checked:
 * - UATP (airline accounts, MII 1): prefix 1, 15 digits;
 * - Mir (NSPK, Russia): 2200-2204, 16-19 digits;
 * - Dankort (Nets, Denmark): 5019, 16 digits (the Visa/Dankort co-brand 4571 is `card-visa`'s);
 * - Verve (Interswitch, Nigeria): 506099-506198 and 507865-507964, 16, 18 or 19 digits (its
 *   650002-650027 lies in Discover's 65 and stays `card-discover`'s);
 * - RuPay (NPCI, India): 508, 81 and 82, 16 digits (its 60, 65, 353 and 356 belong to Discover
 *   and JCB here);
 * - InterPayment: 636, 16-19 digits; InstaPayment: 637-639, 16 digits;
 * - UzCard (Uzbekistan): 8600, 16 digits; Humo (Uzbekistan): 9860, 16 digits;
 * - Troy (Türkiye): 9792, 16 digits (its 65 stays Discover's).
 * Left out: ranges inside a major brand's (LankaPay's 357111 in JCB's), or not in that table.
 */
const kOtherNetworkRanges: ReadonlyArray<readonly [lo: string, hi: string, lengths: readonly number[]]> = [
  ['1', '1', [15]], // UATP
  ['2200', '2204', [16, 17, 18, 19]], // Mir
  ['5019', '5019', [16]], // Dankort
  ['506099', '506198', [16, 18, 19]], // Verve
  ['507865', '507964', [16, 18, 19]], // Verve
  ['508', '508', [16]], // RuPay
  ['81', '82', [16]], // RuPay
  ['636', '636', [16, 17, 18, 19]], // InterPayment
  ['637', '639', [16]], // InstaPayment
  ['8600', '8600', [16]], // UzCard
  ['9792', '9792', [16]], // Troy
  ['9860', '9860', [16]], // Humo
];

function otherNetworkIin(d: string): boolean {
  return kOtherNetworkRanges.some(([lo, hi, lengths]) => {
    const p = d.slice(0, lo.length);
    return p >= lo && p <= hi && lengths.includes(d.length);
  });
}

const kOtherNetworks: Brand = {
  id: 'card-other-network',
  name: 'UATP, Mir, Dankort, Verve, RuPay, InterPayment, InstaPayment, UzCard, Humo or Troy',
  tag: 'other-network',
  first4: '(?:1[0-9]{3}|220[0-4]|5019|50[67][0-9]|508[0-9]|8[12][0-9]{2}|63[6-9][0-9]|8600|9792|9860)',
  firstDigits: '125689',
  lengths: [15, 16, 17, 18, 19],
  iin: otherNetworkIin,
  enabledByDefault: false,
  note: 'Off by default: these networks are regional (UATP airline accounts, Mir, Dankort, Verve, RuPay, InterPayment, InstaPayment, UzCard, Humo, Troy), and 15- to 19-digit ids starting with 1, 8 or 9 pass the Luhn check one time in ten; enable it where such cards are expected.',
  positive: [
    { text: '{"uatp":"135412345678911"}', match: '135412345678911' },
    { text: 'Dankort 5019 1234 5678 9013', match: '5019 1234 5678 9013' },
    { text: 'mir=2201123456789018', match: '2201123456789018' },
    { text: 'Карта МИР: 2204 1234 5678 9012 343', match: '2204 1234 5678 9012 343' },
    { text: 'RuPay 8112 3456 7890 1239', match: '8112 3456 7890 1239' },
    { text: '<td>5081-2345-6789-0120</td>', match: '5081-2345-6789-0120' },
    { text: 'Verve card 5061001234567892 approved', match: '5061001234567892' },
    { text: '{"verve":"507900123456789010"}', match: '507900123456789010' },
    { text: 'pan: 6361234567890123454', match: '6361234567890123454' },
    { text: 'InstaPayment 63891234 56789013', match: '63891234 56789013' },
    { text: 'UzCard 8600 1234 5678 9012, Humo 9860 1234 5678 9015', match: '8600 1234 5678 9012' },
    { text: 'Humo: 9860 1234 5678 9015', match: '9860 1234 5678 9015' },
    { text: 'Troy kart no 9792 1234 5678 9018', match: '9792 1234 5678 9018' },
  ],
  negative: [
    { text: '{"uatp":"135412345678912"}' },
    { text: 'Mir range ends at 2204: 2205123456789014' },
    { text: 'UATP has 15 digits: 1354123456789015' },
    { text: 'Verve starts at 506099: 5060981234567896' },
    { text: 'InstaPayment has 16 digits: 63891234567890129' },
    { text: 'not UzCard 8601123456789011, Dankort bad check 5019123456789014' },
    { text: 'order 2201 1234 5678 9018 7 and 12 8112345678901239' },
  ],
};

const kBrands: readonly Brand[] = [kVisa, kMastercard, kAmex, kDiscover, kJcb, kDiners, kUnionPay, kMaestro, kOtherNetworks];
/**
 * Every major brand's validator, default-off Maestro included (a gate is shared, whatever rules are
 * on); the other networks' validator is their own gate's.
 */
const kMajorBrands = kBrands.filter((b) => b !== kOtherNetworks);
const kOtherBrands = [kOtherNetworks];

/** A major brand's run gate (made once per brand, by its rule): its bit of `majorMask`. */
function brandRunGate(brand: Brand): NonNullable<RuleDef['runGate']> {
  const bit = 1 << kMajorBrands.indexOf(brand);
  return (text, start, end) => (majorMask(text, start, end) & bit) !== 0;
}

export const cardRules: readonly RuleDef[] = kBrands.map(cardRule);
