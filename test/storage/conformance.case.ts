/**
 * The bucket conformance suite (hono's pattern): one set of cases, run against every implementation
 * of the binding — ours and miniflare's R2 simulator. Cases follow section 5 of
 * ../shared/reference/store-binding.md plus the bad-input list. Known deltas between
 * implementations are declared by each runner (`deltas`, `skip`) and printed, never hidden.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreBucket, StoreObject, StoreObjectBody, StoreUploadedPart } from '../../src/storage/index.js';

export interface ConformanceTarget {
  name: string;
  /** A fresh, empty bucket whose multipart minimum part size is 50 bytes (the simulator's test value). */
  bucket(): Promise<StoreBucket>;
  /** The Headers class the implementation accepts (miniflare needs its own). */
  Headers: typeof Headers;
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
  /**
   * Why the implementation can no longer be reached (a reference simulator that stalled), or
   * undefined. Cases from then on are skipped with the reason, as when it cannot start.
   */
  unavailable?(): string | undefined;
  deltas: {
    /** Part etags: production R2 returns the part's MD5 hex; the simulator a random 171-char string. */
    partEtag: 'md5' | 'random';
    /** What `storageClass` objects report (the simulator sends none: ""). */
    storageClass: string;
    /** The simulator's head reports range {0,size}; R2's head reports none. */
    headRange: boolean;
    /** List without `include`: R2 leaves httpMetadata/customMetadata undefined; the simulator sends {}. */
    unincludedMetadata: 'absent' | 'empty';
    /** Unknown storage classes: rejected, or ignored (simulator). */
    rejectsUnknownStorageClass: boolean;
    /**
     * An upload id the store never issued (or issued for another key): R2 answers InternalError, and
     * its abort fails. S3 answers NoSuchUpload for it exactly as for a finished upload, so an S3 store
     * reports NoSuchUpload and its abort succeeds (an abort of a finished upload must). Default R2's.
     */
    unknownUpload?: 'InternalError' | 'NoSuchUpload';
    /** Etag of a multipart upload completed with no parts: R2's `md5("")-0` by default (S3 needs one part). */
    emptyMultipartEtag?: string;
  };
  skip?: { reason: string; tests: string[] }[];
}

const md5 = (s: string | Uint8Array): string => createHash('md5').update(s).digest('hex');
const sha = (alg: string, s: string): string => createHash(alg).update(s).digest('hex');
const longKey = 'x'.repeat(1025);

async function rejectsWith(p: Promise<unknown>, message: string, name?: string): Promise<void> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, `expected a rejection with "${message}"`).toBeDefined();
  expect((e as Error).message).toBe(message);
  if (name) expect((e as Error).name).toBe(name);
}

function isBody(o: StoreObject | StoreObjectBody | null): o is StoreObjectBody {
  // Not through `body`: reading that getter through the simulator's proxy disturbs the stream.
  return o !== null && typeof (o as { text?: unknown }).text === 'function';
}

async function text(o: StoreObject | StoreObjectBody | null): Promise<string> {
  if (!isBody(o)) throw new Error('expected an object with a body');
  return o.text();
}

