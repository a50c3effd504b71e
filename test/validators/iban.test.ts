import { describe, expect, it } from 'vitest';
import { ibanLength, ibanValid, kIbanBbanFormats } from '../../src/validators/iban.js';

// The "IBAN electronic format example" of each country's page in the SWIFT IBAN Registry.
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
];

/** Check digits from the algorithm's definition (ISO 7064 MOD 97-10 with BigInt), for built vectors. */
function withCheckDigits(country: string, bban: string): string {
  const digits = [...`${bban}${country}00`].map((c) => (/[0-9]/.test(c) ? c : String(c.charCodeAt(0) - 55))).join('');
  const check = 98n - (BigInt(digits) % 97n);
  return `${country}${check.toString().padStart(2, '0')}${bban}`;
}

describe('ibanValid', () => {
  it.each(kRegistryExamples)('accepts the registry example %s', (v) => {
    expect(ibanValid(v)).toBe(true);
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
    const missing = Object.keys(kIbanBbanFormats).filter((cc) => !byCountry.has(cc));
    // Registry entries of 2023-2024 without an example here; the next test builds vectors for them.
    expect(missing.sort()).toEqual(['FK', 'HN', 'MN', 'NI', 'OM', 'SO', 'YE']);
    for (const [cc, v] of byCountry) expect(ibanLength(cc), cc).toBe(v.length);
  });

  it('accepts built IBANs of the newest registry countries', () => {
    // BBANs of the registry's shape for each country (digits, letters where the format says `a`).
    const built = [
      withCheckDigits('FK', 'SC123456789012'),
      withCheckDigits('HN', 'CABF00000000000123456789'),
      withCheckDigits('MN', '1234123456789123'),
      withCheckDigits('NI', 'BAPR00000013000003558124'),
      withCheckDigits('OM', '0810000000000123456'),
      withCheckDigits('SO', '1000001001000100141'),
      withCheckDigits('YE', 'CBYE0001018861234567891234'),
    ];
    for (const v of built) expect(ibanValid(v), v).toBe(true);
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

  it('rejects a correct checksum on the wrong BBAN shape', () => {
    // GB wants 4 letters, then 14 digits; NL wants 4 letters then 10 digits; IT starts with a letter.
    for (const v of [withCheckDigits('GB', '123460161331926819'), withCheckDigits('NL', 'ABNA041716430A'), withCheckDigits('IT', '00542811101000000123456')]) {
      expect(v.length).toBe(ibanLength(v.slice(0, 2)));
      expect(ibanValid(v), v).toBe(false);
    }
  });
});
