import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ibanLength, ibanValid, kIbanBbanFormats } from '../../src/validators/iban.js';
import { digitChanges, swapAt } from './helpers.js';

// The "IBAN electronic format example" of each country's page in the SWIFT IBAN Registry
// (https://www.swift.com/standards/data-standards/iban-international-bank-account-number); the last
// line holds the countries added in 2023-2024.
const kRegistryExamples = [
  'AD1200012030200359100100', 'AE070331234567890123456', 'AL47212110090000000235698741',
  'AT611904300234573201', 'AZ21NABZ00000000137010001944', 'BA391290079401028494', 'BE68539007547034',
  'BG80BNBG96611020345678', 'BH67BMAG00001299123456', 'BI4210000100010000332045181', 'BR1800360305000010009795493C1',
  'BY13NBRB3600900000002Z00AB00', 'CH9300762011623852957', 'CR05015202001026284066',
  'CY17002001280000001200527600', 'CZ6508000000192000145399', 'DE89370400440532013000',
  'DJ2100010000000154000100186', 'DK5000400440116243', 'DO28BAGR00000001212453611324', 'EE382200221020145685', 'EG380019000500000000263180002',
  'ES9121000418450200051332', 'FI2112345600000785', 'FO6264600001631634', 'FR1420041010050500013M02606',
  'GB29NWBK60161331926819', 'GE29NB0000000101904917', 'GI75NWBK000000007099453', 'GL8964710001000206',
  'GR1601101250000000012300695', 'GT82TRAJ01020000001210029690', 'HR1210010051863000160',
  'HU42117730161111101800000000', 'IE29AIBK93115212345678', 'IL620108000000099999999',
  'IQ98NBIQ850123456789012', 'IS140159260076545510730339', 'IT60X0542811101000000123456',
  'JO94CBJO0010000000000131000302', 'KW81CBKU0000000000001234560101', 'KZ86125KZT5004100100',
  'LB62099900000001001901229114', 'LC55HEMM000100010012001200023015', 'LI21088100002324013AA',
  'LT121000011101001000', 'LU280019400644750000', 'LV80BANK0000435195001', 'LY83002048000020100120361',
  'MC5811222000010123456789030', 'MD24AG000225100013104168', 'ME25505000012345678951', 'MK07250120000058984',
  'MR1300020001010000123456753', 'MT84MALT011000012345MTLCAST001S', 'MU17BOMM0101101030300200000MUR',
  'NL91ABNA0417164300', 'NO9386011117947', 'PK36SCBL0000001123456702', 'PL61109010140000071219812874',
  'PS92PALS000000000400123456702', 'PT50000201231234567890154', 'QA58DOHB00001234567890ABCDEFG',
  'RO49AAAA1B31007593840000', 'RS35260005601001611379', 'RU0204452560040702810412345678901',
  'SA0380000000608010167519', 'SC18SSCB11010000000000001497USD', 'SD2129010501234001',
  'SE4550000000058398257466', 'SI56263300012039086', 'SK3112000000198742637541', 'SM86U0322509800000000270100',
  'ST68000100010051845310112', 'TL380080012345678910157',
  'SV62CENR00000000000000700025', 'TN5910006035183598478831', 'TR330006100519786457841326',
  'UA213223130000026007233566001', 'VA59001123000012345678', 'VG96VPVG0000012345678901', 'XK051212012345678906',
  'FK88SC123456789012', 'HN88CABF00000000000250005469', 'MN121234123456789123', 'NI45BAPR00000013000003558124',
  'OM810180000001299123456', 'SO211000001001000100141', 'YE15CBYE0001018861234567891234',
];
// The "BBAN structure" of each country in Release 100 (October 2025), in the registry's own notation
// (`!` = fixed length), to catch a table entry that is looser or stricter than the registry.
const kRegistryStructures = [
  'AD 4!n4!n12!c AE 3!n16!n AL 8!n16!c AT 5!n11!n AZ 4!a20!c BA 3!n3!n8!n2!n BE 3!n7!n2!n BG 4!a4!n2!n8!c',
  'BH 4!a14!c BI 5!n5!n11!n2!n BR 8!n5!n10!n1!a1!c BY 4!c4!n16!c CH 5!n12!c CR 4!n14!n CY 3!n5!n16!c CZ 4!n6!n10!n',
  'DE 8!n10!n DJ 5!n5!n11!n2!n DK 4!n9!n1!n DO 4!c20!n EE 2!n14!n EG 4!n4!n17!n ES 4!n4!n1!n1!n10!n FI 3!n11!n',
  'FK 2!a12!n FO 4!n9!n1!n FR 5!n5!n11!c2!n GB 4!a6!n8!n GE 2!a16!n GI 4!a15!c GL 4!n9!n1!n GR 3!n4!n16!c GT 4!c20!c',
  'HN 4!a20!n HR 7!n10!n HU 3!n4!n1!n15!n1!n IE 4!a6!n8!n IL 3!n3!n13!n IQ 4!a3!n12!n IS 4!n2!n6!n10!n IT 1!a5!n5!n12!c',
  'JO 4!a4!n18!c KW 4!a22!c KZ 3!n13!c LB 4!n20!c LC 4!a24!c LI 5!n12!c LT 5!n11!n LU 3!n13!c LV 4!a13!c LY 3!n3!n15!n',
  'MC 5!n5!n11!c2!n MD 2!c18!c ME 3!n13!n2!n MK 3!n10!c2!n MN 4!n12!n MR 5!n5!n11!n2!n MT 4!a5!n18!c MU 4!a2!n2!n12!n3!n3!a',
  'NI 4!a20!n NL 4!a10!n NO 4!n6!n1!n OM 3!n16!c PK 4!a16!c PL 8!n16!n PS 4!a21!c PT 4!n4!n11!n2!n QA 4!a21!c RO 4!a16!c',
  'RS 3!n13!n2!n RU 9!n5!n15!c SA 2!n18!c SC 4!a2!n2!n16!n3!a SD 2!n12!n SE 3!n16!n1!n SI 5!n8!n2!n SK 4!n6!n10!n',
  'SM 1!a5!n5!n12!c SO 4!n3!n12!n ST 4!n4!n11!n2!n SV 4!a20!n TL 3!n14!n2!n TN 2!n3!n13!n2!n TR 5!n1!n16!c UA 6!n19!c',
  'VA 3!n15!n VG 4!a16!n XK 4!n10!n2!n YE 4!a4!n18!c',
].join(' ');
// The RU and ST examples of Release 100, which replaced older ones above, and the example of the ECBS
// standard EBS204 and of most IBAN explanations (GB82 WEST …).
const kOtherPublished = ['RU0304452522540817810538091310419', 'ST23000100010051845310146', 'GB82WEST12345698765432'];

