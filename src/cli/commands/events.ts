import { type Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { executeEventsQuery, kMaxLimit, openEventIndex, storedBatches, type EventIndex } from '../../events/index.js';
import { zoneOfIdOrHost } from '../../eventlog/index.js';
import { openBucket } from '../../storage/index.js';
import { type CliIO, UsageError } from '../io.js';

interface EventsCliOptions {
  data: string;
  zone: string;
  since?: string;
  until?: string;
  rule?: string;
  limit: string;
  order: 'asc' | 'desc';
  format: 'ndjson' | 'json';
}

/** The fields printed per event: every one the service records, under Cloudflare's names. */
const kFields = ['datetime', 'action', 'source', 'ruleId', 'rulesetId', 'description', 'clientRequestHTTPHost', 'clientRequestHTTPMethodName', 'clientRequestPath', 'edgeResponseStatus', 'originResponseStatus', 'rayName'];

const kQuery = `query LeakscanEvents($zoneTag: string, $filter: FirewallEventsAdaptiveFilter_InputObject, $limit: uint64, $order: [FirewallEventsAdaptiveOrderBy!]) {
  viewer { zones(filter: { zoneTag: $zoneTag }) { firewallEventsAdaptive(filter: $filter, limit: $limit, orderBy: $order) { ${kFields.join(' ')} } } }
}`;

/** `2026-05-01T12:00:00Z`, or a duration back from now: `90m`, `24h`, `7d`. */
export function parseWhen(value: string, now: number, option: string): string {
  const rel = /^(\d+)([smhd])$/.exec(value);
  if (rel) {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 's' | 'm' | 'h' | 'd'];
    return new Date(now - Number(rel[1]) * unit).toISOString();
  }
  if (!Number.isFinite(Date.parse(value)) || !/^\d{4}-\d\d-\d\d/.test(value)) {
    throw new UsageError(`${option} ${JSON.stringify(value)}: give an RFC 3339 time (2026-05-01T12:00:00Z) or a duration back from now (90m, 24h, 7d)`);
  }
  return new Date(Date.parse(value)).toISOString();
}

/** Indexes the batches the index lacks, when DIR's bucket is free (a running service keeps the index current itself). */
async function catchUp(dataDir: string, index: EventIndex): Promise<void> {
  let bucket;
  try {
    bucket = await openBucket({ dir: join(dataDir, 'events') });
  } catch {
    return;
  }
  try {
    await index.catchUp(storedBatches(bucket));
  } finally {
    await bucket.close();
  }
}

function variablesOf(opts: EventsCliOptions, zone: string): Record<string, unknown> {
  const limit = Number(opts.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > kMaxLimit) throw new UsageError(`--limit ${opts.limit}: give an integer from 1 to ${kMaxLimit}`);
  const now = Date.now();
  const filter: Record<string, unknown> = {};
  if (opts.since !== undefined) filter['datetime_geq'] = parseWhen(opts.since, now, '--since');
  if (opts.until !== undefined) filter['datetime_lt'] = parseWhen(opts.until, now, '--until');
  if (opts.rule !== undefined) filter['ruleId_in'] = opts.rule.split(',').map((r) => r.trim()).filter(Boolean);
  return { zoneTag: zone, filter, limit, order: [opts.order === 'asc' ? 'datetime_ASC' : 'datetime_DESC'] };
}

/**
 * `leakscan events`: a zone's stored security events (redacted), read through the same GraphQL query
 * the service answers at `POST /client/v4/graphql`. Works beside a running `leakscan serve`. Exit 0,
 * or 2 on a usage error. See docs/cli.md.
 */
export function registerEvents(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('events')
    .description("a zone's stored security events (redacted), as the GraphQL endpoint's firewallEventsAdaptive answers them")
    .addOption(new Option('-d, --data <dir>', 'data directory of the service').default('.leakscan'))
    .requiredOption('-z, --zone <zone>', 'zone id, or a host name (its derived zone id)')
    .option('--since <time>', 'from this time on: RFC 3339, or a duration back from now (24h, 7d)')
    .option('--until <time>', 'before this time: RFC 3339, or a duration back from now')
    .option('--rule <ids>', 'only these rule ids (comma-separated)')
    .addOption(new Option('-n, --limit <n>', `at most this many events (1-${kMaxLimit})`).default('1000'))
    .addOption(new Option('--order <order>', 'oldest or newest first').choices(['asc', 'desc']).default('desc'))
    .addOption(new Option('-f, --format <format>', 'output format').choices(['ndjson', 'json']).default('ndjson'))
    .action(async (opts: EventsCliOptions) => {
      const zone = zoneOfIdOrHost(opts.zone);
      if (zone === undefined) throw new UsageError(`SDD_ERR_INVALID_ZONE: --zone ${JSON.stringify(opts.zone)} is not a zone id (32 hexadecimal digits) nor a host name`);
      const dataDir = resolve(io.cwd, opts.data);
      if (!existsSync(join(dataDir, 'events')) && !existsSync(join(dataDir, 'events-index.mdb'))) {
        throw new UsageError(`SDD_ERR_INPUT: ${dataDir} holds no stored events (no events/ and no events-index.mdb)`);
      }
      const variables = variablesOf(opts, zone);
      const index = openEventIndex(join(dataDir, 'events-index.mdb'), { log: (line) => io.stderr.write(`${line}\n`) });
      let answer;
      try {
        await catchUp(dataDir, index);
        answer = await executeEventsQuery(index, { query: kQuery, variables }, { canRead: () => true });
      } finally {
        await index.close();
      }
      if (answer.errors !== null) throw new UsageError(answer.errors.map((e) => `${e.extensions.code}: ${e.message}`).join('\n'));
      const zones = (answer.data?.['viewer'] as { zones: { firewallEventsAdaptive: unknown[] }[] }).zones;
      const events = zones[0]?.firewallEventsAdaptive ?? [];
      io.stdout.write(opts.format === 'json' ? `${JSON.stringify(events, null, 2)}\n` : events.map((e) => `${JSON.stringify(e)}\n`).join(''));
      setExit(0);
    });
}
