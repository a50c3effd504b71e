import { describe, expect, it } from 'vitest';
import { normalizeCharset } from '../../src/content/index.js';

/** Whether this Node's TextDecoder knows the label, and the canonical name it gives it. */
function decoderName(label: string): string | undefined {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

describe('normalizeCharset', () => {
  it('defaults to UTF-8 when there is no label', () => {
    expect(normalizeCharset(undefined)).toEqual({ encoding: 'utf-8', label: 'utf-8', supported: true });
  });

  it.each(['utf-8', 'UTF8', ' utf-8 ', '"utf-8"', 'unicode-1-1-utf-8', 'x-unicode20utf8'])('%j is UTF-8', (label) => {
    expect(normalizeCharset(label)).toEqual({ encoding: 'utf-8', label: 'utf-8', supported: true });
  });

  it.each([
    ['utf-16le', 'utf-16le'],
    ['UTF-16', 'utf-16le'],
    ['ucs-2', 'utf-16le'],
    ['utf-16be', 'utf-16be'],
    ['unicodeFFFE', 'utf-16be'],
  ])('%s is %s', (label, encoding) => {
    expect(normalizeCharset(label)).toEqual({ encoding, label: encoding, supported: true });
  });

  it.each([
    ['us-ascii', 'windows-1252'],
    ['ASCII', 'windows-1252'],
    ['iso-8859-1', 'windows-1252'],
    ['latin1', 'windows-1252'],
    ['cp1252', 'windows-1252'],
    ['iso-8859-2', 'iso-8859-2'],
    ['latin2', 'iso-8859-2'],
    ['iso-8859-9', 'windows-1254'],
    ['iso-8859-11', 'windows-874'],
    ['tis-620', 'windows-874'],
    ['koi8-r', 'koi8-r'],
    ['koi8-u', 'koi8-u'],
    ['macintosh', 'macintosh'],
    ['x-mac-roman', 'macintosh'],
    ['cp866', 'ibm866'],
    ['windows-1251', 'windows-1251'],
    ['logical', 'iso-8859-8-i'],
  ])('%s is the single-byte encoding %s', (label, name) => {
    expect(normalizeCharset(label)).toEqual({ encoding: 'single-byte', label: name, supported: true });
  });

  it('agrees with TextDecoder on the canonical name of every single-byte label it accepts', () => {
    // TextDecoder implements the same WHATWG label table; our result must be decodable with it.
    const labels = ['866', 'csisolatin2', 'iso_8859-3:1988', 'l4', 'cyrillic', 'asmo-708', 'greek8', 'visual', 'csiso88598i', 'l6', 'iso885913',
      'iso8859-14', 'l9', 'koi', 'koi8-ru', 'csmacintosh', 'dos-874', 'x-cp1250', 'cp1251', 'ansi_x3.4-1968', 'x-cp1253', 'l5', 'cp1255', 'cp1256',
      'x-cp1257', 'cp1258', 'x-mac-ukrainian'];
    for (const label of labels) {
      const got = normalizeCharset(label);
      const name = decoderName(label);
      if (name === undefined) {
        expect(got.supported, label).toBe(false);
      } else {
        expect(got, label).toEqual({ encoding: 'single-byte', label: name, supported: true });
        // One byte, one character: what lets the engine map offsets back trivially.
        const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
        expect(new TextDecoder(got.label).decode(bytes).length, label).toBe(256);
      }
    }
  });

  it.each([
    ['shift_jis', 'shift_jis'],
    ['Shift-JIS', 'shift_jis'],
    ['sjis', 'shift_jis'],
    ['gb2312', 'gbk'],
    ['GBK', 'gbk'],
    ['gb18030', 'gb18030'],
    ['euc-kr', 'euc-kr'],
    ['big5', 'big5'],
    ['euc-jp', 'euc-jp'],
    ['iso-2022-jp', 'iso-2022-jp'],
    ['iso-2022-kr', 'replacement'],
    ['utf-7', 'utf-7'],
    ['no-such-charset', 'no-such-charset'],
  ])('%s is not decoded (scanned as UTF-8, flagged unsupported, named %s)', (label, name) => {
    expect(normalizeCharset(label)).toEqual({ encoding: 'utf-8', label: name, supported: false });
  });

  it('marks a single-byte encoding this runtime cannot decode as unsupported', () => {
    const got = normalizeCharset('iso-8859-16');
    expect(got.label).toBe('iso-8859-16');
    expect(got.supported).toBe(decoderName('iso-8859-16') !== undefined);
  });
});
