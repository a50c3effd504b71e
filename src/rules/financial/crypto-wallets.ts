import type { RuleDef } from '../types.js';
import { btcBase58AddressValid, sha256 } from '../../validators/base58check.js';
import { btcSegwitAddressValid } from '../../validators/bech32.js';
import { kHexLower, synth } from '../secrets/samples.js';

const kB58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const kBech = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** A synthetic Base58Check address: `version` + a 20-byte hash made from `seed`, with its checksum. */
function base58Sample(version: number, seed: string): string {
  const payload = Uint8Array.from([version, ...synth(seed, 20, kHexLower + kHexLower).split('').map((c, i) => (c.charCodeAt(0) * 31 + i * 7) & 0xff)]);
  const bytes = [...payload, ...sha256(sha256(payload)).subarray(0, 4)];
  let n = bytes.reduce((acc, b) => acc * 256n + BigInt(b), 0n);
  let out = '';
  while (n > 0n) {
    out = kB58[Number(n % 58n)]! + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** A synthetic SegWit address: `bc1` + version + a program of `words` 5-bit groups + checksum. */
function segwitSample(version: number, words: number, seed: string): string {
  const data = [version, ...synth(seed, words, kBech).split('').map((c) => kBech.indexOf(c))];
  const values = [3, 3, 0, 2, 3, ...data, 0, 0, 0, 0, 0, 0];
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= gen[i]!;
  }
  const mod = (chk ^ (version === 0 ? 1 : 0x2bc830a3)) >>> 0;
  const check = [0, 1, 2, 3, 4, 5].map((i) => kBech[(mod >>> (5 * (5 - i))) & 31]!);
  return `bc1${data.map((d) => kBech[d]).join('')}${check.join('')}`;
}

// A P2WPKH program: 32 groups of 5 bits hold its 20 bytes exactly.
const p2pkh = base58Sample(0x00, 'btc-1');
const p2sh = base58Sample(0x05, 'btc-2');
const wpkh = segwitSample(0, 32, 'btc-3');
const eth = `0x${synth('eth-1', 40, kHexLower)}`;

/** Cryptocurrency addresses: payment destinations that identify a holder's funds. */
export const cryptoWalletRules: readonly RuleDef[] = [
  {
    id: 'crypto-wallet-btc',
    description: 'Bitcoin address: Base58Check P2PKH/P2SH (1…, 3…) or bech32/bech32m SegWit (bc1…), checksum verified.',
    family: 'financial-information',
    tags: ['crypto', 'bitcoin'],
    enabledByDefault: false,
    note: 'Off by default: addresses are public by design (donation links, block explorers); enable by id or the crypto tag.',
    trigger: { keywords: ['bc1'], next: 'qpzry9x8gf2tvdw0s3jn54khce6mua7lQPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L' },
    pattern: '(?:bc1|BC1)[qpzry9x8gf2tvdw0s3jn54khce6mua7lQPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{39,87}',
    maxLength: 90,
    lead: 0,
    validate: btcSegwitAddressValid,
    examples: {
      positive: [
        { text: `{"payout_address":"${wpkh}"}`, match: wpkh },
        { text: `send to ${wpkh.toUpperCase()} please`, match: wpkh.toUpperCase() },
      ],
      negative: [{ text: `{"payout_address":"${wpkh.slice(0, -1)}${wpkh.endsWith('q') ? 'p' : 'q'}"}` }, { text: `mixed ${wpkh.slice(0, 10).toUpperCase()}${wpkh.slice(10)}` }],
    },
  },
  {
    id: 'crypto-wallet-btc-base58',
    description: 'Bitcoin legacy address (Base58Check P2PKH 1… or P2SH 3…) with a valid double-SHA-256 checksum.',
    family: 'financial-information',
    tags: ['crypto', 'bitcoin'],
    enabledByDefault: false,
    note: 'Off by default, as crypto-wallet-btc.',
    // The whole address is one token: a 1 or 3 and 25-34 Base58 characters.
    trigger: { token: { min: 26, max: 35, needsLetter: true } },
    runGate: (text, start) => text.charCodeAt(start) === 49 || text.charCodeAt(start) === 51,
    pattern: '[13][1-9A-HJ-NP-Za-km-z]{25,34}',
    maxLength: 35,
    validate: btcBase58AddressValid,
    examples: {
      positive: [
        { text: `Donations: ${p2pkh}`, match: p2pkh },
        { text: `{"multisig":"${p2sh}"}`, match: p2sh },
      ],
      negative: [{ text: `Donations: ${p2pkh.slice(0, -1)}${p2pkh.endsWith('z') ? 'y' : 'z'}` }, { text: `id ${p2pkh}x` }],
    },
  },
  {
    id: 'crypto-wallet-eth',
    description: 'Ethereum address (0x and 40 hex digits) next to an Ethereum or wallet label.',
    family: 'financial-information',
    tags: ['crypto', 'ethereum'],
    enabledByDefault: false,
    note: 'Off by default, as crypto-wallet-btc. 0x and 40 hex digits is also any 160-bit hash, so a label is required; the EIP-55 mixed-case checksum is not verified.',
    trigger: { token: { min: 42, max: 42, needsLetter: true } },
    runGate: (text, start) => text.charCodeAt(start) === 48 && text.charCodeAt(start + 1) === 120,
    pattern: '0x[0-9a-fA-F]{40}',
    maxLength: 42,
    context: { words: ['ethereum', 'ether', 'eth address', 'eth_address', 'wallet', 'erc20', 'erc-20', 'metamask'], before: 64 },
    examples: {
      positive: [{ text: `{"wallet":"${eth}"}`, match: eth }],
      negative: [{ text: `{"txHashPrefix":"${eth}"}` }],
    },
  },
];
