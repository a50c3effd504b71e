/**
 * The dashboard's switches against the effective configuration: what the page says runs is what
 * `enabledByOverrides` (the scanner's and proxy's function) runs, for random overrides; and a form's
 * changes keep every entry they do not touch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applySwitches, switchesOf, type Switch } from '../../src/dashboard/index.js';
import { countryName, ruleGroups } from '../../src/dashboard/model.js';
import { managedRuleset } from '../../src/index.js';
import { allRuleDefs } from '../../src/rules/index.js';
import { enabledByOverrides, type Overrides } from '../../src/rulesets/index.js';

const ruleIds = managedRuleset.rules.map((r) => r.id);
const tags = [...new Set(managedRuleset.rules.flatMap((r) => r.tags))];
const sw = fc.constantFrom<Switch>('default', 'on', 'off');
// Half the entries name one of a few tags or rules, so entries naming the same one meet often.
const tagArb = fc.oneof(fc.constantFrom(...tags.slice(0, 3)), fc.constantFrom(...tags));
const ruleArb = fc.oneof(fc.constantFrom(...ruleIds.slice(0, 3)), fc.constantFrom(...ruleIds));

const overridesArb: fc.Arbitrary<Overrides> = fc.record(
  {
    enabled: fc.boolean(),
    action: fc.constant('log' as const),
    categories: fc.array(fc.record({ category: tagArb, enabled: fc.boolean(), action: fc.constant('log' as const) }, { requiredKeys: ['category'] }), { maxLength: 6 }),
    rules: fc.array(fc.record({ id: ruleArb, enabled: fc.boolean() }, { requiredKeys: ['id'] }), { maxLength: 6 }),
  },
  { requiredKeys: [] },
);

describe('dashboard switches', () => {
  it('the rules shown as running are the ones enabledByOverrides runs', () => {
    fc.assert(
      fc.property(overridesArb, (o) => {
        const s = switchesOf(o);
        const running = enabledByOverrides(o);
        expect(s.rules.filter((r) => r.on).map((r) => r.id)).toEqual(running);
        for (const r of s.rules) {
          const own = (o.rules ?? []).find((x) => x.id === r.id)?.enabled;
          expect(r.own).toBe(own === undefined ? 'default' : own ? 'on' : 'off');
        }
        expect(s.on).toBe(running.length);
        for (const t of s.tags) {
          const withTag = managedRuleset.rules.filter((r) => r.tags.includes(t.tag));
          expect(t.rules).toBe(withTag.length);
          expect(t.on).toBe(withTag.filter((r) => running.includes(r.id)).length);
          const last = (o.categories ?? []).filter((c) => c.category === t.tag && c.enabled !== undefined).at(-1);
          expect(t.own).toBe(last === undefined ? 'default' : last.enabled ? 'on' : 'off');
        }
      }),
    );
  });

  it('a switch set on the page is what runs: rule over tag over every rule over the default', () => {
    fc.assert(
      fc.property(overridesArb, sw, fc.constantFrom(...tags), sw, fc.constantFrom(...ruleIds), sw, (o, all, tag, tagSw, id, ruleSw) => {
        const next = applySwitches(o, { all, tags: new Map([[tag, tagSw]]), rules: new Map([[id, ruleSw]]) });
        const s = switchesOf(next);
        expect(s.all).toBe(all);
        expect(s.tags.find((t) => t.tag === tag)!.own).toBe(tagSw);
        expect(s.rules.find((r) => r.id === id)!.own).toBe(ruleSw);
        const rule = managedRuleset.rules.find((r) => r.id === id)!;
        const running = enabledByOverrides(next).includes(id);
        if (ruleSw !== 'default') {
          expect(running).toBe(ruleSw === 'on');
          return;
        }
        // Otherwise the tag's switch decides, unless a later entry names another of the rule's tags.
        const cats = next?.categories ?? [];
        const last = cats.map((c) => c.category).lastIndexOf(tag);
        const later = cats.slice(last + 1).some((c) => c.enabled !== undefined && rule.tags.includes(c.category));
        if (rule.tags.includes(tag) && tagSw !== 'default' && !later) expect(running).toBe(tagSw === 'on');
      }),
    );
  });

  it('keeps untouched entries, their order and their action; default removes only the switch', () => {
    const prev: Overrides = {
      action: 'log',
      categories: [
        { category: tags[0]!, enabled: false },
        { category: tags[1]!, action: 'log', enabled: true },
        { category: tags[2]!, enabled: true },
      ],
      rules: [{ id: ruleIds[0]!, enabled: true }],
    };
    const next = applySwitches(prev, { tags: new Map<string, Switch>([[tags[1]!, 'default'], [tags[0]!, 'on']]), rules: new Map<string, Switch>([[ruleIds[1]!, 'off']]) });
    expect(next).toEqual({
      action: 'log',
      categories: [
        { category: tags[0]!, enabled: true },
        { category: tags[1]!, action: 'log' },
        { category: tags[2]!, enabled: true },
      ],
      rules: [
        { id: ruleIds[0]!, enabled: true },
        { id: ruleIds[1]!, enabled: false },
      ],
    });
    expect(prev.categories![0]).toEqual({ category: tags[0]!, enabled: false });
  });

  it('keeps sensitivity levels set through the API, and shows each running rule\'s threshold', () => {
    const prev: Overrides = {
      sensitivity_level: 'medium',
      categories: [{ category: 'gb', sensitivity_level: 'low' }],
      rules: [{ id: 'uk-nhs', enabled: true, sensitivity_level: 'default' }, { id: 'us-ssn', sensitivity_level: 'eoff' }],
    };
    const next = applySwitches(prev, { all: 'on', tags: new Map<string, Switch>([['gb', 'off']]), rules: new Map<string, Switch>([['uk-nhs', 'default']]) });
    expect(next).toEqual({
      enabled: true,
      sensitivity_level: 'medium',
      categories: [{ category: 'gb', sensitivity_level: 'low', enabled: false }],
      rules: [{ id: 'uk-nhs', sensitivity_level: 'default' }, { id: 'us-ssn', sensitivity_level: 'eoff' }],
    });
    const rows = new Map(switchesOf(prev).rules.map((r) => [r.id, r]));
    expect(rows.get('uk-nhs')).toMatchObject({ on: true, threshold: 'high' });
    expect(rows.get('uk-nino')).toMatchObject({ on: true, threshold: 'low' });
    expect(rows.get('aws-access-key-id')).toMatchObject({ on: true, threshold: 'medium' });
    // eoff: shown as not running, whatever its switch.
    expect(rows.get('us-ssn')).toMatchObject({ own: 'default', on: false, threshold: null });
  });

  it('gives each rule the level of its best finding, so a rule below its zone\'s threshold can say it reports nothing', () => {
    const rows = switchesOf({ enabled: true }).rules;
    for (const r of rows) expect(r.best).toBe(allRuleDefs.find((d) => d.id === r.id)!.confidence ?? 'high');
    const lower = allRuleDefs.find((d) => d.confidence !== undefined && d.confidence !== 'high');
    if (lower !== undefined) {
      const row = switchesOf({ enabled: true }).rules.find((r) => r.id === lower.id)!;
      expect(row).toMatchObject({ on: true, threshold: 'high', best: lower.confidence });
      expect(switchesOf({ enabled: true, rules: [{ id: lower.id, sensitivity_level: 'low' }] }).rules.find((r) => r.id === lower.id)!.threshold).toBe('low');
    }
  });

  it('nothing left to override is no overrides at all', () => {
    expect(applySwitches({ rules: [{ id: ruleIds[0]!, enabled: true }] }, { tags: new Map(), rules: new Map([[ruleIds[0]!, 'default']]) })).toBeUndefined();
    expect(applySwitches(undefined, { all: 'default', tags: new Map([[tags[0]!, 'default']]), rules: new Map() })).toBeUndefined();
  });
});

describe('rule groups', () => {
  it('puts every rule once in the group of its family and country, families in order, no-country first', () => {
    const groups = ruleGroups(switchesOf(undefined).rules);
    expect(groups.flatMap((g) => g.rules.map((r) => r.id)).sort()).toEqual([...ruleIds].sort());
    const families = groups.map((g) => g.family);
    expect([...new Set(families)]).toEqual(['pii', 'financial-information', 'secrets']);
    for (const g of groups) {
      for (const r of g.rules) {
        expect(r.family).toBe(allRuleDefs.find((d) => d.id === r.id)!.family);
        expect(r.country === '' ? true : r.tags.includes(r.country)).toBe(true);
      }
    }
    const pii = groups.filter((g) => g.family === 'pii').map((g) => g.country);
    expect(pii[0]).toBe('');
    expect(pii).toContain('gb');
    // A two-letter topic tag is not a country: the IP-address rules are of no one country.
    expect(countryName('ip')).toBeUndefined();
    expect(countryName('gb')).toBe('United Kingdom');
    expect(groups.find((g) => g.rules.some((r) => r.tags.includes('ip')))!.country).toBe('');
  });
});
