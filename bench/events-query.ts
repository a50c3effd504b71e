/**
 * The events query (`POST /client/v4/graphql`, `leakscan events`) at 1 and 10 million stored events:
 * builds an events index from synthetic batches (10 zones, 90 days, 20 rules), then times GraphQL
 * queries over the last 30 days of one zone, end to end through `executeEventsQuery` (parse,
 * validate, execute, index reads). Wall time and the process's CPU time per query, median and p95.
 *
 *   npm run bench:events                       # 1M, then 10M (a fresh index each)
 *   npm run bench:events -- --sizes 200000     # other sizes
 *   npm run bench:events -- --runs 30 --keep   # more runs per query; keep the index directory
 *   npm run bench:events -- --dir /tmp/ev      # build into /tmp/ev/<size>/ once, reuse it on later runs
 *
 * With --dir, an index that already holds the last synthetic batch is queried as it is (an index of
 * an older format is emptied on open, so it is built again); the directory is kept.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executeEventsQuery, openEventIndex, type EventIndex } from '../src/events/index.js';
import { Rng } from './prng.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
};
const sizes = opt('--sizes', '1000000,10000000').split(',').map(Number);
const runs = Number(opt('--runs', '20'));
const reuseDir = args.includes('--dir') ? opt('--dir', '') : undefined;
const keep = args.includes('--keep') || reuseDir !== undefined;

const kZones = Array.from({ length: 10 }, (_, i) => (i + 1).toString(16).padStart(2, '0').repeat(16));
const kRules = Array.from({ length: 20 }, (_, i) => `rule-${String(i).padStart(2, '0')}`);
const kHosts = ['shop.example', 'api.example', 'www.example', 'static.example'];
const kDay = 86_400_000;
const kEnd = Date.UTC(2026, 4, 1);
const kStart = kEnd - 90 * kDay;
const kBatch = 1000;

/**
 * Batch `b` (of `batches`) as the service writes it (format 1 NDJSON lines). Time moves forward from
 * batch to batch, as it does for a running service, over the 90 days. Rules are skewed: rule-00 is
 * the commonest, rule-19 the rarest.
 */
function batchBytes(zone: string, n: number, b: number, batches: number, rand: () => number): Buffer {
  const span = (kEnd - kStart) / batches;
  let text = '';
  for (let seq = 0; seq < kBatch; seq++) {
    const ms = Math.floor(kStart + span * (b + seq / kBatch));
    const rule = kRules[Math.min(kRules.length - 1, Math.floor(-Math.log(1 - rand()) * 4))]!;
    const req = Math.floor(rand() * 2 ** 52).toString(16).padStart(32, '0');
    text += `${JSON.stringify({
      batch: n, seq, id: `${req}-0`, timestamp: new Date(ms).toISOString(), zone, action: 'log', rulesetId: 'e22d83c647c64a3eae91b71b499d988e',
      ruleId: rule, description: `synthetic ${rule}`, tags: ['pii'], host: kHosts[seq % kHosts.length], method: 'GET', path: `/api/v1/items/${seq % 97}`,
      status: 200, contentType: 'application/json', requestId: req, start: 10, end: 26, redacted: '************1111', confidence: 'high',
    })}\n`;
  }
  return Buffer.from(text);
}

/** The zone and number of synthetic batch `b` (zones in turn). */
const batchAt = (b: number): { zone: string; n: number } => ({ zone: kZones[b % kZones.length]!, n: Math.floor(b / kZones.length) + 1 });

/** Whether the index already holds all `total` events (the last batch is indexed after every other). */
function built(index: EventIndex, total: number): boolean {
  const last = batchAt(Math.ceil(total / kBatch) - 1);
  return index.has(last.zone, last.n);
}

/** Indexes `total` events in batches of 1,000, zones in turn, a few transactions in flight so LMDB commits them together. */
async function build(index: EventIndex, total: number, rand: () => number): Promise<void> {
  const inFlight = new Set<Promise<unknown>>();
  const batches = Math.ceil(total / kBatch);
  for (let b = 0; b < batches; b++) {
    const { zone, n } = batchAt(b);
    const p = index.addBatch(zone, n, batchBytes(zone, n, b, batches, rand)).finally(() => inFlight.delete(p));
    inFlight.add(p);
    if (inFlight.size >= 8) await Promise.race(inFlight);
    if (b % 1000 === 0 && b > 0) process.stderr.write(`  ${b / 1000}M events indexed\n`);
  }
  await Promise.all(inFlight);
}

const zone = kZones[0]!;
const month = { datetime_geq: new Date(kEnd - 30 * kDay).toISOString(), datetime_lt: new Date(kEnd).toISOString() };
const list = (filter: object, order = 'datetime_DESC') => ({
  query: `query ($zoneTag: string, $filter: FirewallEventsAdaptiveFilter_InputObject) { viewer { zones(filter: { zoneTag: $zoneTag }) {
    firewallEventsAdaptive(filter: $filter, limit: 100, orderBy: [${order}]) { action datetime ruleId rulesetId source clientRequestHTTPHost clientRequestPath rayName } } } }`,
  variables: { zoneTag: zone, filter },
});
const groups = (filter: object, dims: string) => ({
  query: `query ($zoneTag: string, $filter: FirewallEventsAdaptiveGroupsFilter_InputObject) { viewer { zones(filter: { zoneTag: $zoneTag }) {
    firewallEventsAdaptiveGroups(filter: $filter, limit: 1000, orderBy: [count_DESC]) { count dimensions { ${dims} } } } } }`,
  variables: { zoneTag: zone, filter },
});

