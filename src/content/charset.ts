/**
 * Charset labels per the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/#names-and-labels),
 * reduced to what the scanner can do: UTF-8, UTF-16, and the single-byte legacy encodings, which
 * decode one byte to one UTF-16 code unit so byte offsets stay trivial to map back.
 */

export interface CharsetInfo {
  /** How to decode: `single-byte` means `new TextDecoder(label)` with one char per byte. */
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'single-byte';
  /** The WHATWG encoding name (lower-case, as `TextDecoder#encoding` reports it), or the label as given when unknown. */
  label: string;
  /** False when the charset is not one we decode; the body is then scanned as UTF-8 and a notice added. */
  supported: boolean;
}

const kUtf8Labels = ['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8'];
const kUtf16BeLabels = ['unicodefffe', 'utf-16be'];
// WHATWG maps plain `utf-16`, `unicode` and `ucs-2` to UTF-16LE (what Windows means by them).
const kUtf16LeLabels = ['csunicode', 'iso-10646-ucs-2', 'ucs-2', 'unicode', 'unicodefeff', 'utf-16', 'utf-16le'];

/** WHATWG single-byte encodings and their labels. */
const kSingleByte: Record<string, readonly string[]> = {
  'ibm866': ['866', 'cp866', 'csibm866', 'ibm866'],
  'iso-8859-2': ['csisolatin2', 'iso-8859-2', 'iso-ir-101', 'iso8859-2', 'iso88592', 'iso_8859-2', 'iso_8859-2:1987', 'l2', 'latin2'],
  'iso-8859-3': ['csisolatin3', 'iso-8859-3', 'iso-ir-109', 'iso8859-3', 'iso88593', 'iso_8859-3', 'iso_8859-3:1988', 'l3', 'latin3'],
  'iso-8859-4': ['csisolatin4', 'iso-8859-4', 'iso-ir-110', 'iso8859-4', 'iso88594', 'iso_8859-4', 'iso_8859-4:1988', 'l4', 'latin4'],
  'iso-8859-5': ['csisolatincyrillic', 'cyrillic', 'iso-8859-5', 'iso-ir-144', 'iso8859-5', 'iso88595', 'iso_8859-5', 'iso_8859-5:1988'],
  'iso-8859-6': ['arabic', 'asmo-708', 'csiso88596e', 'csiso88596i', 'csisolatinarabic', 'ecma-114', 'iso-8859-6', 'iso-8859-6-e', 'iso-8859-6-i', 'iso-ir-127', 'iso8859-6', 'iso88596', 'iso_8859-6', 'iso_8859-6:1987'],
  'iso-8859-7': ['csisolatingreek', 'ecma-118', 'elot_928', 'greek', 'greek8', 'iso-8859-7', 'iso-ir-126', 'iso8859-7', 'iso88597', 'iso_8859-7', 'iso_8859-7:1987', 'sun_eu_greek'],
  'iso-8859-8': ['csiso88598e', 'csisolatinhebrew', 'hebrew', 'iso-8859-8', 'iso-8859-8-e', 'iso-ir-138', 'iso8859-8', 'iso88598', 'iso_8859-8', 'iso_8859-8:1988', 'visual'],
  'iso-8859-8-i': ['csiso88598i', 'iso-8859-8-i', 'logical'],
  'iso-8859-10': ['csisolatin6', 'iso-8859-10', 'iso-ir-157', 'iso8859-10', 'iso885910', 'l6', 'latin6'],
  'iso-8859-13': ['iso-8859-13', 'iso8859-13', 'iso885913'],
  'iso-8859-14': ['iso-8859-14', 'iso8859-14', 'iso885914'],
  'iso-8859-15': ['csisolatin9', 'iso-8859-15', 'iso8859-15', 'iso885915', 'iso_8859-15', 'l9'],
  'iso-8859-16': ['iso-8859-16'],
  'koi8-r': ['cskoi8r', 'koi', 'koi8', 'koi8-r', 'koi8_r'],
  'koi8-u': ['koi8-ru', 'koi8-u'],
  'macintosh': ['csmacintosh', 'mac', 'macintosh', 'x-mac-roman'],
  'windows-874': ['dos-874', 'iso-8859-11', 'iso8859-11', 'iso885911', 'tis-620', 'windows-874'],
  'windows-1250': ['cp1250', 'windows-1250', 'x-cp1250'],
  'windows-1251': ['cp1251', 'windows-1251', 'x-cp1251'],
  // WHATWG decodes `us-ascii` and `iso-8859-1` as windows-1252 (a superset), as every browser does.
  'windows-1252': ['ansi_x3.4-1968', 'ascii', 'cp1252', 'cp819', 'csisolatin1', 'ibm819', 'iso-8859-1', 'iso-ir-100', 'iso8859-1', 'iso88591', 'iso_8859-1', 'iso_8859-1:1987', 'l1', 'latin1', 'us-ascii', 'windows-1252', 'x-cp1252'],
  'windows-1253': ['cp1253', 'windows-1253', 'x-cp1253'],
  'windows-1254': ['cp1254', 'csisolatin5', 'iso-8859-9', 'iso-ir-148', 'iso8859-9', 'iso88599', 'iso_8859-9', 'iso_8859-9:1989', 'l5', 'latin5', 'windows-1254', 'x-cp1254'],
  'windows-1255': ['cp1255', 'windows-1255', 'x-cp1255'],
  'windows-1256': ['cp1256', 'windows-1256', 'x-cp1256'],
  'windows-1257': ['cp1257', 'windows-1257', 'x-cp1257'],
  'windows-1258': ['cp1258', 'windows-1258', 'x-cp1258'],
  'x-mac-cyrillic': ['x-mac-cyrillic', 'x-mac-ukrainian'],
};

