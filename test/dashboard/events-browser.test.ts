/**
 * Security › Events in headless Chromium, on the whole service (in-process startServe) with traffic
 * sent through its proxy: the zone's nav leads to the page, the chart has a bar per rule found with a
 * title and description, a rule filter (the GET form) keeps that rule's events only and is in the
 * URL, and an event's proof link opens its checked inclusion proof. Screenshots go to
 * artifacts/screenshots/ (LEAKSCAN_SCREENSHOTS moves them); assertions read the page, never pixels.
 * Needs Debian's chromium; without it the suite is skipped and says so.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeHandle } from '../../src/service/index.js';
import { bodies, deploy, get, plant, startOrigin, tempDir, type Origin } from '../serve/helpers.js';

const kChromium = process.env['LEAKSCAN_CHROMIUM'] ?? '/usr/bin/chromium';
const kShots = resolve(process.env['LEAKSCAN_SCREENSHOTS'] ?? 'artifacts/screenshots');
const haveChromium = existsSync(kChromium);
if (!haveChromium) process.stderr.write(`Security › Events in Chromium skipped: no Chromium at ${kChromium} (apt-get install chromium)\n`);

const Z = 'e'.repeat(32);

describe.skipIf(!haveChromium)('Security › Events in Chromium', () => {
  const planted = plant();
  const data = tempDir('leakscan-events-browser-');
  let origin: Origin;
  let svc: ServeHandle;
  let browser: Browser;

  beforeAll(async () => {
    origin = await startOrigin(bodies(planted), planted);
    svc = await startServe({ dataDir: data.dir, port: 0, auditPort: 0, proxyPort: 0, origin: origin.url, workers: 0, zones: { hosts: { 'shop.example': Z } }, batch: { intervalMs: 20 }, onError: () => {} });
    await deploy(svc.api.url, svc.admin.token, Z);
    for (let i = 0; i < 3; i++) {
      for (const path of ['/api/user.json', '/settings.html', '/config.json.gz']) expect((await get(`${svc.proxy!.url}${path}`, 'shop.example')).status).toBe(200);
    }
    await svc.flush();
    browser = await chromium.launch({
      executablePath: kChromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await origin?.close();
    data.remove();
  });

  it('shows the chart, filters by rule through the form and opens an event\'s proof', async () => {
    const base = svc.api.url.replace(/\/client\/v4$/, '');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/`);
    await page.fill('#token', svc.admin.token);
    await page.click('button:has-text("Sign in")');
    await page.waitForSelector('h1:has-text("Zones")');
    await page.goto(`${base}/zones/${Z}/sensitive-data`);
    await page.click('nav >> a:has-text("Events")');
    await page.waitForSelector('h1:has-text("Security events")');
    expect(page.url()).toBe(`${base}/zones/${Z}/security/events`);

    // The chart: one bar segment per rule found (three requests each), labelled for screen readers.
    const chart = page.locator('svg.chart');
    expect(await chart.getAttribute('role')).toBe('img');
    expect(await page.textContent('svg.chart title#chart-title')).toMatch(/^Events per rule per hour, /);
    expect(await page.textContent('svg.chart desc')).toMatch(/^\d+ events in \d+ bars/);
    const segments = await page.$$eval('svg.chart rect[data-rule]', (rs) => rs.map((r) => [r.getAttribute('data-rule'), Number(r.getAttribute('data-count'))] as const));
    const rules = new Set(segments.map(([r]) => r));
    expect(rules).toContain('aws-access-key-id');
    expect(rules).toContain('stripe-secret-key');
    expect(segments.filter(([r]) => r === 'aws-access-key-id').reduce((n, [, c]) => n + c, 0)).toBe(3);
    const box = (await chart.boundingBox())!;
    expect(box.width).toBeGreaterThan(600);
    expect(box.x + box.width).toBeLessThanOrEqual(1280);
    mkdirSync(kShots, { recursive: true });
    await page.screenshot({ path: join(kShots, 'security-events.png'), fullPage: true });

    // A filter is a GET form: the URL carries it, and the list holds that rule only.
    await page.selectOption('select[name="rule"]', 'aws-access-key-id');
    await page.click('button:has-text("Filter")');
    await page.waitForSelector('text=match the filter');
    expect(new URL(page.url()).searchParams.get('rule')).toBe('aws-access-key-id');
    const shown = await page.$$eval('table.events tbody tr td:nth-child(2) code', (cs) => cs.map((c) => c.textContent));
    expect(shown).toEqual(['aws-access-key-id', 'aws-access-key-id', 'aws-access-key-id']);
    expect(await page.$$eval('table.events .badge', (bs) => bs.map((b) => b.getAttribute('data-state')))).toEqual(['verified', 'verified', 'verified']);
    // The planted key never reaches the page: values are redacted as stored.
    expect(await page.content()).not.toContain(planted.awsKeyId);

    // At 800 pixels the list fits the window: values, requests and rule ids wrap rather than run off.
    await page.setViewportSize({ width: 800, height: 900 });
    await page.goto(`${base}/zones/${Z}/security/events`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
    await page.goBack();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.click('table.events tbody tr:first-child a.proof');
    await page.waitForSelector('h1:has-text("Inclusion proof")');
    expect(await page.textContent('.banner.ok')).toMatch(/^Checked: this event is leaf \d+ of \d+ of batch \d+'s Merkle tree/);
    expect(await page.locator('ol.path li').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(kShots, 'security-events-proof.png'), fullPage: true });
    await page.close();
  }, 60_000);
});