export function runBucketConformance(t: ConformanceTarget): void {
  const skipped = new Map<string, string>();
  for (const s of t.skip ?? []) for (const name of s.tests) skipped.set(name, s.reason);
  const test = (name: string, fn: () => Promise<void>): void => {
    if (skipped.has(name)) it.skip(`${name} [declared delta: ${skipped.get(name)}]`, fn);
    else
      it(name, async (ctx) => {
        const gone = (): void => {
          const why = t.unavailable?.();
          if (why !== undefined) ctx.skip(why);
        };
        gone();
        try {
          await fn();
        } catch (e) {
          gone();
          throw e;
        }
      });
  };
  const H = (init: Record<string, string>): Headers => new t.Headers(init);

  describe(`bucket conformance: ${t.name}`, () => {
    beforeAll(async () => {
      await t.setup?.();
      const lines = Object.entries(t.deltas).map(([k, v]) => `  delta ${k} = ${JSON.stringify(v)}`);
      for (const s of t.skip ?? []) lines.push(`  skip (${s.reason}): ${s.tests.join('; ')}`);
      console.log(`[conformance] ${t.name}\n${lines.join('\n')}`);
    }, 60_000);
    afterAll(async () => {
      await t.teardown?.();
    }, 60_000);

    // ---- head
    test('head: missing key is null; existing object has every field', async () => {
      const b = await t.bucket();
      expect(await b.head('missing')).toBeNull();
      const start = Date.now();
      const expiry = new Date('2030-01-01T00:00:00.000Z');
      await b.put('key', 'value', {
        httpMetadata: {
          contentType: 'text/plain',
          contentLanguage: 'en-GB',
          contentDisposition: 'attachment',
          contentEncoding: 'gzip',
          cacheControl: 'max-age=3600',
          cacheExpiry: expiry,
        },
        customMetadata: { key: 'value' },
      });
      const o = await b.head('key');
      expect(o).not.toBeNull();
      expect(o!.key).toBe('key');
      expect(o!.version).toMatch(/^[0-9a-f]{32}$/);
      expect(o!.size).toBe(5);
      expect(o!.etag).toBe('2063c1608d6e0baf80249c42e2be5804');
      expect(o!.httpEtag).toBe('"2063c1608d6e0baf80249c42e2be5804"');
      expect(o!.checksums.toJSON()).toEqual({ md5: '2063c1608d6e0baf80249c42e2be5804' });
      expect(Buffer.from(o!.checksums.md5!).toString('hex')).toBe('2063c1608d6e0baf80249c42e2be5804');
      expect(o!.httpMetadata).toEqual({
        contentType: 'text/plain',
        contentLanguage: 'en-GB',
        contentDisposition: 'attachment',
        contentEncoding: 'gzip',
        cacheControl: 'max-age=3600',
        cacheExpiry: expiry,
      });
      expect(o!.customMetadata).toEqual({ key: 'value' });
      expect(o!.storageClass).toBe(t.deltas.storageClass);
      if (t.deltas.headRange) expect(o!.range).toEqual({ offset: 0, length: 5 });
      else expect(o!.range).toBeUndefined();
      expect(o!.uploaded.getTime()).toBeGreaterThanOrEqual(Math.floor(start / 1000) * 1000 - 1000);
      expect(o!.uploaded.getTime()).toBeLessThanOrEqual(start + 10_000);
      const headers = new t.Headers({ 'x-keep': 'me' });
      expect(o!.writeHttpMetadata(headers)).toBeUndefined();
      expect(headers.get('content-type')).toBe('text/plain');
      expect(headers.get('content-language')).toBe('en-GB');
      expect(headers.get('content-disposition')).toBe('attachment');
      expect(headers.get('content-encoding')).toBe('gzip');
      expect(headers.get('cache-control')).toBe('max-age=3600');
      expect(headers.get('expires')).toBe(expiry.toUTCString());
      expect(headers.get('x-keep')).toBe('me');
    });

    test('head: key over 1024 bytes is rejected', async () => {
      const b = await t.bucket();
      await rejectsWith(b.head(longKey), 'head: The specified object name is not valid. (10020)');
      // 1024 bytes of UTF-8 (512 two-byte characters) is the limit, not 1024 characters.
      await rejectsWith(b.head('é'.repeat(513)), 'head: The specified object name is not valid. (10020)');
      expect(await b.head('é'.repeat(512))).toBeNull();
    });

    // ---- get
    test('get: missing is null; existing has the metadata of head and the body', async () => {
      const b = await t.bucket();
      expect(await b.get('missing')).toBeNull();
      await b.put('key', 'value', { customMetadata: { a: 'b' }, httpMetadata: { contentType: 'text/x' } });
      const o = await b.get('key');
      expect(isBody(o)).toBe(true);
      expect(o!.etag).toBe(md5('value'));
      expect(o!.customMetadata).toEqual({ a: 'b' });
      expect(o!.httpMetadata).toEqual({ contentType: 'text/x' });
      expect(o!.range).toEqual({ offset: 0, length: 5 });
      expect(o!.bodyUsed).toBe(false);
      expect(await o!.text()).toBe('value');
      expect(o!.bodyUsed).toBe(true);
      await rejectsWith(b.get(longKey), 'get: The specified object name is not valid. (10020)');
    });

    test('get: body as arrayBuffer, bytes, json, blob and stream', async () => {
      const b = await t.bucket();
      await b.put('j', '{"a":[1,2]}', { httpMetadata: { contentType: 'application/json' } });
      expect(await (await b.get('j'))!.json()).toEqual({ a: [1, 2] });
      expect(Buffer.from(await (await b.get('j'))!.arrayBuffer()).toString()).toBe('{"a":[1,2]}');
      expect(Buffer.from(await (await b.get('j'))!.bytes()).toString()).toBe('{"a":[1,2]}');
      const blob = await (await b.get('j'))!.blob();
      expect(blob.type).toBe('application/json');
      expect(await blob.text()).toBe('{"a":[1,2]}');
      const o = (await b.get('j'))!;
      const chunks: Uint8Array[] = [];
      for await (const c of o.body as unknown as AsyncIterable<Uint8Array>) chunks.push(c);
      expect(Buffer.concat(chunks).toString()).toBe('{"a":[1,2]}');
      // A body is read once: a second read is a TypeError, as for any fetch body.
      const once = (await b.get('j'))!;
      expect(await once.text()).toBe('{"a":[1,2]}');
      expect(once.bodyUsed).toBe(true);
      const again = await once.arrayBuffer().then(() => undefined, (e: unknown) => e);
      expect((again as Error | undefined)?.name).toBe('TypeError');
    });

    test('get: range objects', async () => {
      const b = await t.bucket();
      await b.put('key', 'value');
      const cases: [object, string, { offset: number; length: number }][] = [
        [{ offset: 3 }, 'ue', { offset: 3, length: 2 }],
        [{ length: 3 }, 'val', { offset: 0, length: 3 }],
        [{ length: 42 }, 'value', { offset: 0, length: 5 }],
        [{ offset: 1, length: 3 }, 'alu', { offset: 1, length: 3 }],
        [{ suffix: 3 }, 'lue', { offset: 2, length: 3 }],
        [{ suffix: 42 }, 'value', { offset: 0, length: 5 }],
        [{}, 'value', { offset: 0, length: 5 }],
      ];
      for (const [range, body, reported] of cases) {
        const o = await b.get('key', { range: range as never });
        expect(await text(o), JSON.stringify(range)).toBe(body);
        expect(o!.range, JSON.stringify(range)).toEqual(reported);
      }
      for (const range of [{ offset: 42 }, { offset: 5 }, { length: 0 }, { suffix: 0 }]) {
        await rejectsWith(b.get('key', { range }), 'get: The requested range is not satisfiable (10039)');
      }
      await b.put('empty', '');
      await rejectsWith(b.get('empty', { range: { offset: 0 } }), 'get: The requested range is not satisfiable (10039)');
    });

    test('get: malformed range objects are rejected before any lookup', async () => {
      const b = await t.bucket();
      await rejectsWith(b.get('nope', { range: { offset: -1 } }), 'Invalid range. Starting offset (-1) must be greater than or equal to 0.', 'RangeError');
      await rejectsWith(b.get('nope', { range: { offset: 1.5 } }), 'Invalid range. Starting offset (1.5) must be an integer, not floating point.', 'RangeError');
      await rejectsWith(b.get('nope', { range: { length: -2 } }), 'Invalid range. Length (-2) must be greater than or equal to 0.', 'RangeError');
      await rejectsWith(b.get('nope', { range: { length: 0.5 } }), 'Invalid range. Length (0.5) must be an integer, not floating point.', 'RangeError');
      await rejectsWith(b.get('nope', { range: { suffix: -3 } }), 'Invalid suffix. Suffix (-3) must be greater than or equal to 0.', 'RangeError');
      await rejectsWith(b.get('nope', { range: { suffix: 2.5 } }), 'Invalid range. Suffix (2.5) must be an integer, not floating point.', 'RangeError');
      await rejectsWith(b.get('nope', { range: { offset: 1, suffix: 2 } as never }), 'Suffix is incompatible with offset.', 'TypeError');
      await rejectsWith(b.get('nope', { range: { length: 1, suffix: 2 } as never }), 'Suffix is incompatible with length.', 'TypeError');
    });

    test('get: Range header', async () => {
      const b = await t.bucket();
      await b.put('az', 'abcdefghijklmnopqrstuvwxyz');
      const cases: [Record<string, string>, string, { offset: number; length: number }][] = [
        [{}, 'abcdefghijklmnopqrstuvwxyz', { offset: 0, length: 26 }],
        [{ range: 'bytes=3-6' }, 'defg', { offset: 3, length: 4 }],
        [{ range: 'bytes=10-' }, 'klmnopqrstuvwxyz', { offset: 10, length: 16 }],
        [{ range: 'bytes=-5' }, 'vwxyz', { offset: 21, length: 5 }],
        [{ range: 'bytes=20-100' }, 'uvwxyz', { offset: 20, length: 6 }],
        // Anything unusable reads the whole object, with no error.
        [{ range: 'bytes=5-6,10-11' }, 'abcdefghijklmnopqrstuvwxyz', { offset: 0, length: 26 }],
        [{ range: 'items=1-2' }, 'abcdefghijklmnopqrstuvwxyz', { offset: 0, length: 26 }],
        [{ range: 'bytes=30-' }, 'abcdefghijklmnopqrstuvwxyz', { offset: 0, length: 26 }],
        [{ range: 'bytes=6-2' }, 'abcdefghijklmnopqrstuvwxyz', { offset: 0, length: 26 }],
        [{ range: 'bytes=-0' }, 'abcdefghijklmnopqrstuvwxyz', { offset: 0, length: 26 }],
        [{ range: 'garbage' }, 'abcdefghijklmnopqrstuvwxyz', { offset: 0, length: 26 }],
      ];
      for (const [h, body, reported] of cases) {
        const o = await b.get('az', { range: H(h) });
        expect(await text(o), JSON.stringify(h)).toBe(body);
        expect(o!.range, JSON.stringify(h)).toEqual(reported);
      }
    });

    test('get: onlyIf as a conditional object', async () => {
      const b = await t.bucket();
      const put = await b.put('key', 'value') as StoreObject;
      const etag = put.etag;
      const past = new Date(Date.now() - 60_000);
      const future = new Date(Date.now() + 60_000);
      const body = async (onlyIf: object): Promise<boolean> => {
        const o = await b.get('key', { onlyIf: onlyIf as never });
        expect(o).not.toBeNull();
        if (!isBody(o)) {
          expect(o!.range).toEqual({ offset: 0, length: 5 });
          expect(o!.etag).toBe(etag);
        }
        return isBody(o);
      };
      expect(await body({ etagMatches: etag })).toBe(true);
      expect(await body({ etagMatches: 'bad' })).toBe(false);
      expect(await body({ etagMatches: '*' })).toBe(true);
      expect(await body({ etagDoesNotMatch: etag })).toBe(false);
      expect(await body({ etagDoesNotMatch: 'bad' })).toBe(true);
      expect(await body({ etagDoesNotMatch: '*' })).toBe(false);
      expect(await body({ uploadedBefore: future })).toBe(true);
      expect(await body({ uploadedBefore: past })).toBe(false);
      expect(await body({ uploadedAfter: future })).toBe(false);
      expect(await body({ uploadedAfter: past })).toBe(true);
      // If-Match overrides If-Unmodified-Since; If-None-Match overrides If-Modified-Since (RFC 7232 s.6).
      expect(await body({ etagMatches: etag, uploadedBefore: past })).toBe(true);
      expect(await body({ etagDoesNotMatch: 'other', uploadedAfter: future })).toBe(true);
      expect(await body({ etagMatches: etag, etagDoesNotMatch: etag })).toBe(false);
      expect(await body({ etagMatches: etag, uploadedAfter: future })).toBe(false);
      expect(await body({ etagDoesNotMatch: 'other', uploadedBefore: past })).toBe(false);
      // secondsGranularity floors both times to whole seconds, so a date in the upload's second fails.
      const uploaded = put.uploaded.getTime();
      const sameSecondEarlier = new Date(Math.floor(uploaded / 1000) * 1000);
      expect(await body({ uploadedAfter: new Date(uploaded - 1) })).toBe(true);
      if (uploaded % 1000 !== 0) {
        expect(await body({ uploadedAfter: sameSecondEarlier, secondsGranularity: true })).toBe(false);
      }
      expect(await body({ uploadedAfter: new Date(uploaded) })).toBe(false);
      expect(await body({ uploadedBefore: new Date(uploaded) })).toBe(false);
      expect(await b.get('missing', { onlyIf: { etagMatches: etag } })).toBeNull();
    });

    test('get: onlyIf as Headers (If-Match strong, If-None-Match weak, dates in seconds)', async () => {
      const b = await t.bucket();
      const put = await b.put('key', 'value') as StoreObject;
      const etag = put.etag;
      const body = async (h: Record<string, string>): Promise<boolean> => isBody(await b.get('key', { onlyIf: H(h) }));
      expect(await body({ 'if-match': `"${etag}"` })).toBe(true);
      expect(await body({ 'if-match': `"other", "${etag}"` })).toBe(true);
      expect(await body({ 'if-match': `W/"${etag}"` })).toBe(false);
      expect(await body({ 'if-match': '*' })).toBe(true);
      expect(await body({ 'if-match': '"nope"' })).toBe(false);
      expect(await body({ 'if-none-match': `"${etag}"` })).toBe(false);
      expect(await body({ 'if-none-match': `W/"${etag}"` })).toBe(false);
      expect(await body({ 'if-none-match': 'W/"other"' })).toBe(true);
      expect(await body({ 'if-none-match': '*' })).toBe(false);
      expect(await body({ 'if-none-match': '"a", , "b"' })).toBe(true);
      const uploadedSecond = new Date(Math.floor(put.uploaded.getTime() / 1000) * 1000);
      expect(await body({ 'if-modified-since': uploadedSecond.toUTCString() })).toBe(false);
      expect(await body({ 'if-modified-since': new Date(uploadedSecond.getTime() - 1000).toUTCString() })).toBe(true);
      expect(await body({ 'if-unmodified-since': new Date(uploadedSecond.getTime() + 1000).toUTCString() })).toBe(true);
      expect(await body({ 'if-unmodified-since': uploadedSecond.toUTCString() })).toBe(false);
      // If-Range is not supported and ignored.
      expect(await body({ 'if-range': '"nope"' })).toBe(true);
    });

    test('get/put: malformed conditional headers and quoted etags are rejected', async () => {
      const b = await t.bucket();
      await b.put('key', 'value');
      await rejectsWith(b.get('key', { onlyIf: { etagMatches: '"quoted"' } }), 'Conditional ETag should not be wrapped in quotes ("quoted").', 'TypeError');
      await rejectsWith(b.get('key', { onlyIf: { etagDoesNotMatch: '"q"' } }), 'Conditional ETag should not be wrapped in quotes ("q").', 'TypeError');
      await rejectsWith(b.put('key', 'new', { onlyIf: { etagMatches: '"q"' } }), 'Conditional ETag should not be wrapped in quotes ("q").', 'TypeError');
      await rejectsWith(b.get('key', { onlyIf: H({ 'if-match': 'abc' }) }), 'Invalid ETag in if-match header');
      await rejectsWith(b.get('key', { onlyIf: H({ 'if-none-match': 'abc' }) }), 'Invalid ETag in if-none-match header');
      await rejectsWith(b.get('key', { onlyIf: H({ 'if-match': '"abc' }) }), 'Unclosed double quote for Etag');
      await rejectsWith(b.get('key', { onlyIf: H({ 'if-match': 'W"abc"' }) }), 'Weak etags must start with W/ and their value must be quoted');
      await rejectsWith(
        b.get('key', { onlyIf: H({ 'if-match': '"a" "b"' }) }),
        'Comma was expected to separate etags. Encountered a double quote character \'"\' instead. This would otherwise indicate the start of a new strong etag.',
      );
      await rejectsWith(
        b.put('key', 'new', { onlyIf: H({ 'if-none-match': '"a" *' }) }),
        "Comma was expected to separate etags. Encountered a wildcard character '*' instead.",
      );
      expect(await text(await b.get('key'))).toBe('value');
    });

    test('get: etag lists are read token by token (an entry starting with W must be W/"…")', async () => {
      const b = await t.bucket();
      const etag = ((await b.put('key', 'value')) as StoreObject).etag;
      const weak = 'Weak etags must start with W/ and their value must be quoted';
      const invalid = 'Invalid ETag in if-match header';
      const commaW =
        "Comma was expected to separate etags. Encountered a weak quotation character 'W' instead. This would otherwise indicate the start of a new weak etag.";
      // 'body' = the condition held, 'meta' = it failed; any other value is the error message.
      const cases: [string, string][] = [
        ['W/abc', weak],
        [' W/abc', weak],
        ['Wabc', weak],
        ['W', weak],
        ['W/ "abc"', weak],
        ['W*', weak],
        ['W/x, *', weak],
        [`"a", W/abc`, weak],
        [`"x" , W/`, weak],
        [`"a" W`, commaW],
        ['w/"abc"', invalid],
        ['xW', invalid],
        [`abc W/"x"`, invalid],
        [`x, W/"a"`, invalid],
        [`/"x"`, invalid],
        ['a*', invalid],
        [`W/"abc" x`, 'meta'],
        ['*W', 'body'],
        [`"${etag}" x`, 'body'],
        [`"${etag}"x, "nope"`, 'body'],
      ];
      const seen: [string, string][] = [];
      for (const [header] of cases) {
        try {
          seen.push([header, isBody(await b.get('key', { onlyIf: H({ 'if-match': header }) })) ? 'body' : 'meta']);
        } catch (e) {
          expect((e as Error).name).toBe('Error');
          seen.push([header, (e as Error).message]);
        }
      }
      expect(seen).toEqual(cases);
      await rejectsWith(b.put('key', 'new', { onlyIf: H({ 'if-none-match': 'W/abc' }) }), weak, 'Error');
      expect(await text(await b.get('key'))).toBe('value');
    });

    test('conditions: combinations, missing objects and seconds granularity (the validator fixture)', async () => {
      const b = await t.bucket();
      // Land the upload in the middle of a second, so ±250 ms stays inside it (needed by the
      // secondsGranularity cases below, which compare whole seconds).
      let put = (await b.put('key', 'value')) as StoreObject;
      for (let i = 0; i < 5 && !(put.uploaded.getTime() % 1000 >= 250 && put.uploaded.getTime() % 1000 < 750); i++) {
        await new Promise((r) => setTimeout(r, (1500 - (Date.now() % 1000)) % 1000));
        put = (await b.put('key', 'value')) as StoreObject;
      }
      const etag = put.etag;
      const uploaded = put.uploaded.getTime();
      const past = new Date(uploaded - 30_000);
      const future = new Date(uploaded + 30_000);
      const holds = async (onlyIf: object): Promise<boolean> => isBody(await b.get('key', { onlyIf: onlyIf as never }));
      const falseCombos: [string, object][] = [
        ['match and doesNotMatch the same etag', { etagMatches: etag, etagDoesNotMatch: etag }],
        ['match, after(future)', { etagMatches: etag, uploadedAfter: future }],
        ['match, after(future), before(past)', { etagMatches: etag, uploadedAfter: future, uploadedBefore: past }],
        ['doesNotMatch(other), before(past)', { etagDoesNotMatch: 'other', uploadedBefore: past }],
        ['doesNotMatch(other), after(future), before(past)', { etagDoesNotMatch: 'other', uploadedAfter: future, uploadedBefore: past }],
        ['match(bad), doesNotMatch(bad), after(past), before(future)', { etagMatches: 'bad', etagDoesNotMatch: 'bad', uploadedAfter: past, uploadedBefore: future }],
      ];
      const trueCombos: [string, object][] = [
        ['match, doesNotMatch(other)', { etagMatches: etag, etagDoesNotMatch: 'other' }],
        ['match, before(past)', { etagMatches: etag, uploadedBefore: past }],
        ['doesNotMatch(other), after(future)', { etagDoesNotMatch: 'other', uploadedAfter: future }],
        ['all four, etags overriding dates', { etagMatches: etag, etagDoesNotMatch: 'other', uploadedAfter: future, uploadedBefore: past }],
        ['before(future), doesNotMatch(other), after(future)', { uploadedBefore: future, etagDoesNotMatch: 'other', uploadedAfter: future }],
        ['after(past), match, before(past)', { uploadedAfter: past, etagMatches: etag, uploadedBefore: past }],
      ];
      for (const [name, c] of falseCombos) expect(await holds(c), name).toBe(false);
      for (const [name, c] of trueCombos) expect(await holds(c), name).toBe(true);

      // A missing object passes only when neither etagMatches nor uploadedAfter is given (checked
      // through put, since get answers null for a missing key whatever the condition).
      const missing: [string, object, boolean][] = [
        ['match', { etagMatches: etag }, false],
        ['after', { uploadedAfter: past }, false],
        ['match, after', { etagMatches: etag, uploadedAfter: past }, false],
        ['doesNotMatch', { etagDoesNotMatch: etag }, true],
        ['before', { uploadedBefore: future }, true],
        ['doesNotMatch, before', { etagDoesNotMatch: etag, uploadedBefore: future }, true],
        ['match, before', { etagMatches: etag, uploadedBefore: future }, false],
        ['doesNotMatch, after', { etagDoesNotMatch: etag, uploadedAfter: past }, false],
      ];
      for (const [i, [name, c, stored]] of missing.entries()) {
        const r = await b.put(`missing-${i}`, 'v', { onlyIf: c as never });
        expect(r !== null, `missing object: ${name}`).toBe(stored);
        expect((await b.head(`missing-${i}`)) !== null, `missing object: ${name}`).toBe(stored);
      }
      expect(await b.get('absent', { onlyIf: { etagDoesNotMatch: etag } })).toBeNull();

      const ms = uploaded % 1000;
      expect(await holds({ uploadedAfter: new Date(uploaded - 250) })).toBe(true);
      expect(await holds({ uploadedBefore: new Date(uploaded + 250) })).toBe(true);
      if (ms >= 250 && ms < 750) {
        expect(await holds({ uploadedAfter: new Date(uploaded - 250), secondsGranularity: true })).toBe(false);
        expect(await holds({ uploadedBefore: new Date(uploaded + 250), secondsGranularity: true })).toBe(false);
      }
      expect(await holds({ uploadedAfter: new Date(uploaded - 1250), secondsGranularity: true })).toBe(true);
      expect(await holds({ uploadedBefore: new Date(uploaded + 1250), secondsGranularity: true })).toBe(true);
    });

    // ---- put
    test('put: returns the object; empty values; overwrite', async () => {
      const b = await t.bucket();
      const o = await b.put('key', 'value', { customMetadata: { n: 1 as unknown as string } }) as StoreObject;
      expect(o.key).toBe('key');
      expect(o.size).toBe(5);
      expect(o.etag).toBe(md5('value'));
      expect(o.range).toBeUndefined();
      expect(o.checksums.toJSON()).toEqual({ md5: md5('value') });
      expect(o.customMetadata).toEqual({ n: '1' });
      expect(o.httpMetadata).toEqual({});
      expect(o.storageClass).toBe(t.deltas.storageClass);
      const e = await b.put('empty', '') as StoreObject;
      expect(e.size).toBe(0);
      expect(await text(await b.get('empty'))).toBe('');
      const n = await b.put('null', null) as StoreObject;
      expect(n.size).toBe(0);
      expect(n.etag).toBe('d41d8cd98f00b204e9800998ecf8427e');
      const o2 = await b.put('key', 'second') as StoreObject;
      expect(o2.version).not.toBe(o.version);
      expect(await text(await b.get('key'))).toBe('second');
      expect((await b.head('key'))!.customMetadata).toEqual({});
      await rejectsWith(b.put(longKey, 'x'), 'put: The specified object name is not valid. (10020)');
    });

    test('put: every value type', async () => {
      const b = await t.bucket();
      const bytes = new TextEncoder().encode('0123456789');
      await b.put('ab', bytes.buffer.slice(0));
      await b.put('view', bytes.subarray(2, 5));
      await b.put('dv', new DataView(bytes.buffer, 1, 2));
      await b.put('blob', new Blob(['blob', '-', 'value']));
      await b.put('str', 'ünïcødé');
      expect(await text(await b.get('ab'))).toBe('0123456789');
      expect(await text(await b.get('view'))).toBe('234');
      expect(await text(await b.get('dv'))).toBe('12');
      expect(await text(await b.get('blob'))).toBe('blob-value');
      expect(await text(await b.get('str'))).toBe('ünïcødé');
      expect((await b.head('str'))!.size).toBe(Buffer.byteLength('ünïcødé'));
    });

    test('put: a stream of unknown length', async () => {
      const b = await t.bucket();
      const chunks = ['abc', 'def', 'x'.repeat(100_000)];
      const stream = new ReadableStream<Uint8Array>({
        pull(c) {
          const next = chunks.shift();
          if (next === undefined) c.close();
          else c.enqueue(new TextEncoder().encode(next));
        },
      });
      const o = (await b.put('s', stream)) as StoreObject;
      expect(o.size).toBe(100_006);
      expect(o.etag).toBe(md5('abcdef' + 'x'.repeat(100_000)));
      expect(await text(await b.get('s', { range: { length: 6 } }))).toBe('abcdef');
    });

    test('put: a stream that errors half-way stores nothing and keeps the old value', async () => {
      const b = await t.bucket();
      await b.put('s', 'original');
      for (const size of [10, 200_000]) {
        let sent = 0;
        const stream = new ReadableStream<Uint8Array>({
          pull(c) {
            if (sent >= size) {
              c.error(new Error('boom'));
              return;
            }
            sent += 5000;
            c.enqueue(new Uint8Array(5000).fill(65));
          },
        });
        await expect(b.put('s', stream)).rejects.toThrow();
        expect(await text(await b.get('s'))).toBe('original');
        await expect(b.put('new-key', new ReadableStream({ pull: (c) => c.error(new Error('boom')) }))).rejects.toThrow();
        expect(await b.head('new-key')).toBeNull();
      }
      const listed = await b.list();
      expect(listed.objects.map((o) => o.key)).toEqual(['s']);
    });

    test('put: checksums verified and stored', async () => {
      const b = await t.bucket();
      const v = 'value';
      expect((await b.put('md5', v, { md5: md5(v) })).checksums.toJSON()).toEqual({ md5: md5(v) });
      expect((await b.put('md5bin', v, { md5: Uint8Array.from(Buffer.from(md5(v), 'hex')).buffer })).checksums.toJSON()).toEqual({ md5: md5(v) });
      expect((await b.put('sha1', v, { sha1: sha('sha1', v) })).checksums.toJSON()).toEqual({ md5: md5(v), sha1: sha('sha1', v) });
      const up = await b.put('sha256', v, { sha256: sha('sha256', v).toUpperCase() });
      expect(up.checksums.toJSON()).toEqual({ md5: md5(v), sha256: sha('sha256', v) });
      expect((await b.head('sha256'))!.checksums.toJSON()).toEqual({ md5: md5(v), sha256: sha('sha256', v) });
      expect((await b.put('sha384', v, { sha384: sha('sha384', v) })).checksums.toJSON()).toEqual({ md5: md5(v), sha384: sha('sha384', v) });
      expect((await b.put('sha512', v, { sha512: sha('sha512', v) })).checksums.toJSON()).toEqual({ md5: md5(v), sha512: sha('sha512', v) });
      // A later put without the hash drops it.
      expect((await b.put('sha256', v))!.checksums.toJSON()).toEqual({ md5: md5(v) });
    });

    test('put: wrong checksums are rejected and leave data as it was', async () => {
      const b = await t.bucket();
      await b.put('key', 'original');
      const v = 'value';
      const algs: [string, string, string][] = [
        ['md5', 'MD5', md5(v)],
        ['sha1', 'SHA-1', sha('sha1', v)],
        ['sha256', 'SHA-256', sha('sha256', v)],
        ['sha384', 'SHA-384', sha('sha384', v)],
        ['sha512', 'SHA-512', sha('sha512', v)],
      ];
      for (const [field, name, actual] of algs) {
        const wrong = '0'.repeat(actual.length);
        await rejectsWith(
          b.put('key', v, { [field]: wrong }),
          `put: The ${name} checksum you specified did not match what we received.\nYou provided a ${name} checksum with value: ${wrong}\nActual ${name} was: ${actual} (10037)`,
        );
        await rejectsWith(b.put('fresh', v, { [field]: wrong }), `put: The ${name} checksum you specified did not match what we received.\nYou provided a ${name} checksum with value: ${wrong}\nActual ${name} was: ${actual} (10037)`);
      }
      expect(await text(await b.get('key'))).toBe('original');
      expect(await b.head('fresh')).toBeNull();
    });

    test('put: malformed checksum options', async () => {
      const b = await t.bucket();
      await rejectsWith(b.put('k', 'v', { md5: 'abc' }), 'MD5 is 32 hex characters, not 3', 'TypeError');
      await rejectsWith(b.put('k', 'v', { md5: new Uint8Array(3) }), 'MD5 is 16 bytes, not 3', 'TypeError');
      await rejectsWith(b.put('k', 'v', { md5: 'z'.repeat(32) }), "Provided MD5 wasn't a valid hex string", 'TypeError');
      await rejectsWith(b.put('k', 'v', { sha1: 'a'.repeat(41) }), 'SHA-1 is 40 hex characters, not 41', 'TypeError');
      await rejectsWith(b.put('k', 'v', { sha256: new Uint8Array(31) }), 'SHA-256 is 32 bytes, not 31', 'TypeError');
      await rejectsWith(b.put('k', 'v', { sha384: 'a' }), 'SHA-384 is 96 hex characters, not 1', 'TypeError');
      await rejectsWith(b.put('k', 'v', { sha512: 'g'.repeat(128) }), "Provided SHA-512 wasn't a valid hex string", 'TypeError');
      await rejectsWith(b.put('k', 'v', { md5: md5('v'), sha1: sha('sha1', 'v') }), 'You cannot specify multiple hashing algorithms.', 'TypeError');
      expect(await b.head('k')).toBeNull();
    });

    test('put: onlyIf; a failed condition stores nothing', async () => {
      const b = await t.bucket();
      const first = await b.put('key', '1') as StoreObject;
      const past = new Date(Date.now() - 60_000);
      const future = new Date(Date.now() + 60_000);
      const attempt = async (onlyIf: object, value: string): Promise<boolean> => {
        const r = await b.put('key', value, { onlyIf: onlyIf as never });
        const now = await text(await b.get('key'));
        if (r === null) return false;
        expect(now).toBe(value);
        return true;
      };
      expect(await attempt({ etagMatches: 'bad' }, '2')).toBe(false);
      expect(await text(await b.get('key'))).toBe('1');
      expect(await attempt({ etagMatches: first.etag }, '2')).toBe(true);
      expect(await attempt({ etagDoesNotMatch: md5('2') }, '3')).toBe(false);
      expect(await attempt({ etagDoesNotMatch: 'other' }, '3')).toBe(true);
      expect(await attempt({ uploadedBefore: past }, '4')).toBe(false);
      expect(await attempt({ uploadedBefore: future }, '4')).toBe(true);
      expect(await attempt({ uploadedAfter: future }, '5')).toBe(false);
      expect(await attempt({ uploadedAfter: past }, '5')).toBe(true);
      expect(await b.put('nokey', 'x', { onlyIf: { etagMatches: md5('x') } })).toBeNull();
      expect(await b.head('nokey')).toBeNull();
      // Create-if-absent: If-None-Match * passes only when the key does not exist.
      expect(await b.put('fresh', 'x', { onlyIf: H({ 'if-none-match': '*' }) })).not.toBeNull();
      expect(await b.put('fresh', 'y', { onlyIf: H({ 'if-none-match': '*' }) })).toBeNull();
      expect(await text(await b.get('fresh'))).toBe('x');
    });

    test('put: custom metadata size limit', async () => {
      const b = await t.bucket();
      const tooLarge = 'put: Your metadata headers exceed the maximum allowed metadata size. (10012)';
      await b.put('a', 'v', { customMetadata: { key: 'x'.repeat(2045) } });
      await rejectsWith(b.put('b', 'v', { customMetadata: { key: 'x'.repeat(2046) } }), tooLarge);
      await b.put('c', 'v', { customMetadata: { hi: 'x'.repeat(2046) } });
      await b.put('d', 'v', { customMetadata: { key: '🙂'.repeat(511) } });
      await b.put('e', 'v', { customMetadata: { key1: '🙂'.repeat(511) } });
      await rejectsWith(b.put('f', 'v', { customMetadata: { key12: '🙂'.repeat(511) } }), tooLarge);
      await rejectsWith(b.put('a', 'new', { customMetadata: { key: '🙂'.repeat(512) } }), tooLarge);
      expect(await b.head('b')).toBeNull();
      expect(await text(await b.get('a'))).toBe('v');
    });

    test('put: httpMetadata from Headers', async () => {
      const b = await t.bucket();
      const o = await b.put('k', 'v', {
        httpMetadata: H({
          'content-type': 'text/html',
          'content-encoding': 'br',
          'content-disposition': 'inline',
          'content-language': 'fr',
          'cache-control': 'no-store',
          expires: 'Wed, 21 Oct 2037 07:28:00 GMT',
          'x-other': 'ignored',
        }),
      });
      const want = {
        contentType: 'text/html',
        contentEncoding: 'br',
        contentDisposition: 'inline',
        contentLanguage: 'fr',
        cacheControl: 'no-store',
        cacheExpiry: new Date('Wed, 21 Oct 2037 07:28:00 GMT'),
      };
      expect(o.httpMetadata).toEqual(want);
      expect((await b.head('k'))!.httpMetadata).toEqual(want);
    });

    test('put: storage class', async () => {
      const b = await t.bucket();
      const o = (await b.put('ia', 'v', { storageClass: 'InfrequentAccess' })) as StoreObject;
      if (t.deltas.storageClass !== '') expect(o.storageClass).toBe('InfrequentAccess');
      if (t.deltas.rejectsUnknownStorageClass) {
        await expect(b.put('bad', 'v', { storageClass: 'Glacier' })).rejects.toThrow(/\(10029\)$/);
        expect(await b.head('bad')).toBeNull();
      }
    });

    test('put: copy the body of a get into a new object', async () => {
      const b = await t.bucket();
      await b.put('src', '0123456789');
      const copy = async (range: object | undefined, want: string): Promise<void> => {
        const o = await b.get('src', range ? { range: range as never } : {});
        if (!isBody(o)) throw new Error('no body');
        await b.put('dst', o.body);
        expect(await text(await b.get('dst'))).toBe(want);
      };
      await copy(undefined, '0123456789');
      await copy({ offset: 1, length: 4 }, '1234');
      await copy({ length: 3 }, '012');
      await copy({ suffix: 5 }, '56789');
      await copy(H({ range: 'bytes=0-5' }), '012345');
    });

    // ---- delete
    test('delete: one key, many keys, missing keys, bad keys', async () => {
      const b = await t.bucket();
      await b.delete('missing');
      await b.put('key', 'v');
      await b.delete('key');
      expect(await b.head('key')).toBeNull();
      await b.put('key1', '1');
      await b.put('key2', '2');
      await b.put('key3', '3');
      await b.delete(['key1', 'key200', 'key3']);
      expect(await b.head('key1')).toBeNull();
      expect(await b.head('key2')).not.toBeNull();
      expect(await b.head('key3')).toBeNull();
      await rejectsWith(b.delete(longKey), 'delete: The specified object name is not valid. (10020)');
      await rejectsWith(b.delete(['key2', longKey]), 'delete: The specified object name is not valid. (10020)');
      expect(await b.head('key2')).not.toBeNull();
    });

    // ---- list
    test('list: code-point order, prefix, empty results, bad cursor', async () => {
      const b = await t.bucket();
      expect(await b.list()).toEqual({ objects: [], delimitedPrefixes: [], truncated: false });
      for (const k of ['key3', 'key1', 'key2', ', ', '!', '\u{ffff}', '\u{1f600}', 'section1/a', 'section2/b']) await b.put(k, k);
      const all = await b.list();
      // U+FFFF sorts before U+1F600 in code-point (UTF-8 byte) order, unlike JS string comparison.
      expect(all.objects.map((o) => o.key)).toEqual(['!', ', ', 'key1', 'key2', 'key3', 'section1/a', 'section2/b', '\u{ffff}', '\u{1f600}']);
      expect(all.truncated).toBe(false);
      expect('cursor' in all && all.cursor !== undefined).toBe(false);
      expect((await b.list({ prefix: 'section1' })).objects.map((o) => o.key)).toEqual(['section1/a']);
      expect((await b.list({ prefix: 'nope' })).objects).toEqual([]);
      const b2 = await t.bucket();
      for (const k of ['key1', 'key2']) await b2.put(k, k);
      // A cursor is opaque but decoded leniently: garbage is no error.
      expect((await b2.list({ cursor: 'bad' })).objects).toEqual([]);
    });

    test('list: limit and cursor paging, also with a prefix', async () => {
      const b = await t.bucket();
      for (const k of ['key1', 'key2', 'key3', 'other']) await b.put(k, k);
      for (const prefix of [undefined, 'key']) {
        const p1 = await b.list({ limit: 2, ...(prefix ? { prefix } : {}) });
        expect(p1.objects.map((o) => o.key)).toEqual(['key1', 'key2']);
        expect(p1.truncated).toBe(true);
        if (!p1.truncated) throw new Error('unreachable');
        const p2 = await b.list({ limit: 2, cursor: p1.cursor, ...(prefix ? { prefix } : {}) });
        expect(p2.objects.map((o) => o.key)).toEqual(prefix ? ['key3'] : ['key3', 'other']);
        expect(p2.truncated).toBe(false);
      }
      const v1 = await b.list({ limit: 1 });
      if (!v1.truncated) throw new Error('expected truncation');
      // Keys written during paging behind the cursor are not seen; ahead of it they are.
      await b.put('key0', 'late');
      await b.put('zzz', 'late');
      const v2 = await b.list({ limit: 3, cursor: v1.cursor });
      expect(v2.objects.map((o) => o.key)).toEqual(['key2', 'key3', 'other']);
      if (!v2.truncated) throw new Error('expected truncation');
      expect((await b.list({ cursor: v2.cursor })).objects.map((o) => o.key)).toEqual(['zzz']);
    });

    test('list: startAfter', async () => {
      const b = await t.bucket();
      for (const k of ['key1', 'key2', 'key3', 'key4']) await b.put(k, k);
      expect((await b.list({ startAfter: 'key2' })).objects.map((o) => o.key)).toEqual(['key3', 'key4']);
      for (const [startAfter, pages] of [
        ['key1', [['key2', 'key3'], ['key4']]],
        ['key', [['key1', 'key2'], ['key3', 'key4']]],
      ] as const) {
        const p1 = await b.list({ startAfter, limit: 2 });
        expect(p1.objects.map((o) => o.key)).toEqual(pages[0]);
        if (!p1.truncated) throw new Error('expected truncation');
        const p2 = await b.list({ startAfter, limit: 2, cursor: p1.cursor });
        expect(p2.objects.map((o) => o.key)).toEqual(pages[1]);
      }
    });

    test('list: listed objects and a 1024-byte key', async () => {
      const b = await t.bucket();
      const key = 'k'.repeat(1024);
      await b.put(key, 'value', { httpMetadata: { contentType: 'text/plain' }, customMetadata: { a: 'b' } });
      const { objects } = await b.list({ prefix: key });
      expect(objects).toHaveLength(1);
      const o = objects[0]!;
      expect(o.key).toBe(key);
      expect(o.version).toMatch(/^[0-9a-f]{32}$/);
      expect(o.size).toBe(5);
      expect(o.etag).toBe(md5('value'));
      expect(o.httpEtag).toBe(`"${md5('value')}"`);
      expect(o.checksums.toJSON()).toEqual({ md5: md5('value') });
      expect(o.range).toBeUndefined();
      expect(o.uploaded).toBeInstanceOf(Date);
      if (t.deltas.unincludedMetadata === 'empty') {
        expect(o.httpMetadata).toEqual({});
        expect(o.customMetadata).toEqual({});
      } else {
        expect(o.httpMetadata).toBeUndefined();
        expect(o.customMetadata).toBeUndefined();
        expect(() => o.writeHttpMetadata(new t.Headers())).toThrow(
          `HTTP metadata unknown for key \`${key}\`. Did you forget to add 'httpMetadata' to \`include\` when listing?`,
        );
      }
    });

    test('list: limit out of range and bad include values', async () => {
      const b = await t.bucket();
      for (const limit of [0, 1001]) {
        await rejectsWith(b.list({ limit }), 'list: MaxKeys params must be positive integer <= 1000. (10022)');
      }
      await b.put('a', 'a');
      await b.put('b', 'b');
      expect((await b.list({ limit: 1.5 })).objects.map((o) => o.key)).toEqual(['a']);
      await rejectsWith(b.list({ include: ['bogus' as never] }), 'Unsupported include value bogus', 'RangeError');
    });

    test('list: include', async () => {
      const b = await t.bucket();
      await b.put('k', 'v', { httpMetadata: { contentType: 'text/plain' }, customMetadata: { a: 'b' } });
      const get = async (include?: ('httpMetadata' | 'customMetadata')[]): Promise<StoreObject> =>
        (await b.list(include ? { include } : {})).objects[0]!;
      const none = await get();
      if (t.deltas.unincludedMetadata === 'empty') {
        expect(none.httpMetadata).toEqual({});
        expect(none.customMetadata).toEqual({});
      } else {
        expect(none.httpMetadata).toBeUndefined();
        expect(none.customMetadata).toBeUndefined();
      }
      const http = await get(['httpMetadata']);
      expect(http.httpMetadata).toEqual({ contentType: 'text/plain' });
      if (t.deltas.unincludedMetadata === 'absent') expect(http.customMetadata).toBeUndefined();
      const custom = await get(['customMetadata']);
      expect(custom.customMetadata).toEqual({ a: 'b' });
      if (t.deltas.unincludedMetadata === 'absent') expect(custom.httpMetadata).toBeUndefined();
      const both = await get(['httpMetadata', 'customMetadata']);
      expect(both.httpMetadata).toEqual({ contentType: 'text/plain' });
      expect(both.customMetadata).toEqual({ a: 'b' });
    });

    test('list: delimiter', async () => {
      const b = await t.bucket();
      const keys = ['dir0/file0', 'dir0/file1', 'dir0/sub0/file2', 'dir0/sub0/file3', 'dir0/sub1/file4', 'dir0/sub1/file5', 'dir1/file6', 'dir1/file7', 'file8', 'file9'];
      for (const k of keys) await b.put(k, k);
      const names = async (o: object): Promise<[string[], string[], boolean]> => {
        const r = await b.list(o);
        return [r.objects.map((x) => x.key), r.delimitedPrefixes, r.truncated];
      };
      expect(await names({})).toEqual([keys, [], false]);
      expect(await names({ delimiter: '' })).toEqual([keys, [], false]);
      expect(await names({ delimiter: 'file8' })).toEqual([keys.filter((k) => k !== 'file8'), ['file8'], false]);
      expect(await names({ prefix: 'dir1/', delimiter: 'file6' })).toEqual([['dir1/file7'], ['dir1/file6'], false]);
      expect(await names({ delimiter: '/' })).toEqual([['file8', 'file9'], ['dir0/', 'dir1/'], false]);
      expect(await names({ prefix: 'dir0/', delimiter: '/' })).toEqual([['dir0/file0', 'dir0/file1'], ['dir0/sub0/', 'dir0/sub1/'], false]);
      expect(await names({ prefix: 'dir0', delimiter: '/' })).toEqual([[], ['dir0/'], false]);
      const p1 = await b.list({ prefix: 'dir0/', delimiter: '/', limit: 2 });
      expect([p1.objects.map((x) => x.key), p1.delimitedPrefixes, p1.truncated]).toEqual([['dir0/file0', 'dir0/file1'], [], true]);
      if (!p1.truncated) throw new Error('unreachable');
      const p2 = await b.list({ prefix: 'dir0/', delimiter: '/', limit: 2, cursor: p1.cursor });
      expect([p2.objects.map((x) => x.key), p2.delimitedPrefixes, p2.truncated]).toEqual([[], ['dir0/sub0/', 'dir0/sub1/'], false]);
      // A group counts as one entry, and paging past it skips every key inside it.
      const g1 = await b.list({ delimiter: '/', limit: 1 });
      expect(g1.delimitedPrefixes).toEqual(['dir0/']);
      if (!g1.truncated) throw new Error('expected truncation');
      const g2 = await b.list({ delimiter: '/', limit: 1, cursor: g1.cursor });
      expect(g2.delimitedPrefixes).toEqual(['dir1/']);
      // A multi-character delimiter.
      expect(await names({ delimiter: 'sub' })).toEqual([['dir0/file0', 'dir0/file1', 'dir1/file6', 'dir1/file7', 'file8', 'file9'], ['dir0/sub'], false]);
    });

    test('list: paging passes the empty key and a one-key group (limit, delimiter, prefix, startAfter)', async () => {
      const b = await t.bucket();
      // 'c/' is a group whose only key is the group itself.
      for (const k of ['', 'a', 'b/c', 'b/d', 'c/', '\u{1f600}']) await b.put(k, k);
      const pages = async (o: { limit: number; delimiter?: string; prefix?: string; startAfter?: string }): Promise<string[][]> => {
        const out: string[][] = [];
        let cursor: string | undefined;
        for (let n = 0; n < 10; n++) {
          const r = await b.list({ ...o, ...(cursor === undefined ? {} : { cursor }) });
          out.push([...r.objects.map((x) => x.key), ...r.delimitedPrefixes.map((p) => `${p}*`)]);
          if (!r.truncated) return out;
          expect(typeof r.cursor).toBe('string');
          cursor = r.cursor;
        }
        throw new Error(`paging did not end: ${JSON.stringify(out)}`);
      };
      expect(await pages({ limit: 1 })).toEqual([[''], ['a'], ['b/c'], ['b/d'], ['c/'], ['\u{1f600}']]);
      expect(await pages({ limit: 2 })).toEqual([['', 'a'], ['b/c', 'b/d'], ['c/', '\u{1f600}']]);
      expect(await pages({ limit: 1, delimiter: '/' })).toEqual([[''], ['a'], ['b/*'], ['c/*'], ['\u{1f600}']]);
      expect(await pages({ limit: 2, delimiter: '/', prefix: '' })).toEqual([['', 'a'], ['b/*', 'c/*'], ['\u{1f600}']]);
      expect(await pages({ limit: 1, startAfter: '' })).toEqual([['a'], ['b/c'], ['b/d'], ['c/'], ['\u{1f600}']]);
      expect(await pages({ limit: 1000, startAfter: '' })).toEqual([['a', 'b/c', 'b/d', 'c/', '\u{1f600}']]);
      // The empty key's cursor, given back, starts after it (and only after it).
      const first = await b.list({ limit: 1 });
      if (!first.truncated) throw new Error('expected truncation');
      expect((await b.list({ cursor: first.cursor })).objects.map((x) => x.key)).toEqual(['a', 'b/c', 'b/d', 'c/', '\u{1f600}']);
    });

    // ---- misc
    test('misc: the empty key works everywhere', async () => {
      const b = await t.bucket();
      await b.put('', 'empty key');
      expect((await b.head(''))!.size).toBe(9);
      expect(await text(await b.get(''))).toBe('empty key');
      expect((await b.list()).objects.map((o) => o.key)).toEqual(['']);
      await b.delete('');
      expect(await b.head('')).toBeNull();
    });

    test('misc: many concurrent writers and readers see every resolved write', async () => {
      const b = await t.bucket();
      await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const key = `c/${String(i).padStart(2, '0')}`;
          for (let v = 0; v < 3; v++) {
            const put = (await b.put(key, `${i}:${v}`))!;
            const read = await b.get(key);
            // Another writer may not touch this key, so a read after a resolved put sees exactly it.
            expect(read!.etag).toBe(put.etag);
            expect(await text(read)).toBe(`${i}:${v}`);
          }
        }),
      );
      const listed = await b.list({ prefix: 'c/' });
      expect(listed.objects).toHaveLength(40);
      await Promise.all(listed.objects.map((o) => b.delete(o.key)));
      expect((await b.list({ prefix: 'c/' })).objects).toHaveLength(0);
    });

    test('misc: concurrent conditional writes of one key: exactly one create-if-absent and one compare-and-swap win', async () => {
      const b = await t.bucket();
      const n = 24;
      const created = await Promise.all(Array.from({ length: n }, (_, i) => b.put('once', `v${i}`, { onlyIf: { etagDoesNotMatch: '*' } })));
      const winners = created.filter((r): r is StoreObject => r !== null);
      expect(winners).toHaveLength(1);
      const stored = await b.get('once');
      expect(stored!.etag).toBe(winners[0]!.etag);
      expect(md5(await text(stored))).toBe(winners[0]!.etag);
      // Every writer read the same etag; only the first swap against it may land.
      const swapped = await Promise.all(Array.from({ length: n }, (_, i) => b.put('once', `w${i}`, { onlyIf: { etagMatches: winners[0]!.etag } })));
      const swapWinners = swapped.filter((r): r is StoreObject => r !== null);
      expect(swapWinners).toHaveLength(1);
      expect((await b.head('once'))!.etag).toBe(swapWinners[0]!.etag);
    });

    // ---- multipart
    const upload = async (b: StoreBucket, key: string, sizes: (number | [number, string])[]) => {
      const u = await b.createMultipartUpload(key);
      const parts: StoreUploadedPart[] = [];
      for (let i = 0; i < sizes.length; i++) {
        const s = sizes[i]!;
        const [n, ch] = typeof s === 'number' ? [s, String.fromCharCode(97 + i)] : s;
        parts.push(await u.uploadPart(i + 1, ch.repeat(n)));
      }
      return { u, parts };
    };

    test('multipart: create', async () => {
      const b = await t.bucket();
      const u1 = await b.createMultipartUpload('key');
      const u2 = await b.createMultipartUpload('key');
      expect(u1.key).toBe('key');
      expect(u1.uploadId).not.toBe('');
      expect(u1.uploadId).not.toBe(u2.uploadId);
      await rejectsWith(b.createMultipartUpload(longKey), 'createMultipartUpload: The specified object name is not valid. (10020)');
    });

    test('multipart: uploadPart', async () => {
      const b = await t.bucket();
      const u = await b.createMultipartUpload('key');
      const p1 = await u.uploadPart(1, 'a'.repeat(50));
      const p2 = await u.uploadPart(2, 'b'.repeat(50));
      expect(p1.partNumber).toBe(1);
      expect(p1.etag).not.toBe('');
      expect(p1.etag).not.toBe(p2.etag);
      if (t.deltas.partEtag === 'md5') expect(p1.etag).toBe(md5('a'.repeat(50)));
      else expect(p1.etag).toMatch(/^[A-Za-z0-9_-]{171}$/);
      const again = await u.uploadPart(1, 'a'.repeat(50));
      if (t.deltas.partEtag === 'random') expect(again.etag).not.toBe(p1.etag);
      expect((await u.uploadPart(100, 'x')).partNumber).toBe(100);
      await rejectsWith(b.resumeMultipartUpload('key', 'bad').uploadPart(1, 'x'), 'uploadPart: The specified multipart upload does not exist. (10024)');
      await rejectsWith(b.resumeMultipartUpload('other', u.uploadId).uploadPart(1, 'x'), 'uploadPart: The specified multipart upload does not exist. (10024)');
      await rejectsWith(b.resumeMultipartUpload(longKey, u.uploadId).uploadPart(1, 'x'), 'uploadPart: The specified object name is not valid. (10020)');
      await rejectsWith(u.uploadPart(0, 'x'), 'Part number must be between 1 and 10000 (inclusive). Actual value was: 0', 'TypeError');
      await rejectsWith(u.uploadPart(10001, 'x'), 'Part number must be between 1 and 10000 (inclusive). Actual value was: 10001', 'TypeError');
    });

    test('multipart: complete', async () => {
      const b = await t.bucket();
      const u = await b.createMultipartUpload('key', { customMetadata: { a: 'b' }, httpMetadata: { contentType: 'text/plain' } });
      const parts = [await u.uploadPart(1, 'a'.repeat(50)), await u.uploadPart(2, 'b'.repeat(50)), await u.uploadPart(3, 'c')];
      const o = await u.complete(parts);
      const body = 'a'.repeat(50) + 'b'.repeat(50) + 'c';
      const etag = md5(Buffer.concat(['a'.repeat(50), 'b'.repeat(50), 'c'].map((p) => Buffer.from(md5(p), 'hex'))));
      expect(o.key).toBe('key');
      expect(o.size).toBe(101);
      expect(o.etag).toBe(`${etag}-3`);
      expect(o.checksums.toJSON()).toEqual({});
      expect(o.range).toBeUndefined();
      expect(o.customMetadata).toEqual({ a: 'b' });
      expect(o.httpMetadata).toEqual({ contentType: 'text/plain' });
      expect(await text(await b.get('key'))).toBe(body);
      expect(await text(await b.get('key', { range: { offset: 45, length: 10 } }))).toBe('a'.repeat(5) + 'b'.repeat(5));
      expect(await text(await b.get('key', { range: { suffix: 2 } }))).toBe('bc');
      const head = await b.head('key');
      expect(head!.etag).toBe(`${etag}-3`);
      expect((await b.list()).objects.map((x) => [x.key, x.etag])).toEqual([['key', `${etag}-3`]]);
    });

    test('multipart: known etags (out of order, sparse, empty, single)', async () => {
      const b = await t.bucket();
      const { u, parts } = await upload(b, 'ooo', [50, 50, 50]);
      const o = await u.complete([parts[1]!, parts[2]!, parts[0]!]);
      expect(o.size).toBe(150);
      expect(o.etag).toBe('d63a28fd44cfddc0215c8da47e582eb7-3');
      expect(await text(await b.get('ooo'))).toBe('a'.repeat(50) + 'b'.repeat(50) + 'c'.repeat(50));
      const sparse = await b.createMultipartUpload('sparse');
      const sp = [await sparse.uploadPart(2, 'a'.repeat(50)), await sparse.uploadPart(5, 'b'.repeat(50)), await sparse.uploadPart(9, 'c'.repeat(50))];
      const so = await sparse.complete(sp);
      expect(so.size).toBe(150);
      // Gaps in part numbers do not change the etag: it depends on the parts' MD5s in order only.
      expect(so.etag).toBe('d63a28fd44cfddc0215c8da47e582eb7-3');
      const empty = await b.createMultipartUpload('empty');
      const eo = await empty.complete([]);
      expect(eo.size).toBe(0);
      expect(eo.etag).toBe(t.deltas.emptyMultipartEtag ?? 'd41d8cd98f00b204e9800998ecf8427e-0');
      expect(await text(await b.get('empty'))).toBe('');
      const one = await b.createMultipartUpload('one');
      const oo = await one.complete([await one.uploadPart(1, 'a')]);
      expect(oo.etag).toBe(`${md5(Buffer.from(md5('a'), 'hex'))}-1`);
    });

    test('multipart: part size rules', async () => {
      const b = await t.bucket();
      const small = await upload(b, 'k', [1, 1, 1]);
      await rejectsWith(small.u.complete(small.parts), 'completeMultipartUpload: Your proposed upload is smaller than the minimum allowed object size. (10011)');
      const two = await upload(b, 'k', [1, 1]);
      await rejectsWith(two.u.complete(two.parts), 'completeMultipartUpload: Your proposed upload is smaller than the minimum allowed object size. (10011)');
      const badLast = await upload(b, 'k', [50, 50, 1]);
      await rejectsWith(
        badLast.u.complete([badLast.parts[1]!, badLast.parts[2]!, badLast.parts[0]!]),
        'completeMultipartUpload: Your proposed upload is smaller than the minimum allowed object size. (10011)',
      );
      const lastSmallFirst = await upload(b, 'k', [1, 50, 50]);
      await rejectsWith(
        lastSmallFirst.u.complete([lastSmallFirst.parts[1]!, lastSmallFirst.parts[2]!, lastSmallFirst.parts[0]!]),
        'completeMultipartUpload: There was a problem with the multipart upload. (10048)',
      );
      for (const sizes of [[50, 51, 50], [50, 50, 51]]) {
        const x = await upload(b, 'k', sizes);
        await rejectsWith(x.u.complete(x.parts), 'completeMultipartUpload: There was a problem with the multipart upload. (10048)');
      }
      const ok = await upload(b, 'k', [50, 50, 49]);
      expect((await ok.u.complete(ok.parts)).size).toBe(149);
    });

    test('multipart: bad parts, unknown and finished uploads', async () => {
      const b = await t.bucket();
      const { u, parts } = await upload(b, 'k', [50, 50, 50]);
      await rejectsWith(u.complete([parts[0]!, parts[0]!, parts[0]!]), 'completeMultipartUpload: We encountered an internal error. Please try again. (10001)');
      await rejectsWith(
        u.complete([parts[0]!, parts[1]!, { partNumber: 3, etag: parts[1]!.etag }]),
        'completeMultipartUpload: One or more of the specified parts could not be found. (10025)',
      );
      await rejectsWith(u.complete([parts[0]!, { partNumber: 2, etag: 'bad' }]), 'completeMultipartUpload: One or more of the specified parts could not be found. (10025)');
      await rejectsWith(u.complete([parts[0]!, { partNumber: 4, etag: 'very bad' }]), 'completeMultipartUpload: One or more of the specified parts could not be found. (10025)');
      const other = await b.createMultipartUpload('k');
      const foreign = await other.uploadPart(2, 'q'.repeat(50));
      await rejectsWith(u.complete([parts[0]!, foreign]), 'completeMultipartUpload: One or more of the specified parts could not be found. (10025)');
      // A replaced part's old etag is stale once its content changes.
      const replaced = await u.uploadPart(2, 'z'.repeat(50));
      await rejectsWith(u.complete([parts[0]!, parts[1]!, parts[2]!]), 'completeMultipartUpload: One or more of the specified parts could not be found. (10025)');
      const unknown =
        t.deltas.unknownUpload === 'NoSuchUpload'
          ? 'completeMultipartUpload: The specified multipart upload does not exist. (10024)'
          : 'completeMultipartUpload: We encountered an internal error. Please try again. (10001)';
      await rejectsWith(b.resumeMultipartUpload('k', 'bad').complete([]), unknown);
      await rejectsWith(b.resumeMultipartUpload('wrong', u.uploadId).complete([]), unknown);
      await rejectsWith(b.resumeMultipartUpload(longKey, u.uploadId).complete([]), 'completeMultipartUpload: The specified object name is not valid. (10020)');
      expect(await b.head('k')).toBeNull();
      const done = await u.complete([parts[0]!, replaced, parts[2]!]);
      expect(await text(await b.get('k'))).toBe('a'.repeat(50) + 'z'.repeat(50) + 'c'.repeat(50));
      expect(done.size).toBe(150);
      await rejectsWith(u.complete([parts[0]!]), 'completeMultipartUpload: The specified multipart upload does not exist. (10024)');
      await rejectsWith(u.uploadPart(4, 'x'), 'uploadPart: The specified multipart upload does not exist. (10024)');
    });

    test('multipart: a part stream that errors half-way keeps the part it would replace', async () => {
      const b = await t.bucket();
      const u = await b.createMultipartUpload('k');
      const p1 = await u.uploadPart(1, 'a'.repeat(50));
      for (const size of [10, 200_000]) {
        let sent = 0;
        const stream = new ReadableStream<Uint8Array>({
          pull(c) {
            if (sent >= size) {
              c.error(new Error('boom'));
              return;
            }
            sent += 5000;
            c.enqueue(new Uint8Array(5000).fill(66));
          },
        });
        await expect(u.uploadPart(1, stream)).rejects.toThrow();
        await expect(u.uploadPart(2, new ReadableStream({ pull: (c) => c.error(new Error('boom')) }))).rejects.toThrow();
      }
      // Part 1 still holds its first content and etag; part 2 never existed.
      await rejectsWith(u.complete([p1, { partNumber: 2, etag: p1.etag }]), 'completeMultipartUpload: One or more of the specified parts could not be found. (10025)');
      const o = await u.complete([p1]);
      expect(o.size).toBe(50);
      expect(await text(await b.get('k'))).toBe('a'.repeat(50));
    });

    test('multipart: abort', async () => {
      const b = await t.bucket();
      const { u, parts } = await upload(b, 'k', [50, 50]);
      await u.abort();
      await rejectsWith(u.uploadPart(3, 'x'), 'uploadPart: The specified multipart upload does not exist. (10024)');
      await rejectsWith(u.complete(parts), 'completeMultipartUpload: The specified multipart upload does not exist. (10024)');
      await u.abort();
      const done = await upload(b, 'k', [50, 1]);
      await done.u.complete(done.parts);
      await done.u.abort();
      expect(await text(await b.get('k'))).toBe('a'.repeat(50) + 'b');
      if (t.deltas.unknownUpload === 'NoSuchUpload') {
        await b.resumeMultipartUpload('k', 'bad').abort();
        await b.resumeMultipartUpload('wrong', u.uploadId).abort();
      } else {
        await rejectsWith(b.resumeMultipartUpload('k', 'bad').abort(), 'abortMultipartUpload: We encountered an internal error. Please try again. (10001)');
        await rejectsWith(b.resumeMultipartUpload('wrong', u.uploadId).abort(), 'abortMultipartUpload: We encountered an internal error. Please try again. (10001)');
      }
      await rejectsWith(b.resumeMultipartUpload(longKey, u.uploadId).abort(), 'abortMultipartUpload: The specified object name is not valid. (10020)');
    });

    test('multipart: in-progress uploads are invisible; overwrite and delete of completed objects', async () => {
      const b = await t.bucket();
      const { u, parts } = await upload(b, 'k', [50, 50, 50]);
      expect(await b.head('k')).toBeNull();
      expect(await b.get('k')).toBeNull();
      expect((await b.list()).objects).toEqual([]);
      await b.put('k', 'plain');
      await b.delete('k');
      // The upload survives a put and delete of its key.
      const o = await u.complete(parts);
      expect(o.etag).toBe('d63a28fd44cfddc0215c8da47e582eb7-3');
      const reading = await b.get('k');
      await b.put('k', 'replaced');
      // A body already returned still reads the object it was returned for.
      expect(await text(reading)).toBe('a'.repeat(50) + 'b'.repeat(50) + 'c'.repeat(50));
      expect(await text(await b.get('k'))).toBe('replaced');
      const second = await upload(b, 'k2', [50, 50, 50]);
      await second.u.complete(second.parts);
      const inflight = await b.get('k2');
      await b.delete('k2');
      expect(await text(inflight)).toBe('a'.repeat(50) + 'b'.repeat(50) + 'c'.repeat(50));
      expect(await b.get('k2')).toBeNull();
    });
  });
}
