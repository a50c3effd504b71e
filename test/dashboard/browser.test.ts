/**
 * The dashboard in a real browser (headless Chromium driven by playwright-core): sign in, open a zone
 * by host name, deploy, flip a rule's switch, and see a refused expression, through the pages' own
 * forms, cookies and Origin headers, with the stylesheet allowed by the page's Content-Security-Policy.
 * Then each page as laid out: where the caret, the save button and the value column land. Every page
 * is saved as a PNG under artifacts/screenshots/ (gitignored; LEAKSCAN_SCREENSHOTS moves it) for a
 * person to look at; the assertions read the layout, never pixels.
 * Needs Debian's chromium (`apt-get install chromium`, done by .ci/run); without it the suite is
 * skipped and says so.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kManagedRulesetId, managedRuleset } from '../../src/index.js';
import { kPhase } from '../../src/rulesets/index.js';
import { openAuditLog } from '../../src/audit/index.js';
import { Detections } from '../../src/dashboard/index.js';
import { EventLog, zoneIdOfHost, type PendingEvent } from '../../src/eventlog/index.js';
import { openBucket } from '../../src/storage/index.js';
import { tempDir } from '../serve/helpers.js';
import { startDash, type Dash } from './helpers.js';

const kChromium = process.env['LEAKSCAN_CHROMIUM'] ?? '/usr/bin/chromium';
const kShots = resolve(process.env['LEAKSCAN_SCREENSHOTS'] ?? 'artifacts/screenshots');
const taken: string[] = [];

/** Saves what the viewport shows (or the whole page) as `name`.png under kShots. */
async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(kShots, { recursive: true });
  const path = join(kShots, `${name}.png`);
  await page.screenshot({ path, fullPage });
  taken.push(path);
}
const haveChromium = existsSync(kChromium);
if (!haveChromium) process.stderr.write(`dashboard browser tests skipped: no Chromium at ${kChromium} (apt-get install chromium)\n`);

let current: Dash | undefined;

