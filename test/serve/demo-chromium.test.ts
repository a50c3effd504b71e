/**
 * What a newcomer sees: `npm start`'s command (package.json "start", the built CLI) on a temporary data
 * directory and free ports reaches `ready`, the curl line it prints is run as printed, and the dashboard
 * in Chromium, signed in with the admin token read from the printed path, shows a verified detection
 * of the demo zone within 60 s of the start. A screenshot goes to artifacts/screenshots/ (not committed).
 * Needs Debian's chromium; without it the suite is skipped and says so.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { kDemoHost, kDemoZone } from '../../src/cli/commands/serve-demo.js';
import { sh, spawnUntilReady, tempDir } from './helpers.js';

const kRoot = join(import.meta.dirname, '../..');
const kChromium = process.env['LEAKSCAN_CHROMIUM'] ?? '/usr/bin/chromium';
const haveChromium = existsSync(kChromium);
if (!haveChromium) process.stderr.write(`npm start in Chromium skipped: no Chromium at ${kChromium} (apt-get install chromium)\n`);
const kShots = join(kRoot, 'artifacts/screenshots');

function newestUnder(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newestUnder(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * `npm start`'s node arguments. A fresh clone runs them as they are (npm ci builds dist/); in a working
 * tree whose dist/ is older than src/, the same command from the sources, so the test sees the code.
 */
function startCommand(): { argv: string[]; what: string } {
  const script = (JSON.parse(readFileSync(join(kRoot, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [node, entry, ...args] = script.split(' ');
  if (node !== 'node' || entry === undefined) throw new Error(`package.json start is not "node FILE ARGS": ${script}`);
  const built = join(kRoot, entry);
  // An incremental build (tsc -b) leaves unchanged outputs alone and records itself in dist/.tsbuildinfo.
  const stamps = [built, join(kRoot, 'dist/.tsbuildinfo')].filter((f) => existsSync(f)).map((f) => statSync(f).mtimeMs);
  if (existsSync(built) && Math.max(...stamps) >= newestUnder(join(kRoot, 'src'))) return { argv: [built, ...args], what: script };
  process.stderr.write(`dist/ is older than src/: running ${script} from the sources through tsx\n`);
  return { argv: ['--import', 'tsx', join(kRoot, 'src/cli/main.ts'), ...args], what: `${script} (sources)` };
}

describe.skipIf(!haveChromium)('npm start, seen in Chromium', () => {
  const data = tempDir('leakscan-start-');
  let child: ChildProcess | undefined;
  let browser: Browser | undefined;

  afterAll(async () => {
    await browser?.close();
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    data.remove();
  });

  it('reaches ready; the printed curl becomes a verified detection on the dashboard within 60 s', async () => {
    const started = Date.now();
    const { argv, what } = startCommand();
    // Ports and data directory the way a user of `npm start` sets them: the environment.
    const env = { ...process.env, LEAKSCAN_DATA: data.dir, LEAKSCAN_PORT: '0', LEAKSCAN_AUDIT_PORT: '0', LEAKSCAN_PROXY_PORT: '0' };
    const s = await spawnUntilReady(argv, what, { env, cwd: kRoot });
    child = s.child;
    const field = (prefix: string): string => {
      const l = s.lines.find((x) => x.startsWith(prefix));
      if (l === undefined) throw new Error(`no line ${prefix}\n${s.stdout()}`);
      return l.slice(prefix.length);
    };

    const tokenPath = /^saved in (\S+)$/.exec(field('admin token: '))?.[1];
    expect(tokenPath).toBe(join(data.dir, 'admin-token'));
    const token = readFileSync(tokenPath!, 'utf8').trim();
    const dashboard = /^(http:\/\/127\.0\.0\.1:\d+\/) and sign in/.exec(field('open the dashboard: '))?.[1];
    expect(dashboard).toBeDefined();

    const curl = field('send traffic through the proxy: ');
    const sent = await sh(curl, { timeoutMs: 15_000, cwd: kRoot });
    expect(sent.code).toBe(0);
    expect(sent.stdout.equals(readFileSync(join(kRoot, 'corpus/samples/user.json')))).toBe(true);

    browser = await chromium.launch({
      executablePath: kChromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(dashboard!);
    await page.fill('#token', token);
    await page.click('button:has-text("Sign in")');
    await page.waitForSelector('h1:has-text("Zones")');
    await page.fill('#zone', kDemoHost);
    await page.click('button:has-text("Open")');
    await page.waitForURL(`${dashboard}zones/${kDemoZone}/sensitive-data`);
    await page.click('a:has-text("Detections")');
    await page.waitForSelector('h1:has-text("Detections")');

    // A batch is written about a second after its first event and verified once its epoch is published.
    const verified = page.locator('section.batch[data-state="verified"]');
    while ((await verified.count()) === 0 && Date.now() - started < 60_000) {
      await new Promise((r) => setTimeout(r, 500));
      await page.reload();
    }
    expect(await verified.count(), `no verified batch within 60 s of the start:\n${await page.textContent('main')}`).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(60_000);

    const batch = verified.first();
    expect(await batch.locator('.state').textContent()).toMatch(/^verified: /);
    const rows = batch.locator('table.events tbody tr');
    const text = (await rows.allTextContents()).join('\n');
    expect(text).toContain('card-mastercard');
    expect(text).toContain('/user.json');
    const row = rows.filter({ hasText: 'card-mastercard' }).first();
    expect(await row.locator('td code').first().textContent()).toBe('card-mastercard');
    // The value is shown redacted: the sample's card number never reaches the page.
    const card = '5555 5555 5555 4444';
    expect(sent.stdout.toString()).toContain(card);
    expect(await page.content()).not.toContain(card);

    mkdirSync(kShots, { recursive: true });
    await page.screenshot({ path: join(kShots, 'demo-detections.png'), fullPage: true });

    child.kill('SIGINT');
    expect(await s.exited).toBe(0);
  }, 120_000);
});