const kQueries: [string, { query: string; variables: object }][] = [
  ['list: 100 newest of the month (tutorial shape)', list(month)],
  ['list: 100 newest of the month, one rare rule (rule-19)', list({ ...month, ruleId: 'rule-19' })],
  ['list: the month, OR of two rules and a host', list({ ...month, OR: [{ ruleId_in: ['rule-10', 'rule-11'] }, { clientRequestHTTPHost: 'nowhere.example' }] }, 'datetime_ASC')],
  ['list: the month, a host with no events (hourly totals say so)', list({ ...month, clientRequestHTTPHost: 'nowhere.example' })],
  ['list: the month, a path matching nothing (reads every event)', list({ ...month, clientRequestPath_like: '/admin/%' })],
  ['list: the month, one path (clientRequestPath)', list({ ...month, clientRequestPath: '/api/v1/items/42' })],
  ['list: the month, three paths (clientRequestPath_in), oldest first', list({ ...month, clientRequestPath_in: ['/api/v1/items/7', '/api/v1/items/8', '/nowhere'] }, 'datetime_ASC')],
  ['list: the month, one path and a rare rule', list({ ...month, ruleId: 'rule-19', clientRequestPath: '/api/v1/items/42' })],
  ['groups: the month by rule and hour (hourly totals)', groups(month, 'ruleId datetimeHour')],
  ['groups: the month by rule (hourly totals, odd bounds)', groups({ datetime_geq: new Date(kEnd - 30 * kDay + 1234567).toISOString(), datetime_lt: new Date(kEnd - 7654321).toISOString() }, 'ruleId')],
  ['groups: the month by host and status (hourly totals)', groups(month, 'clientRequestHTTPHost edgeResponseStatus')],
  ['groups: the month by path (reads every event)', groups(month, 'clientRequestPath')],
  ['groups: the month by path and day', groups(month, 'clientRequestPath date')],
  ['groups: the month, one path, by rule', groups({ ...month, clientRequestPath: '/api/v1/items/42' }, 'ruleId')],
];

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

async function timeQuery(index: EventIndex, body: object): Promise<{ wall: number[]; cpu: number[]; rows: number }> {
  const access = { canRead: () => true };
  const first = await executeEventsQuery(index, body, access);
  if (first.errors !== null) throw new Error(JSON.stringify(first.errors));
  const zones = (first.data!['viewer'] as { zones: Record<string, unknown[]>[] }).zones;
  const rows = Object.values(zones[0]!).find(Array.isArray)?.length ?? 0;
  for (let i = 0; i < 2; i++) await executeEventsQuery(index, body, access);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await executeEventsQuery(index, body, access);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall, cpu, rows };
}

function dirBytes(dir: string): number {
  return ['events-index.mdb'].reduce((s, f) => s + statSync(join(dir, f)).size, 0);
}

const out: string[] = [`node ${process.versions.node}, ${runs} runs per query after 2 warm-ups; zone ${zone.slice(0, 8)}… holds a tenth of the events over 90 days; the month is its last 30 days`, ''];
out.push('| events | query | rows | wall median ms | wall p95 ms | CPU median ms |', '|---|---|---|---|---|---|');
for (const size of sizes) {
  const dir = reuseDir === undefined ? mkdtempSync(join(tmpdir(), 'leakscan-bench-events-')) : join(reuseDir, String(size));
  mkdirSync(dir, { recursive: true });
  const existed = existsSync(join(dir, 'events-index.mdb'));
  const index = openEventIndex(join(dir, 'events-index.mdb'));
  const rng = new Rng(0x5eed);
  try {
    if (built(index, size)) {
      process.stderr.write(`reusing the index of ${size.toLocaleString('en')} events in ${dir}\n`);
      out.push(`| ${size.toLocaleString('en')} | (index reused from an earlier run: ${(dirBytes(dir) / size).toFixed(0)} bytes/event) | | | | |`);
    } else {
      if (existed) process.stderr.write(`the index in ${dir} is incomplete or of an older format: building it\n`);
      process.stderr.write(`building ${size.toLocaleString('en')} events…\n`);
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      await build(index, size, () => rng.next());
      const wall = (performance.now() - t0) / 1000;
      const c = process.cpuUsage(c0);
      const cpu = (c.user + c.system) / 1e6;
      const bytes = dirBytes(dir);
      process.stderr.write(`  ${wall.toFixed(1)} s, index ${(bytes / 2 ** 20).toFixed(0)} MiB\n`);
      out.push(`| ${size.toLocaleString('en')} | (indexing: ${wall.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU, ${Math.round(size / cpu).toLocaleString('en')} events per CPU second; index file ${(bytes / 2 ** 20).toFixed(0)} MiB, ${(bytes / size).toFixed(0)} bytes/event) | | | | |`);
    }
    for (const [name, body] of kQueries) {
      const r = await timeQuery(index, body);
      out.push(`| ${size.toLocaleString('en')} | ${name} | ${r.rows} | ${pct(r.wall, 0.5).toFixed(2)} | ${pct(r.wall, 0.95).toFixed(2)} | ${pct(r.cpu, 0.5).toFixed(2)} |`);
      process.stderr.write(`  ${name}: ${pct(r.wall, 0.5).toFixed(2)} ms wall, ${pct(r.cpu, 0.5).toFixed(2)} ms CPU\n`);
    }
  } finally {
    await index.close();
    if (keep) process.stderr.write(`index kept in ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}
process.stdout.write(`${out.join('\n')}\n`);
