import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allRuleDefs, managedRuleset, selectRules } from '../../src/rules/index.js';
import { renderRulesDoc } from '../../scripts/rules-doc.js';

describe('managed ruleset catalogue', () => {
  it('has at least 60 rules with unique kebab-case ids, a family tag and examples', () => {
    expect(allRuleDefs.length).toBeGreaterThanOrEqual(60);
    const ids = allRuleDefs.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of allRuleDefs) {
      expect(r.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(['pii', 'financial-information', 'secrets']).toContain(r.family);
      expect(r.description.length).toBeGreaterThan(10);
      if (!r.enabledByDefault) expect(r.note, `${r.id} is off by default and must say why`).toBeTruthy();
    }
  });

  it('covers national ids of at least 15 countries', () => {
    const countries = new Set(allRuleDefs.filter((r) => r.family === 'pii').flatMap((r) => r.tags.filter((t) => /^[a-z]{2}$/.test(t))));
    expect(countries.size).toBeGreaterThanOrEqual(15);
  });

  it('describes itself as the published managed ruleset', () => {
    expect(managedRuleset.id).toBe('e22d83c647c64a3eae91b71b499d988e');
    expect(managedRuleset.rules.map((r) => r.id)).toEqual(allRuleDefs.map((r) => r.id));
  });

  it('selects defaults, all, enable and disable by id or tag (disable wins)', () => {
    const defaults = selectRules({});
    expect(defaults.every((r) => r.enabledByDefault)).toBe(true);
    expect(selectRules({ allRules: true })).toHaveLength(allRuleDefs.length);
    const off = allRuleDefs.find((r) => !r.enabledByDefault)!;
    expect(selectRules({ enable: [off.id] }).map((r) => r.id)).toContain(off.id);
    expect(selectRules({ enable: [off.id], disable: [off.id] }).map((r) => r.id)).not.toContain(off.id);
    expect(selectRules({ disable: ['secrets'] }).some((r) => r.family === 'secrets')).toBe(false);
    expect(() => selectRules({ enable: ['no-such-rule'] })).toThrow(/no-such-rule/);
  });

  it('docs/rules.md is up to date (npm run docs:rules)', () => {
    expect(readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8')).toBe(renderRulesDoc());
  });
});
