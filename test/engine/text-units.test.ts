import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCharsetDecoder } from '../../src/engine/text/charset.js';
import { createEscapeDecoder, type EscapeSyntax } from '../../src/engine/text/escapes.js';
import { copyOffsets, type Segment } from '../../src/engine/text/segment.js';

/** The indices of a text's non-ASCII code units, from the text itself. */
function reference(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) out.push(i);
  return out;
}

const pieces = ['a', 'Z', '0', ' ', '"', ';', 'é', '€', '中', '😀', '\\u00e9', '\\u20ac', '\\n', '\\"', '&amp;', '&eacute;', '&#233;', '&#x1F600;', '&lt;', '&', '\\'];

describe("the decoders' non-ASCII units (which spare the matcher a search)", () => {
  for (const syntax of ['none', 'text', 'json', 'html', 'xml'] as EscapeSyntax[]) {
    it(`are exactly the non-ASCII units of each segment, through UTF-8 and ${syntax} escapes, in any chunking`, () => {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 120 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }), (parts, cuts) => {
          const bytes = Buffer.from(parts.join(''), 'utf8');
          const charset = createCharsetDecoder('utf-8');
          const escapes = createEscapeDecoder(syntax);
          const out: Segment[] = [];
          let at = 0;
          for (let k = 0; at < bytes.length; k++) {
            const n = cuts[k % cuts.length]!;
            const chunk = bytes.subarray(at, at + n);
            at += n;
            out.push(escapes.push(charset.push(chunk, false), false));
            check(out.at(-1)!);
          }
          out.push(escapes.push(charset.push(new Uint8Array(0), true), true));
          check(out.at(-1)!);
        }),
        { numRuns: 300 },
      );
    });
  }

  function check(seg: Segment): void {
    // Known only when every stage that made the segment knew it; when known, it must be exact.
    if (seg.nonAscii !== undefined) expect(Array.from(seg.nonAscii)).toEqual(reference(seg.text));
  }

  it('are known for plain UTF-8 and for text whose escapes were decoded in the same slice', () => {
    const json = createEscapeDecoder('json').push(createCharsetDecoder('utf-8').push(Buffer.from('{"n":"Łukasz \\u00e9 €"}'), true), true);
    expect(json.nonAscii).toBeDefined();
    expect(Array.from(json.nonAscii!)).toEqual(reference(json.text));
    const html = createEscapeDecoder('html').push(createCharsetDecoder('utf-8').push(Buffer.from('<td>José &amp; &eacute; 😀</td>'), true), true);
    expect(Array.from(html.nonAscii!)).toEqual(reference(html.text));
  });
});

describe('the text stage (plain text and logs)', () => {
  const decode = (text: string) => createEscapeDecoder('text').push({ text, offsets: null, base: 0 }, true);

  it('decodes only \\uXXXX, \\/ and \\", the escapes of JSON strings printed in a log line', () => {
    expect(decode('a\\u0034b \\u00e9 https:\\/\\/h').text).toBe('a4b é https://h');
    expect(decode('body="{\\"password\\":\\"v\\"}"').text).toBe('body="{"password":"v"}"');
    // Everything else stays as written: a .env file's \\n is two characters.
    expect(decode('k=-----BEGIN\\nMII\\t\\x41\\\'q').text).toBe('k=-----BEGIN\\nMII\\t\\x41\\\'q');
    expect(decode('\\\\"q').text).toBe('\\\\"q');
  });

  it('keeps an escaped backslash whole, so \\\\u0041 stays literal text', () => {
    expect(decode('\\\\u0041 \\\\/ \\\\\\u0041').text).toBe('\\\\u0041 \\\\/ \\\\A');
  });

  it('passes a text whose backslashes all stay as written on as it came (offsets still linear)', () => {
    const seg = { text: 'C:\\Users\\app\\config.json msg="ok\\n"', offsets: null, base: 40 };
    expect(createEscapeDecoder('text').push(seg, true)).toBe(seg);
    expect(createEscapeDecoder('text').push(seg, false)).toBe(seg);
  });

  it('maps each decoded character to the byte offset of its escape', () => {
    const seg = decode('x\\u0041y');
    expect(seg.text).toBe('xAy');
    expect(Array.from(seg.offsets!)).toEqual([0, 1, 7, 8]);
  });

  it('decodes the same in any chunking, an escape or a \\\\ cut anywhere', () => {
    const text = 'p=\\u0034\\\\u0041\\/\\\\\\u0042\\n\\"\\\\"\\u00';
    const whole = decode(text).text;
    for (let cut = 1; cut < text.length; cut++) {
      const d = createEscapeDecoder('text');
      const a = d.push({ text: text.slice(0, cut), offsets: null, base: 0 }, false);
      const b = d.push({ text: text.slice(cut), offsets: null, base: cut }, true);
      expect(a.text + b.text).toBe(whole);
    }
  });
});

