import type { RuleDef } from '../types.js';
import { githubTokenChecksumValid } from '../../validators/github-token.js';
import { matchFromHit } from '../run-match.js';
import { kTokenBoundary } from './fragments.js';
import { breakLastChar, checksummedToken, kBase64Url, kHexLower, synth, tok } from './samples.js';

/**
 * One rule per GitHub token kind (gitleaks' ids), so a user can, say, silence short-lived app
 * installation tokens without losing personal access tokens. All five share the 2021 format:
 * prefix, 30 random base62 characters, 6 base62 characters of CRC-32 (validated).
 */
function githubRule(id: string, kind: string, prefixes: readonly string[], seed: string, long?: { body: number; what: string }): RuleDef {
  const good = checksummedToken(prefixes[0]!, `${seed}-1`);
  const good2 = checksummedToken(prefixes[prefixes.length - 1]!, `${seed}-2`);
  const longToken = long === undefined ? '' : `${prefixes[0]}_${synth(`${seed}-long`, long.body)}`;
  const pattern = `(?:${prefixes.join('|')})_[A-Za-z0-9]{36}${long === undefined ? '' : `(?:[A-Za-z0-9]{${long.body - 36}})?`}`;
  return {
    id,
    description: `GitHub ${kind} (${prefixes.map((p) => `${p}_`).join(', ')}) with a valid CRC-32 checksum${long === undefined ? '' : `, or ${long.what}`}.`,
    family: 'secrets',
    tags: ['github'],
    enabledByDefault: true,
    trigger: { keywords: prefixes.map((p) => `${p}_`), next: 'A-Za-z0-9' },
    pattern,
    maxLength: 4 + (long?.body ?? 36),
    // The token starts with its prefix, the trigger.
    lead: 0,
    runMatch: matchFromHit(pattern),
    // The 36-character form carries a CRC-32; the long one has no published checksum, so only its
    // exact length and a random-looking body (mixed character classes) back it.
    validate: long === undefined ? githubTokenChecksumValid : (v) => (v.length === 40 ? githubTokenChecksumValid(v) : mixesClasses(v.slice(4))),
    examples: {
      positive: [
        { text: `GITHUB_TOKEN=${good}`, match: good },
        { text: `{"token":"${good2}","expires_at":null}`, match: good2 },
        { text: `git clone https://x-access-token:${good}@github.com/o/r.git`, match: good },
        ...(long === undefined ? [] : [{ text: `{"refresh_token":"${longToken}","refresh_token_expires_in":15897600}`, match: longToken }]),
      ],
      negative: [
        ...(long === undefined ? [] : [{ text: `{"refresh_token":"${longToken.slice(0, -1)}"}` }, { text: `{"refresh_token":"${prefixes[0]}_${'abc'.repeat(25)}a"}` }]),
        { text: `GITHUB_TOKEN=${breakLastChar(good)}` },
        { text: `GITHUB_TOKEN=${good.slice(0, 39)}` },
        { text: `GITHUB_TOKEN=${good}A` },
        { text: `GITHUB_TOKEN=${prefixes[0]}_${'x'.repeat(36)}` },
        { text: `GITHUB_TOKEN=${good.toUpperCase()}` },
      ],
    },
  };
}

/** True when `s` holds characters of at least two of the classes upper case, lower case, digit. */
function mixesClasses(s: string): boolean {
  return Number(/[A-Z]/.test(s)) + Number(/[a-z]/.test(s)) + Number(/[0-9]/.test(s)) >= 2;
}

const fgPat = tok('github_pat_', `${synth('gh-fg-1', 22)}_${synth('gh-fg-1b', 59)}`);
const fgPat2 = tok('github_pat_', `${synth('gh-fg-2', 22)}_${synth('gh-fg-2b', 59)}`);
const glpat = tok('glpat-', synth('gl-pat-1', 20, kBase64Url));
const glpatRoutable = tok('glpat-', `${synth('gl-pat-2', 51, kBase64Url)}.01.${synth('gl-pat-2b', 9, '0123456789abcdefghijklmnopqrstuvwxyz')}`);
const glrt = tok('glrt-', synth('gl-rt-1', 20, kBase64Url));
const glptt = tok('glptt-', synth('gl-ptt-1', 40, kHexLower));
const glRunnerReg = tok('GR1348941', synth('gl-reg-1', 20, kBase64Url));
const kBase36 = '0123456789abcdefghijklmnopqrstuvwxyz';
const gloas = tok('gloas-', synth('gl-oas-1', 64, kHexLower));
const glagent = tok('glagent-', synth('gl-agent-1', 50, kBase64Url));
const glimt = tok('glimt-', synth('gl-imt-1', 25, kBase36));

/**
 * Body lengths of GitLab's non-routable tokens by prefix: 20 characters for access, deploy, feed and
 * runner tokens (up to 50 for service-account and older forms), 20 to 25 for incoming-mail tokens
 * (a base36 number), 50 for agent tokens, 64 for OAuth application secrets (hex). Routable tokens
 * (a `.<version>.<length and CRC>` tail) carry a longer payload and are not bounded here.
 */
const kGitlabBody: Readonly<Record<string, readonly [number, number]>> = {
  gloas: [64, 64],
  glagent: [50, 50],
  glimt: [20, 25],
};