/** Multi-byte legacy encodings: known names so the notice can name them, never decoded. */
const kLegacyMultiByte: Record<string, readonly string[]> = {
  'gbk': ['chinese', 'csgb2312', 'csiso58gb231280', 'gb2312', 'gb_2312', 'gb_2312-80', 'gbk', 'iso-ir-58', 'x-gbk'],
  'gb18030': ['gb18030'],
  'big5': ['big5', 'big5-hkscs', 'cn-big5', 'csbig5', 'x-x-big5'],
  'euc-jp': ['cseucpkdfmtjapanese', 'euc-jp', 'x-euc-jp'],
  'iso-2022-jp': ['csiso2022jp', 'iso-2022-jp'],
  'shift_jis': ['csshiftjis', 'ms932', 'ms_kanji', 'shift-jis', 'shift_jis', 'sjis', 'windows-31j', 'x-sjis'],
  'euc-kr': ['cseuckr', 'csksc56011987', 'euc-kr', 'iso-ir-149', 'korean', 'ks_c_5601-1987', 'ks_c_5601-1989', 'ksc5601', 'ksc_5601', 'windows-949'],
  'replacement': ['csiso2022kr', 'hz-gb-2312', 'iso-2022-cn', 'iso-2022-cn-ext', 'iso-2022-kr', 'replacement'],
  'x-user-defined': ['x-user-defined'],
};

type Target = { encoding: CharsetInfo['encoding']; name: string } | { encoding: 'unsupported'; name: string };

const kLabels: ReadonlyMap<string, Target> = (() => {
  const m = new Map<string, Target>();
  for (const l of kUtf8Labels) m.set(l, { encoding: 'utf-8', name: 'utf-8' });
  for (const l of kUtf16BeLabels) m.set(l, { encoding: 'utf-16be', name: 'utf-16be' });
  for (const l of kUtf16LeLabels) m.set(l, { encoding: 'utf-16le', name: 'utf-16le' });
  for (const [name, labels] of Object.entries(kSingleByte)) for (const l of labels) m.set(l, { encoding: 'single-byte', name });
  for (const [name, labels] of Object.entries(kLegacyMultiByte)) for (const l of labels) m.set(l, { encoding: 'unsupported', name });
  return m;
})();

const kDecodable = new Map<string, boolean>();

/**
 * Whether this runtime's `TextDecoder` knows the encoding: Node built without full ICU lacks the
 * legacy ones, and even full-ICU Node 20 lacks `iso-8859-16`. Probed once per name.
 */
function decodable(name: string): boolean {
  let ok = kDecodable.get(name);
  if (ok === undefined) {
    try {
      new TextDecoder(name);
      ok = true;
    } catch {
      ok = false;
    }
    kDecodable.set(name, ok);
  }
  return ok;
}

/**
 * Maps a charset label to how the engine decodes the body. No label means UTF-8 (the scanner's
 * default, and what JSON requires). Unknown or multi-byte legacy charsets come back as
 * `{ encoding: 'utf-8', supported: false }`: the body is still scanned (ASCII-range secrets survive
 * most legacy encodings) and the caller reports a notice.
 *
 * @example
 * normalizeCharset(' Latin1 ');   // { encoding: 'single-byte', label: 'windows-1252', supported: true }
 * normalizeCharset('Shift_JIS');  // { encoding: 'utf-8', label: 'shift_jis', supported: false }
 */
export function normalizeCharset(label: string | undefined): CharsetInfo {
  if (label === undefined) return { encoding: 'utf-8', label: 'utf-8', supported: true };
  // WHATWG "get an encoding": strip ASCII whitespace, ASCII-lowercase. Quotes are tolerated too,
  // for callers that hand over a raw parameter value.
  let key = label.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '').replace(/[A-Z]+/g, (s) => s.toLowerCase());
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) key = key.slice(1, -1).trim();
  if (key === '') return { encoding: 'utf-8', label: 'utf-8', supported: true };
  const t = kLabels.get(key);
  if (t === undefined || t.encoding === 'unsupported') return { encoding: 'utf-8', label: t?.name ?? key, supported: false };
  if (t.encoding === 'single-byte' && !decodable(t.name)) return { encoding: 'utf-8', label: t.name, supported: false };
  return { encoding: t.encoding, label: t.name, supported: true };
}
