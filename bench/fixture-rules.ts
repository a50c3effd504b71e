/**
 * A small, frozen rule set owned by the bench (`--rules fixture`). The managed catalogue changes as
 * rules are added and tuned; this set does not, so its figures isolate changes in the *engine* from
 * changes in the *rules*. It covers every trigger kind (keywords, digit runs, tokens), a value group,
 * and validators, in the shapes the catalogue uses. It is also what the bench measures when the
 * catalogue is still empty. Not a product rule set: never exported from src/.
 */
import type { RuleDef } from '../src/rules/types.js';
import { luhnValid } from '../src/validators/luhn.js';
import { ibanValid } from '../src/validators/iban.js';
import { githubTokenChecksumValid } from '../src/validators/github-token.js';

const none = { positive: [], negative: [] };

export const kFixtureRules: readonly RuleDef[] = [
  {
    id: 'fx-card', description: 'Payment card number (bench fixture)', family: 'financial-information', tags: ['card'], enabledByDefault: true,
    trigger: { digits: { min: 13 } },
    pattern: '(?:4[0-9]{3}|5[1-5][0-9]{2}|6011|35[0-9]{2})(?:[ -]?[0-9]{4}){3}|3[47][0-9]{2}[ -]?[0-9]{6}[ -]?[0-9]{5}',
    maxLength: 19, validate: (v) => luhnValid(v.replace(/[ -]/g, '')), examples: none,
  },
  {
    id: 'fx-us-ssn', description: 'US SSN (bench fixture)', family: 'pii', tags: ['us'], enabledByDefault: true,
    trigger: { digits: { min: 9, separators: '-' } }, pattern: '[0-8][0-9]{2}-[0-9]{2}-[0-9]{4}', maxLength: 11, examples: none,
  },
  {
    id: 'fx-email', description: 'E-mail address (bench fixture)', family: 'pii', tags: ['email'], enabledByDefault: true,
    trigger: { keywords: ['@'] },
    pattern: '[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\\.[A-Za-z0-9-]{1,63}){0,4}\\.[A-Za-z]{2,24}',
    maxLength: 400, examples: none,
  },
  {
    id: 'fx-iban', description: 'IBAN, electronic form (bench fixture)', family: 'financial-information', tags: ['iban'], enabledByDefault: true,
    trigger: { token: { min: 15, max: 34, needsLetter: true } }, pattern: '[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}', maxLength: 34,
    validate: ibanValid, examples: none,
  },
  {
    id: 'fx-aws-key-id', description: 'AWS access key id (bench fixture)', family: 'secrets', tags: ['aws'], enabledByDefault: true,
    trigger: { keywords: ['AKIA'] }, pattern: 'AKIA[A-Z2-7]{16}', maxLength: 20, examples: none,
  },
  {
    id: 'fx-github-token', description: 'GitHub token (bench fixture)', family: 'secrets', tags: ['github'], enabledByDefault: true,
    trigger: { keywords: ['ghp_', 'gho_', 'ghs_'] }, pattern: 'gh[pos]_[A-Za-z0-9]{36}', maxLength: 40,
    validate: githubTokenChecksumValid, examples: none,
  },
  {
    id: 'fx-slack-token', description: 'Slack bot token (bench fixture)', family: 'secrets', tags: ['slack'], enabledByDefault: true,
    trigger: { keywords: ['xoxb-'] }, pattern: 'xoxb-[0-9]{10,13}-[0-9]{10,13}-[A-Za-z0-9]{24}', maxLength: 56, examples: none,
  },
  {
    id: 'fx-jwt', description: 'JSON Web Token (bench fixture)', family: 'secrets', tags: ['jwt'], enabledByDefault: true,
    trigger: { keywords: ['eyJ'] }, pattern: 'eyJ[A-Za-z0-9_-]{10,500}\\.eyJ[A-Za-z0-9_-]{10,500}\\.[A-Za-z0-9_-]{10,100}', maxLength: 1110,
    examples: none,
  },
  {
    id: 'fx-password', description: 'Password assignment (bench fixture)', family: 'secrets', tags: ['password'], enabledByDefault: true,
    trigger: { keywords: ['password'] }, ignoreCase: true,
    pattern: 'password["\']?\\s{0,3}[:=]\\s{0,3}["\']?([A-Za-z0-9!#%]{8,40})', group: 1, maxLength: 60, minEntropy: 2.5,
    examples: none,
  },
  {
    id: 'fx-private-key', description: 'PEM private key header (bench fixture)', family: 'secrets', tags: ['pem'], enabledByDefault: true,
    trigger: { keywords: ['-----BEGIN'] }, pattern: '-----BEGIN (?:RSA |EC |OPENSSH )?PRIVATE KEY-----', maxLength: 40, examples: none,
  },
];