function gitlabTokenShape(v: string): boolean {
  const legacy = /^gl(?:pat|dt|ft|rtr|rt|oas|soat|ffct|imt|agent)-/.exec(v);
  if (legacy !== null && !v.includes('.')) {
    const [min, max] = kGitlabBody[legacy[0].slice(0, -1)] ?? [20, 50];
    const length = v.length - legacy[0].length;
    if (length < min || length > max) return false;
  }
  // Random bodies mix character classes; package and file names after a `glpat-`-like word do not.
  return mixesClasses(v.slice(v.search(/[-_]|GR1348941/) + 1));
}

export const vcsRules: readonly RuleDef[] = [
  githubRule('github-pat', 'personal access token (classic)', ['ghp'], 'gh-pat'),
  githubRule('github-oauth', 'OAuth access token', ['gho'], 'gh-oauth'),
  githubRule('github-app-token', 'App user-to-server or installation token', ['ghu', 'ghs'], 'gh-app'),
  // Refresh tokens of GitHub Apps' user access tokens are also issued as `ghr_` and 76 characters.
  githubRule('github-refresh-token', 'App refresh token', ['ghr'], 'gh-refresh', { body: 76, what: 'the 76-character form' }),
  {
    id: 'github-fine-grained-pat',
    description: 'GitHub fine-grained personal access token (github_pat_…).',
    family: 'secrets',
    tags: ['github'],
    enabledByDefault: true,
    trigger: { keywords: ['github_pat_'], next: 'A-Za-z0-9' },
    // 22 characters of token id, `_`, 59 characters of secret and checksum. GitHub has not published
    // how the checksum of this format is computed, so only the shape and its randomness are checked.
    pattern: 'github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}',
    maxLength: 93,
    minEntropy: 4,
    examples: {
      positive: [
        { text: `export GH_TOKEN=${fgPat}`, match: fgPat },
        { text: `<input type="hidden" name="t" value="${fgPat2}">`, match: fgPat2 },
      ],
      negative: [
        { text: `GH_TOKEN=${fgPat.slice(0, 92)}` },
        { text: `GH_TOKEN=${fgPat}9` },
        { text: `GH_TOKEN=github_pat_${'x'.repeat(22)}_${'x'.repeat(59)}` },
      ],
    },
  },
  {
    id: 'gitlab-token',
    description: 'GitLab access, deploy, runner, trigger, feed, agent or OAuth token (glpat-, gldt-, glrt-, glptt-…).',
    family: 'secrets',
    tags: ['gitlab'],
    enabledByDefault: true,
    trigger: {
      keywords: [
        'glpat-', 'gldt-', 'glft-', 'glrt-', 'glrtr-', 'gloas-', 'glsoat-', 'glffct-', 'glimt-', 'glagent-',
        'glptt-', 'glcbt-', 'GR1348941',
      ],
      next: 'A-Za-z0-9_-',
    },
    // Legacy tokens carry 20+ characters after the prefix; routable tokens (GitLab 17.x+) carry a
    // base64url payload then `.<2-char version>.<9 base36 characters of length and CRC>`. The routable
    // CRC's exact input is not published, so it is not verified.
    pattern: String.raw`(?:gl(?:pat|dt|ft|rtr|rt|oas|soat|ffct|imt|agent)-[A-Za-z0-9_-]{20,}(?:\.[0-9a-z]{2}\.[0-9a-z]{9})?|glptt-[0-9a-f]{40}|glcbt-[0-9a-fA-F]{1,5}_[A-Za-z0-9_-]{20}|GR1348941[A-Za-z0-9_-]{20})`,
    maxLength: 330,
    // Every form starts with its own prefix, a trigger.
    lead: 0,
    boundary: { left: kTokenBoundary, right: kTokenBoundary },
    minEntropy: 3,
    validate: gitlabTokenShape,
    examples: {
      positive: [
        { text: `PRIVATE-TOKEN: ${glpat}`, match: glpat },
        { text: `{"token":"${glpatRoutable}"}`, match: glpatRoutable },
        { text: `runner token='${glrt}'`, match: glrt },
        { text: `curl -F token=${glptt} -F ref=main`, match: glptt },
        { text: `registration_token = "${glRunnerReg}"`, match: glRunnerReg },
        { text: `GITLAB_OAUTH_SECRET=${gloas}`, match: gloas },
        { text: `agent token: ${glagent}`, match: glagent },
        { text: `incoming_email_token: ${glimt}`, match: glimt },
      ],
      negative: [
        { text: `PRIVATE-TOKEN: ${glpat.slice(0, 25)}` },
        { text: `PRIVATE-TOKEN: glpat-${'x'.repeat(20)}` },
        { text: `the npm package glpat-config-loader-helper` },
        { text: `PRIVATE-TOKEN: ${'a'}${glpat}` },
        // Longer than the prefix's tokens: another value that happens to start like one.
        { text: `token=glsoat-${synth('gl-n1', 51, kBase64Url)}` },
        { text: `secret=${gloas.slice(0, 50)}` },
        { text: `agent token: ${glagent}${synth('gl-n2', 4, kBase64Url)}` },
      ],
    },
  },
];