/**
 * A second implementation of ISO 7064 MOD 97-10 (ISO 13616-1 §7): the whole rearranged number as one
 * BigInt instead of the validator's digit-by-digit remainder.
 */
function asNumber(country: string, check: string, bban: string): bigint {
  return BigInt([...`${bban}${country}${check}`].map((c) => (/[0-9]/.test(c) ? c : String(c.charCodeAt(0) - 55))).join(''));
}
const mod97Holds = (iban: string): boolean => asNumber(iban.slice(0, 2), iban.slice(2, 4), iban.slice(4)) % 97n === 1n;
/** Check digits from the definition: 98 − (number with check digits 00) mod 97. */
function withCheckDigits(country: string, bban: string): string {
  const check = 98n - (asNumber(country, '00', bban) % 97n);
  return `${country}${check.toString().padStart(2, '0')}${bban}`;
}
const kAlphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A BBAN of a registry format such as `4a6n8n`, its characters picked by `seeds`. */
function bbanOf(format: string, seeds: readonly number[]): string {
  let out = '';
  for (const [, n, kind] of format.matchAll(/([0-9]+)([anc])/g)) {
    for (let k = 0; k < Number(n); k++) {
      const seed = seeds[out.length]!;
      out += kind === 'n' ? kAlphabet[seed % 10] : kind === 'a' ? kAlphabet[10 + (seed % 26)] : kAlphabet[seed % 36];
    }
  }
  return out;
}
const kCountries = Object.keys(kIbanBbanFormats);
const kShaped = fc
  .tuple(fc.constantFrom(...kCountries), fc.array(fc.nat(1000), { minLength: 30, maxLength: 30 }))
  .map(([cc, seeds]) => [cc, bbanOf(kIbanBbanFormats[cc]!, seeds)] as const);

