/**
 * The dashboard over HTTP, as a browser uses it: sign-in, zones, deploying the managed ruleset, the
 * filter expression, the switches (all, tag, rule) and what they turn on in the effective configuration
 * the proxy uses, and the refusals: wrong token, no session, other zones, read-only tokens, forged or
 * stale forms, bad input, and HTML that must stay text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kManagedRulesetId, managedRuleset } from '../../src/index.js';
import { kPhase } from '../../src/rulesets/index.js';
import { zoneIdOfHost } from '../../src/eventlog/index.js';
import { Browser, hiddenField, startDash, type Dash } from './helpers.js';

let d: Dash;
const zone = 'a'.repeat(32);
const page = `/zones/${zone}/sensitive-data`;
const traffic = { request: { url: 'https://shop.example/api/user' } };
const offByDefault = managedRuleset.rules.find((r) => !r.enabledByDefault)!;
const onByDefault = managedRuleset.rules.find((r) => r.enabledByDefault)!;
const defaults = managedRuleset.rules.filter((r) => r.enabledByDefault).map((r) => r.id);

beforeAll(async () => {
  d = await startDash();
});
afterAll(async () => {
  await d?.close();
});

async function signedIn(token = d.admin): Promise<Browser> {
  const b = new Browser(d.base);
  const r = await b.signIn(token);
  expect(r.status).toBe(303);
  return b;
}

async function form(b: Browser, path = page): Promise<{ csrf: string; version: string | undefined; text: string }> {
  const r = await b.get(path);
  expect(r.status).toBe(200);
  let version: string | undefined;
  try {
    version = hiddenField(r.text, 'version');
  } catch {
    version = undefined;
  }
  return { csrf: hiddenField(r.text, 'csrf'), version, text: r.text };
}

async function post(b: Browser, action: string, fields: Record<string, string> = {}): Promise<{ status: number; text: string; location: string | null }> {
  const f = await form(b);
  const r = await b.post(`${page}/${action}`, { csrf: f.csrf, ...(f.version === undefined ? {} : { version: f.version }), ...fields });
  return r;
}

describe('dashboard', () => {
  it('asks for a token, refuses a wrong one, and signs in with the admin token', async () => {
    const b = new Browser(d.base);
    const first = await b.get('/');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(first.text).toContain('name="token"');
    expect(first.headers.get('content-security-policy')).toContain("default-src 'none'");

    const wrong = await b.signIn('x'.repeat(40));
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Unknown or revoked API token.');
    expect(b.cookie).toBe('');

    const ok = await b.signIn(d.admin);
    expect(ok.status).toBe(303);
    expect(ok.location).toBe('/');
    expect(ok.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    const home = await b.get('/');
    expect(home.text).toContain('Zones');
    // A zone only looked at has no configuration and is not listed.
    const looked = 'd'.repeat(32);
    expect((await b.get(`/zones/${looked}/sensitive-data`)).status).toBe(200);
    expect((await b.get('/')).text).not.toContain(looked);
    expect(home.text).toContain('Sign out');
    // The token itself never comes back in a page.
    expect(home.text).not.toContain(d.admin);
  });

  it('refuses a sign-in from another site or from Origin: null (login CSRF), and takes one from its own pages', async () => {
    for (const origin of ['null', 'https://evil.example', 'http://localhost.evil.example']) {
      const b = new Browser(d.base);
      const r = await b.post('/session', { token: d.admin }, { origin });
      expect(r.status, origin).toBe(403);
      expect(r.text).toContain('another site');
      expect(b.cookie, origin).toBe('');
    }
    const own = new Browser(d.base);
    expect((await own.post('/session', { token: d.admin }, { origin: new URL(d.base).origin })).status).toBe(303);
    expect(own.cookie).not.toBe('');
  });

  it('without a session, pages send to the sign-in and forms are refused', async () => {
    const b = new Browser(d.base);
    const r = await b.get(page);
    expect(r.status).toBe(303);
    expect(r.location).toBe('/');
    const p = await b.post(`${page}/deploy`, { csrf: 'x' });
    expect(p.status).toBe(401);
    expect(await d.service.effectiveRules(zone, traffic)).toMatchObject({ ruleIds: [] });
  });

  it('opens a zone by id or by host name (the proxy zone of that host)', async () => {
    const b = await signedIn();
    const byId = await b.get(`/zones?zone=${zone.toUpperCase()}`);
    expect(byId.status).toBe(303);
    expect(byId.location).toBe(page);
    const byHost = await b.get('/zones?zone=Shop.Example:8080');
    expect(byHost.location).toBe(`/zones/${zoneIdOfHost('shop.example')}/sensitive-data`);
    const bad = await b.get(`/zones?zone=${encodeURIComponent('<b>no</b>')}`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('&lt;b&gt;no&lt;/b&gt;');
    expect(bad.text).not.toContain('<b>no</b>');
  });

  it('names each zone\'s hosts from the --zone mapping, and a mapped host opens its mapped zone', async () => {
    const mapped = 'd'.repeat(32);
    const other = 'e'.repeat(32);
    const m = await startDash({ zones: { hosts: { 'api.shop.example': mapped, '*.cdn.example': mapped }, defaultZone: other } });
    try {
      const b = new Browser(m.base);
      await b.signIn(m.admin);
      const list = await b.get('/');
      const row = new RegExp(`<tr data-zone="${mapped}">(.*?)</tr>`).exec(list.text)?.[1] ?? '';
      expect(row).toContain('<span class="host" data-source="mapped" title="mapped with --zone">api.shop.example</span>');
      expect(row).toContain('*.cdn.example');
      expect(new RegExp(`<tr data-zone="${other}">.*?data-source="default"`).test(list.text)).toBe(true);
      // Typed in the zone box, a mapped host opens the zone the proxy sends it to, not its derived one.
      expect((await b.get('/zones?zone=API.shop.example')).location).toBe(`/zones/${mapped}/sensitive-data`);
      expect((await b.get('/zones?zone=img.cdn.example')).location).toBe(`/zones/${mapped}/sensitive-data`);
      expect((await b.get('/zones?zone=unmapped.example')).location).toBe(`/zones/${other}/sensitive-data`);
      expect((await b.get(`/zones/${mapped}/sensitive-data`)).text).toContain('api.shop.example');
    } finally {
      await m.close();
    }
  });

  it('deploys the managed ruleset: the entry point executes it and the default rules run', async () => {
    const b = await signedIn();
    const before = await b.get(page);
    expect(before.text).toContain('Not deployed');
    const r = await post(b, 'deploy');
    expect(r.status).toBe(303);
    expect(r.location).toBe(`${page}?done=deploy`);
    const ep = await d.service.getEntrypoint(zone, kPhase);
    expect(ep.rules).toHaveLength(1);
    expect(ep.rules[0]).toMatchObject({ action: 'execute', expression: 'true', enabled: true, action_parameters: { id: kManagedRulesetId } });
    expect((await d.service.effectiveRules(zone, traffic)).ruleIds).toEqual(defaults);
    const after = await b.get(r.location!);
    expect(after.text).toContain('Deployed: the managed ruleset runs');
    expect(after.text).toContain(`${defaults.length} of ${managedRuleset.rules.length} rules run`);
    // Deploying twice is refused and changes nothing.
    const again = await post(b, 'deploy');
    expect(again.status).toBe(409);
    expect((await d.service.getEntrypoint(zone, kPhase)).rules).toHaveLength(1);
  });

  it('switches a rule, a tag and every rule; the effective rules follow and the page shows them', async () => {
    const b = await signedIn();
    const tag = onByDefault.tags.find((t) => t !== onByDefault.tags[0]) ?? onByDefault.tags[0]!;
    const r = await post(b, 'overrides', { [`rule.${offByDefault.id}`]: 'on', [`tag.${tag}`]: 'off' });
    expect(r.status).toBe(303);
    const ids = (await d.service.effectiveRules(zone, traffic)).ruleIds;
    expect(ids).toContain(offByDefault.id);
    const tagged = managedRuleset.rules.filter((x) => x.tags.includes(tag) && x.id !== offByDefault.id);
    for (const x of tagged) expect(ids).not.toContain(x.id);
    const ep = await d.service.getEntrypoint(zone, kPhase);
    expect(ep.rules[0]!.action_parameters).toMatchObject({ overrides: { categories: [{ category: tag, enabled: false }], rules: [{ id: offByDefault.id, enabled: true }] } });

    const shown = await b.get(page);
    const row = new RegExp(`data-rule="${offByDefault.id}">.*?data-on="(yes|no)"`, 's').exec(shown.text);
    expect(row?.[1]).toBe('yes');

    // A form that carries only some switches leaves the others as they are; `default` removes one.
    const r2 = await post(b, 'overrides', { [`tag.${tag}`]: 'default' });
    expect(r2.status).toBe(303);
    const ep2 = await d.service.getEntrypoint(zone, kPhase);
    expect(ep2.rules[0]!.action_parameters).toEqual({ id: kManagedRulesetId, version: 'latest', overrides: { rules: [{ id: offByDefault.id, enabled: true }] } });

    // Every rule off, the rule's own switch still wins.
    await post(b, 'overrides', { all: 'off' });
    expect((await d.service.effectiveRules(zone, traffic)).ruleIds).toEqual([offByDefault.id]);
    await post(b, 'overrides', { all: 'default', [`rule.${offByDefault.id}`]: 'default' });
    expect((await d.service.effectiveRules(zone, traffic)).ruleIds).toEqual(defaults);
    expect(ep2.rules[0]!.action_parameters).not.toHaveProperty('overrides.categories');
    const ep3 = await d.service.getEntrypoint(zone, kPhase);
    expect(ep3.rules[0]!.action_parameters).toEqual({ id: kManagedRulesetId, version: 'latest' });
  });

  it('shows the sensitivity set through the API and keeps it when switches are saved', async () => {
    const b = await signedIn();
    const ep = await d.service.getEntrypoint(zone, kPhase);
    const rule = ep.rules[0]!;
    await d.service.editRule(zone, ep.id, rule.id, {
      action: 'execute', expression: rule.expression, enabled: rule.enabled,
      action_parameters: { id: kManagedRulesetId, overrides: { rules: [{ id: onByDefault.id, sensitivity_level: 'medium' }] } },
    });
    const reports = (text: string, id: string) => new RegExp(`data-rule="${id}">.*?data-threshold="(\\w*)">([^<]*)<`, 's').exec(text)?.slice(1);
    expect(reports((await b.get(page)).text, onByDefault.id)).toEqual(['medium', 'Medium and high']);
    expect(await post(b, 'overrides', { [`rule.${offByDefault.id}`]: 'on' })).toMatchObject({ status: 303 });
    const after = await d.service.getEntrypoint(zone, kPhase);
    expect((after.rules[0]!.action_parameters as { overrides: unknown }).overrides).toEqual({
      rules: [{ id: onByDefault.id, sensitivity_level: 'medium' }, { id: offByDefault.id, enabled: true }],
    });
    expect(reports((await b.get(page)).text, offByDefault.id)).toEqual(['high', 'High']);
    // Back to the defaults for the tests that follow.
    await d.service.editRule(zone, ep.id, rule.id, { action: 'execute', expression: rule.expression, enabled: rule.enabled, action_parameters: { id: kManagedRulesetId } });
  });

  it('refuses unknown switches and values without changing anything', async () => {
    const b = await signedIn();
    const before = await d.service.getEntrypoint(zone, kPhase);
    for (const fields of [{ 'rule.no-such-rule': 'on' }, { 'tag.no-such-tag': 'off' }, { all: 'maybe' }]) {
      const r = await post(b, 'overrides', fields);
      expect(r.status).toBe(400);
      expect(r.text).toContain('role="alert"');
    }
    expect(await d.service.getEntrypoint(zone, kPhase)).toEqual(before);
  });

  it('saves a filter expression; an invalid one gets the API error and stays in the form', async () => {
    const b = await signedIn();
    const ok = await post(b, 'expression', { expression: 'http.host eq "shop.example"' });
    expect(ok.status).toBe(303);
    expect((await d.service.effectiveRules(zone, traffic)).ruleIds).toEqual(defaults);
    expect((await d.service.effectiveRules(zone, { request: { url: 'https://other.example/' } })).ruleIds).toEqual([]);

    const bad = await post(b, 'expression', { expression: 'http.host eq <script>' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/role="alert"><code>\d+<\/code>/);
    // The draft is shown again as text, not markup.
    expect(bad.text).toContain('http.host eq &lt;script&gt;');
    expect(bad.text).not.toContain('<script>');
    expect((await d.service.getEntrypoint(zone, kPhase)).rules[0]!.expression).toBe('http.host eq "shop.example"');
  });

  it('disables and enables the deployment', async () => {
    const b = await signedIn();
    expect((await post(b, 'disable')).status).toBe(303);
    expect((await d.service.effectiveRules(zone, traffic)).ruleIds).toEqual([]);
    expect((await b.get(page)).text).toContain('Deployed, disabled');
    expect((await post(b, 'enable')).status).toBe(303);
    expect((await d.service.effectiveRules(zone, traffic)).ruleIds).toEqual(defaults);
  });

  it('does not overwrite a change made elsewhere since the page was drawn', async () => {
    const b = await signedIn();
    const f = await form(b);
    const ep = await d.service.getEntrypoint(zone, kPhase);
    const rule = ep.rules[0]!;
    // Another client edits the rule through the API.
    await d.service.editRule(zone, ep.id, rule.id, { action: 'execute', action_parameters: { id: kManagedRulesetId }, expression: 'true', enabled: true });
    const r = await b.post(`${page}/disable`, { csrf: f.csrf, version: f.version! });
    expect(r.status).toBe(409);
    expect(r.text).toContain('changed since this page was loaded');
    expect((await d.service.getEntrypoint(zone, kPhase)).rules[0]!.enabled).toBe(true);
  });

  it('refuses forms without the session form token or from another site', async () => {
    const b = await signedIn();
    const f = await form(b);
    const forged = await b.post(`${page}/disable`, { version: f.version! });
    expect(forged.status).toBe(403);
    const stale = await b.post(`${page}/disable`, { csrf: `${f.csrf}x`, version: f.version! });
    expect(stale.status).toBe(403);
    const cross = await b.post(`${page}/disable`, { csrf: f.csrf, version: f.version! }, { origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    expect(cross.text).toContain('another site');
    const json = await fetch(`${d.base}${page}/disable`, { method: 'POST', headers: { cookie: b.cookie, 'content-type': 'application/json' }, body: '{}', redirect: 'manual' });
    expect(json.status).toBe(415);
    expect((await d.service.getEntrypoint(zone, kPhase)).rules[0]!.enabled).toBe(true);
  });

  it('a read-only token sees the page and cannot change it; a token for other zones cannot open this one', async () => {
    const ro = await d.tokens.create({ name: 'viewer', zones: [zone], permission: 'read' });
    const b = await signedIn(ro.token);
    const f = await form(b);
    expect(f.text).toContain('This token can read only');
    const r = await b.post(`${page}/disable`, { csrf: f.csrf, version: f.version! });
    expect(r.status).toBe(403);
    expect((await d.service.getEntrypoint(zone, kPhase)).rules[0]!.enabled).toBe(true);
    const home = await b.get('/');
    expect(home.text).toContain(zone);

    const other = await d.tokens.create({ name: 'other', zones: ['b'.repeat(32)], permission: 'edit' });
    const o = await signedIn(other.token);
    expect((await o.get(page)).status).toBe(403);
    expect((await o.get('/')).text).not.toContain(zone);
  });

  it('ends the sessions of a revoked token at their next request, and signs out', async () => {
    const t = await d.tokens.create({ name: 'temp', zones: ['*'], permission: 'edit' });
    const b = await signedIn(t.token);
    expect((await b.get(page)).status).toBe(200);
    await d.tokens.revoke(t.info.id);
    expect((await b.get(page)).status).toBe(303);

    const c = await signedIn();
    const f = await form(c, '/');
    const out = await c.post('/session/end', { csrf: f.csrf });
    expect(out.status).toBe(303);
    expect(c.cookie).toBe('');
    expect((await c.get(page)).status).toBe(303);
  });

  it('answers bad paths, methods and bodies with clear errors, and leaves other paths to the API', async () => {
    const b = await signedIn();
    expect((await b.get('/zones/not-a-zone/sensitive-data')).status).toBe(404);
    expect((await b.get(`${page}/nope`)).status).toBe(404);
    // Names an object inherits are no forms and no messages.
    const f0 = await form(b);
    expect((await b.post(`${page}/constructor`, { csrf: f0.csrf })).status).toBe(404);
    expect((await b.get(`${page}?done=constructor`)).text).not.toContain('role="status"');
    // Without a source of stored detections (only `leakscan serve` gives one) there is no such page.
    expect((await b.get(`${page}/detections`)).status).toBe(404);
    expect((await b.get(page)).text).not.toContain('/detections');
    const put = await fetch(`${d.base}${page}`, { method: 'PUT', headers: { cookie: b.cookie } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD');
    const f = await form(b);
    const huge = await b.post(`${page}/expression`, { csrf: f.csrf, expression: 'x'.repeat(300 * 1024) });
    expect(huge.status).toBe(413);
    const css = await b.get('/assets/dashboard.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const other = await fetch(`${d.base}/favicon.ico`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ success: false, errors: [{ code: 7000 }] });
    // The API beside it is untouched.
    const api = await fetch(`${d.base}/client/v4/zones/${zone}/rulesets/phases/${kPhase}/entrypoint`, { headers: { authorization: `Bearer ${d.admin}` } });
    expect(api.status).toBe(200);
    expect(d.errors).toEqual([]);
  });
});