describe.skipIf(!haveChromium)('dashboard in Chromium', () => {
  let d: Dash;
  let browser: Browser;
  let page: Page;
  const host = 'shop.example';
  const zone = zoneIdOfHost(host);
  const rule = managedRuleset.rules.find((r) => !r.enabledByDefault)!;

  beforeAll(async () => {
    d = await startDash();
    current = d;
    browser = await chromium.launch({
      executablePath: kChromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await d?.close();
    if (taken.length > 0) process.stdout.write(`dashboard screenshots (${taken.length}) in ${kShots}\n`);
  });

  it('signs in, opens a zone by host, deploys, switches a rule on and shows a refused expression', async () => {
    await page.goto(`${d.base}/`);
    await page.fill('#token', d.admin);
    await page.click('button:has-text("Sign in")');
    await page.waitForSelector('h1:has-text("Zones")');
    // The stylesheet loaded (the policy allows 'self' styles).
    expect(await page.evaluate(() => document.styleSheets[0]?.cssRules.length ?? 0)).toBeGreaterThan(5);

    await page.fill('#zone', host);
    await page.click('button:has-text("Open")');
    await page.waitForSelector('text=Not deployed');
    expect(page.url()).toBe(`${d.base}/zones/${zone}/sensitive-data`);

    await page.click('button:has-text("Deploy")');
    await page.waitForSelector('.banner.ok');
    expect(await page.textContent('.status')).toBe('Deployed');

    await page.selectOption(`select[name="rule.${rule.id}"]`, 'on');
    await page.click('button:has-text("Save switches")');
    await page.waitForSelector('text=Switches saved.');
    expect(await page.getAttribute(`tr[data-rule="${rule.id}"] td.runs`, 'data-on')).toBe('yes');
    expect((await d.service.effectiveRules(zone, { request: { url: `https://${host}/` } })).ruleIds).toContain(rule.id);

    await page.fill('#expression', 'http.host eq');
    await page.click('button:has-text("Save expression")');
    await page.waitForSelector('.banner.error');
    expect(await page.textContent('.banner.error code')).toMatch(/^\d+$/);
    expect(await page.inputValue('#expression')).toBe('http.host eq');
    expect((await d.service.getEntrypoint(zone, kPhase)).rules[0]!.expression).toBe('true');

    await page.click('button:has-text("Sign out")');
    await page.waitForSelector('#token');
  }, 60_000);

  it('puts an expression error\'s caret under the character it points at', async () => {
    await signIn(page);
    const source = 'http.host eq "a" and http.request.uri.path contains 1';
    await page.goto(`${d.base}/zones/${zone}/sensitive-data`);
    await page.fill('#expression', source);
    await page.click('button:has-text("Save expression")');
    await page.waitForSelector('.expr-problem');
    await page.locator('#expression').scrollIntoViewIfNeeded();
    await shot(page, 'expression-error');
    // The parser points at the `1` (a string was expected): the mark holds it, the caret sits under it.
    expect(await page.textContent('.expr-problem mark.at')).toBe('1');
    const at = (await page.locator('.expr-problem mark.at').boundingBox())!;
    const caret = (await page.locator('.expr-problem .caret').boundingBox())!;
    expect(Math.abs(caret.x - at.x)).toBeLessThan(1);
    expect(caret.y).toBeGreaterThan(at.y);
    expect(await page.textContent('.banner.error')).toContain(`column ${source.length}`);
  }, 60_000);

  it('groups the rules by family and country and keeps Save switches in the viewport', async () => {
    await signIn(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${d.base}/zones/${zone}/sensitive-data`);
    await shot(page, 'zone-rules');
    const groups = await page.$$eval('table.rules tbody', (bs) => bs.map((b) => `${b.getAttribute('data-family')}/${b.getAttribute('data-country')}`));
    expect(groups[0]).toBe('pii/');
    expect(groups).toContain('pii/gb');
    expect(groups).toContain('financial-information/');
    expect(groups.at(-1)).toBe('secrets/');
    // A rule sits in its country's group (the page reads RuleDef.family and the country tag).
    const ssn = page.locator('tr[data-rule="us-ssn"]');
    expect(await ssn.evaluate((tr) => tr.closest('tbody')?.getAttribute('data-country'))).toBe('us');
    expect(await page.textContent('#g-pii-us')).toContain('Personal data, United States');
    const save = page.locator('button:has-text("Save switches")');
    for (const y of [0, 2000, 4000]) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      if (y === 2000) await shot(page, 'zone-rules-scrolled');
      const box = (await save.boundingBox())!;
      if (y > 0) {
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(800);
      }
    }
    // A group's link scrolls to its heading.
    await page.click('nav.groups a[href="#g-pii-gb"]');
    expect((await page.locator('#g-pii-gb').boundingBox())!.y).toBeLessThan(50);
  }, 60_000);

  it('shows every rule executing the managed ruleset and what each does', async () => {
    const two = zoneIdOfHost('two.example');
    const execute = { action: 'execute', action_parameters: { id: kManagedRulesetId, version: 'latest' }, expression: 'true', description: 'Sensitive Data Detection', enabled: false };
    const ep = await d.service.updateEntrypoint(two, kPhase, {
      rules: [execute, { ...execute, expression: 'http.host eq "api.two.example"', enabled: true, description: 'API only', action_parameters: { ...execute.action_parameters, overrides: { enabled: true, categories: [{ category: 'secrets', enabled: false }] } } }],
    });
    await signIn(page);
    await page.goto(`${d.base}/zones/${two}/sensitive-data`);
    await shot(page, 'zone-two-execute-rules');
    const rows = page.locator('table.execute-rules tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).getAttribute('data-execute-rule')).toBe(ep.rules[0]!.id);
    expect(await rows.nth(1).getAttribute('data-execute-rule')).toBe(ep.rules[1]!.id);
    expect(await rows.nth(0).locator('td.enabled').textContent()).toBe('No');
    expect(await rows.nth(1).locator('td.enabled').textContent()).toBe('Yes');
    expect(await rows.nth(1).textContent()).toContain('http.host eq "api.two.example"');
    expect(await rows.nth(1).locator('ul.overrides').textContent()).toContain('tag secrets: off');
    // The second rule is enabled, so the zone is scanned even though the first is not.
    expect(await page.textContent('.status')).toBe('Deployed');
  }, 60_000);

  it('lists zones by host name, and shows detections filtered, counted, exported and unclipped at 800 px', async () => {
    const data = tempDir('leakscan-dash-browser-');
    const audit = await openAuditLog(data.dir);
    const bucket = await openBucket({ dir: join(data.dir, 'events') });
    const mapped = 'd'.repeat(32);
    const log = new EventLog({ bucket, log: audit.log, size: 50, intervalMs: 60_000 });
    const rules = ['card-visa', 'aws-access-key-id', 'us-ssn'] as const;
    log.add(zone, Array.from({ length: 120 }, (_, i): PendingEvent => ({
      id: `${'cd'.repeat(16)}-${i}`, timestamp: new Date(1_700_000_000_000 + i * 60_000).toISOString(), zone, action: 'log', rulesetId: kManagedRulesetId,
      ruleId: rules[i % 3]!, description: 'd', tags: [], host, method: 'GET', path: `/api/v1/customers/${i}/payment-methods/very/long/path/segment`,
      status: 200, contentType: 'application/json; charset=utf-8', requestId: 'cd'.repeat(16), start: i * 100, end: i * 100 + 16,
      redacted: i % 5 === 0 ? '****************[+1234]abcd' : '************1111', confidence: (['high', 'medium', 'low'] as const)[i % 3]!,
    })));
    await log.flush();
    await log.close();
    const m = await startDash({ detections: new Detections(bucket, audit.log), zones: { hosts: { 'api.shop.example': mapped } } });
    await m.service.updateEntrypoint(zone, kPhase, { rules: [] });
    const p = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await p.goto(`${m.base}/`);
      await p.fill('#token', m.admin);
      await p.click('button:has-text("Sign in")');
      await p.waitForSelector('h1:has-text("Zones")');
      await shot(p, 'zones', true);
      expect(await p.textContent(`tr[data-zone="${zone}"] .host[data-source="seen"]`)).toBe(host);
      expect(await p.textContent(`tr[data-zone="${mapped}"] .host[data-source="mapped"]`)).toBe('api.shop.example');

      await p.setViewportSize({ width: 800, height: 900 });
      await p.click(`tr[data-zone="${zone}"] a`);
      await p.click('a:has-text("Detections")');
      await p.waitForSelector('h1:has-text("Detections")');
      await shot(p, 'detections');
      // The longest value and the rightmost column are inside the 800 px window: nothing is cut off.
      const value = (await p.locator('td.value code', { hasText: '[+1234]' }).first().boundingBox())!;
      expect(value.x + value.width).toBeLessThanOrEqual(800);
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
      for (const cell of await p.locator('table.events tr:first-child > *:last-child').all()) {
        const box = (await cell.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(800);
      }

      await p.selectOption('select[name="rule"]', 'us-ssn');
      await p.selectOption('select[name="confidence"]', 'low');
      await p.click('button:has-text("Filter")');
      await p.waitForSelector('text=events match the filter');
      await shot(p, 'detections-filtered');
      const rows = await p.$$eval('table.events tbody tr', (trs) => trs.map((tr) => tr.querySelector('code')?.textContent));
      expect(rows.length).toBe(40);
      expect(new Set(rows)).toEqual(new Set(['us-ssn']));
      expect(await p.textContent('table.counts tr.selected td.n')).toBe('40');
      const [download] = await Promise.all([p.waitForEvent('download'), p.click('a:has-text("CSV")')]);
      expect(download.suggestedFilename()).toBe(`leakscan-detections-${zone}.csv`);
      const csv = readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
      expect(csv).toHaveLength(41);
    } finally {
      await p.close();
      await m.close();
      await bucket.close();
      await audit.close();
      data.remove();
    }
  }, 60_000);
});

async function signIn(page: Page): Promise<void> {
  // Each test starts signed in with the admin token, whatever the previous one left.
  const d = current!;
  await page.goto(`${d.base}/`);
  if ((await page.$('#token')) === null) return;
  await page.fill('#token', d.admin);
  await page.click('button:has-text("Sign in")');
  await page.waitForSelector('h1:has-text("Zones")');
}