describe('ibanValid', () => {
  it.each([...kRegistryExamples, ...kOtherPublished])('accepts the published example %s', (v) => {
    expect(ibanValid(v)).toBe(true);
    expect(mod97Holds(v)).toBe(true);
  });

  it.each(kRegistryExamples)('rejects every one-digit change of %s', (v) => {
    // MOD 97-10 detects every single substitution; changing a digit also keeps the BBAN shape.
    for (let i = 2; i < v.length; i++) {
      if (!/[0-9]/.test(v[i]!)) continue;
      const changed = v.slice(0, i) + String((Number(v[i]) + 1) % 10) + v.slice(i + 1);
      expect(ibanValid(changed), changed).toBe(false);
    }
  });

  it('has a registry example for every country of the table, and the lengths agree', () => {
    const byCountry = new Map(kRegistryExamples.map((v) => [v.slice(0, 2), v]));
    expect(kCountries.filter((cc) => !byCountry.has(cc))).toEqual([]);
    for (const [cc, v] of byCountry) expect(ibanLength(cc), cc).toBe(v.length);
  });

  it('has the registry’s BBAN structure for every country, and no other country', () => {
    const pairs = kRegistryStructures.split(' ');
    const registry: Record<string, string> = {};
    for (let i = 0; i < pairs.length; i += 2) registry[pairs[i]!] = pairs[i + 1]!.replace(/!/g, '');
    expect(kIbanBbanFormats).toEqual(registry);
  });

  it('agrees with the BigInt implementation on IBANs of every registry shape', () => {
    fc.assert(
      fc.property(kShaped, fc.integer({ min: 0, max: 99 }), ([cc, bban], check) => {
        const v = `${cc}${String(check).padStart(2, '0')}${bban}`;
        expect(ibanValid(v), v).toBe(mod97Holds(v));
        expect(ibanValid(withCheckDigits(cc, bban)), withCheckDigits(cc, bban)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('rejects every single substitution and every swap of two adjacent digits or two adjacent letters', () => {
    // Position k of the rearranged number weighs 10^k mod 97 (100^k for a letter's two digits): a
    // change of one value by less than 97 can never be a multiple of the prime 97, and swapping
    // neighbours a, b changes the sum by (a − b)·9·10^k or (a − b)·99·100^k, neither divisible by 97.
    fc.assert(
      fc.property(kShaped, fc.nat(40), ([cc, bban], at) => {
        const valid = withCheckDigits(cc, bban);
        const i = 2 + (at % (valid.length - 2));
        if (/[0-9]/.test(valid[i]!)) for (const c of digitChanges(valid, i)) expect(ibanValid(c), c).toBe(false);
        else {
          const other = String.fromCharCode(65 + ((valid.charCodeAt(i) - 65 + 1 + (at % 25)) % 26));
          const c = valid.slice(0, i) + other + valid.slice(i + 1);
          expect(ibanValid(c), c).toBe(false);
        }
        // Swaps within the check digits or within the BBAN; positions 3 and 4 are not neighbours
        // once the country and check digits move to the end.
        const j = Math.min(i, valid.length - 2);
        const swapped = j === 3 ? null : swapAt(valid, j);
        if (swapped !== null && /[0-9]/.test(valid[j]!) === /[0-9]/.test(valid[j + 1]!)) expect(ibanValid(swapped), swapped).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['de89370400440532013000', 'lower case (the electronic form is upper-case)'],
    ['DE89 3704 0044 0532 0130 00', 'print form with spaces (the rule strips them first)'],
    ['DE8937040044053201300', 'one character short for DE'],
    ['DE893704004405320130000', 'one character long for DE'],
    ['US64SVBKUS6S3300958879', 'US has no IBAN'],
    ['DE98370400440532013000', 'check digits changed (98 - 9 = 89 is right)'],
    ['GB29NWBK60161331926891', 'two adjacent digits swapped'],
    ['', 'empty'],
    ['DE', 'country only'],
  ])('rejects %s (%s)', (v) => {
    expect(ibanValid(v)).toBe(false);
  });

  it('rejects a correct checksum whenever a letter stands where the format wants a digit, or the reverse', () => {
    fc.assert(
      fc.property(kShaped, fc.nat(40), fc.nat(25), ([cc, bban], at, pick) => {
        const kinds = [...kIbanBbanFormats[cc]!.matchAll(/([0-9]+)([anc])/g)].flatMap(([, n, k]) => Array<string>(Number(n)).fill(k!));
        const i = at % kinds.length;
        if (kinds[i] === 'c') return;
        const wrong = kinds[i] === 'n' ? String.fromCharCode(65 + pick) : String(pick % 10);
        const v = withCheckDigits(cc, bban.slice(0, i) + wrong + bban.slice(i + 1));
        expect(ibanValid(v), v).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects a correct checksum on the wrong BBAN shape', () => {
    // GB wants 4 letters, then 14 digits; NL wants 4 letters then 10 digits; IT starts with a letter.
    for (const v of [withCheckDigits('GB', '123460161331926819'), withCheckDigits('NL', 'ABNA041716430A'), withCheckDigits('IT', '00542811101000000123456')]) {
      expect(v.length).toBe(ibanLength(v.slice(0, 2)));
      expect(ibanValid(v), v).toBe(false);
    }
  });
});