describe('named character references', () => {
  const decode = (syntax: EscapeSyntax, text: string) => createEscapeDecoder(syntax).push({ text, offsets: null, base: 0 }, true).text;

  it('decode by their own syntax however often and in whatever order they were seen', () => {
    // HTML knows `&euro;`, XML only its five names: a name decoded for one must stay as written in the other.
    for (let round = 0; round < 3; round++) {
      expect(decode('html', '1&euro; &amp; &euro;&nosuch;')).toBe('1€ & €&nosuch;');
      expect(decode('xml', '1&euro; &amp; &apos;')).toBe("1&euro; & '");
    }
  });

  it('decode alike past the bound on remembered names (a page of many distinct names)', () => {
    const names = Array.from({ length: 1500 }, (_, i) => `&zz${i.toString(36)};`).join('');
    expect(decode('html', `${names}&eacute;`)).toBe(`${names}é`);
    expect(decode('html', '&eacute;&Eacute;')).toBe('éÉ');
  });
});

describe('copyOffsets', () => {
  it('writes base + i for each unit of linear text, short or long, at any base', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_200_000 }), fc.integer({ min: 0, max: 70_000 }), fc.integer({ min: 0, max: 70_000 }), fc.integer({ min: 0, max: 8 }), (base, a, b, at) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const seg: Segment = { text: ' '.repeat(to), offsets: null, base };
        const into = new Int32Array(at + to - from + 1).fill(-1);
        copyOffsets(seg, from, to, into, at);
        for (let i = from; i < to; i++) if (into[at + i - from] !== base + i) expect.fail(`unit ${i}: ${into[at + i - from]} for ${base + i}`);
        expect(into[at + to - from]).toBe(-1);
      }),
      { numRuns: 300, seed: 20261129 },
    );
  });
});

describe('offsets through UTF-8 and escapes', () => {
  // Self-contained pieces: literal text or one whole escape, with what it decodes to. Every unit an
  // escape decodes to points at the escape's first byte, a literal character at its own.
  const kinds: Record<string, Array<[string, string]>> = {
    html: [['a', 'a'], [' ', ' '], ['é', 'é'], ['€', '€'], ['中', '中'], ['😀', '😀'], ['&amp;', '&'], ['&eacute;', 'é'], ['&#233;', 'é'], ['&#x1F600;', '😀'], ['&lt;', '<'], ['\\u00e9', 'é'], ['\\n', '\n']],
    xml: [['a', 'a'], ['é', 'é'], ['😀', '😀'], ['&amp;', '&'], ['&#233;', 'é'], ['&#x1F600;', '😀'], ['&lt;', '<'], ['x;', 'x;']],
    json: [['a', 'a'], ['é', 'é'], ['😀', '😀'], ['\\u00e9', 'é'], ['\\ud83d', '\ud83d'], ['\\ude00', '\ude00'], ['\\n', '\n'], ['\\"', '"'], ['&amp;', '&amp;']],
  };
  for (const [syntax, table] of Object.entries(kinds)) {
    it(`map each decoded unit to its piece's first byte (${syntax}), in any chunking`, () => {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...table), { maxLength: 150 }), fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 6 }), (parts, cuts) => {
          let want = '';
          const wantOff: number[] = [];
          let at = 0;
          for (const [raw, decoded] of parts) {
            want += decoded;
            if (raw === decoded) {
              // Literal text: each character at its own first byte.
              for (const ch of raw) {
                for (let k = 0; k < ch.length; k++) wantOff.push(at);
                at += Buffer.byteLength(ch);
              }
              continue;
            }
            for (let k = 0; k < decoded.length; k++) wantOff.push(at);
            at += Buffer.byteLength(raw);
          }
          const bytes = Buffer.from(parts.map(([raw]) => raw).join(''), 'utf8');
          const charset = createCharsetDecoder('utf-8');
          const escapes = createEscapeDecoder(syntax as EscapeSyntax);
          let text = '';
          const off: number[] = [];
          for (let k = 0, from = 0; from <= bytes.length; k++) {
            const to = Math.min(bytes.length, from + cuts[k % cuts.length]!);
            const final = to === bytes.length;
            const seg = escapes.push(charset.push(bytes.subarray(from, to), final), final);
            text += seg.text;
            for (let i = 0; i < seg.text.length; i++) off.push(seg.offsets === null ? seg.base + i : seg.offsets[i]!);
            if (final) break;
            from = to;
          }
          expect(text).toBe(want);
          expect(off).toEqual(wantOff);
        }),
        { numRuns: 1500, seed: 20261129 },
      );
    });
  }
});
