/**
 * generic-credential: names the high-confidence generic rules leave out, reported at `low` only.
 * See issue 32, part 3 ("generic secrets under more names … at lower confidence").
 */
import { describe, expect, it } from 'vitest';
import { identifierNotEndingIn } from '../../src/rules/secrets/fragments.js';
import { compileProgram, scanStream, v8Backend } from '../../src/engine/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { synth } from '../../src/rules/secrets/samples.js';

describe('identifierNotEndingIn', () => {
  const re = new RegExp(`^${identifierNotEndingIn(['public', 'csrf', 'xsrf', 'page'])}$`, 'iu');
  it.each(['generic', 'GENERIC', 'my.app', 'ublic', 'lic', 'c', 'x', 'srf', 'age', 'publics', 'Xsrf2', 'deploy_bot'])('accepts %s', (s) => {
    expect(re.test(s)).toBe(true);
  });
  it.each(['public', 'PUBLIC', 'myPublic', 'my_public', 'pUbLiC', 'csrf', 'XSRF', 'nextPage', 'a_', 'x.'])('rejects %s', (s) => {
    expect(re.test(s)).toBe(false);
  });
});

describe('generic-credential confidence', () => {
  const value = synth('gen-low-test', 32);
  const body = Buffer.from(`{"deploy_token": "${value}"}`);
  const rules = allRuleDefs.filter((r) => r.id === 'generic-credential');
  it('is compiled out at the default threshold', async () => {
    const findings = (await scanStream(compileProgram(rules, v8Backend), [body], { contentType: 'application/json' })).findings;
    expect(findings).toEqual([]);
  });
  it('reports at low', async () => {
    const findings = (await scanStream(compileProgram(rules, v8Backend, 'low'), [body], { contentType: 'application/json' })).findings;
    expect(findings.map((f) => [f.ruleId, f.confidence])).toEqual([['generic-credential', 'low']]);
  });
});
