import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScanner } from '../../src/index.js';

// Real keys written by OpenSSL (node:crypto) and puttygen, through the whole default scanner: each
// key is found once, by the rule for its form, and an armoured key is not reported twice.
const scanner = await createScanner({ workers: 0 });
afterAll(() => scanner.close());

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const rsa4096 = generateKeyPairSync('rsa', { modulusLength: 4096 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ec384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const ed = generateKeyPairSync('ed25519');
const der = (k: { export(o: object): Buffer | string }, type: string): string => (k.export({ format: 'der', type }) as Buffer).toString('base64');
const pem = (k: { export(o: object): Buffer | string }, type: string): string => k.export({ format: 'pem', type }) as string;

const ids = async (text: string, contentType = 'application/json') => (await scanner.scan(text, { contentType })).map((f) => f.ruleId).sort();

describe('private keys without armour', () => {
  it.each([
    ['PKCS#1 RSA 2048', der(rsa.privateKey, 'pkcs1')],
    ['PKCS#1 RSA 4096', der(rsa4096.privateKey, 'pkcs1')],
    ['PKCS#8 RSA', der(rsa.privateKey, 'pkcs8')],
    ['PKCS#8 P-256', der(ec.privateKey, 'pkcs8')],
    ['PKCS#8 P-384', der(ec384.privateKey, 'pkcs8')],
    ['PKCS#8 Ed25519', der(ed.privateKey, 'pkcs8')],
    ['SEC 1 P-256', der(ec.privateKey, 'sec1')],
    ['SEC 1 P-384', der(ec384.privateKey, 'sec1')],
  ])('%s as one base64 line', async (_name, b64) => {
    expect(await ids(JSON.stringify({ privateKey: b64 }))).toEqual(['private-key-der']);
    expect(await ids(`KEY=${b64}\n`, 'text/plain')).toEqual(['private-key-der']);
  });

  it('leaves public keys alone', async () => {
    expect(await ids(JSON.stringify({ k: der(rsa.publicKey, 'spki'), e: der(ec.publicKey, 'spki') }))).toEqual([]);
  });

  it.each([
    ['PKCS#1', pem(rsa.privateKey, 'pkcs1')],
    ['PKCS#8', pem(rsa.privateKey, 'pkcs8')],
    ['SEC 1', pem(ec.privateKey, 'sec1')],
  ])('reports an armoured %s key once, as private-key', async (_name, block) => {
    expect(await ids(JSON.stringify({ private_key: block }))).toEqual(['private-key']);
  });

  it('finds an armoured key written as Java string literals', async () => {
    const literals = pem(rsa.privateKey, 'pkcs8').trim().split('\n').map((l) => `"${l}\\n"`).join(' +\n    ');
    const found = await scanner.scan(`static final String KEY = ${literals};`, { contentType: 'text/plain' });
    expect(found.map((f) => f.ruleId)).toEqual(['private-key']);
  });
});

describe('PuTTY key files', () => {
  const dir = join(import.meta.dirname, '..', 'validators', 'fixtures', 'ppk');
  it.each(readdirSync(dir).filter((f) => f.endsWith('.ppk')))('%s', async (file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    expect(await ids(text, 'text/plain')).toEqual(['putty-private-key']);
    expect(await ids(JSON.stringify({ ppk: text }))).toEqual(['putty-private-key']);
  });
});
