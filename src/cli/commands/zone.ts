import { type Command, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LeakscanError, type Code } from '../../errors.js';
import { escapeControls } from '../../report/index.js';
import { hostName, isZoneId, zoneOfIdOrHost } from '../../eventlog/index.js';
import { runningService } from '../../serve/index.js';
import type { CliIO } from '../io.js';
import { ApiClient, apiBase } from '../zone/api.js';
import { deployZone, disableZone, zoneStatus, type ZoneState, type ZoneTarget } from '../zone/procedure.js';

interface ZoneCliOptions {
  zone: string;
  data?: string;
  api?: string;
  token?: string;
  format: 'text' | 'json';
  json?: boolean;
}

/** Exit codes of `leakscan zone`, by error code (documented in docs/cli.md and in `--help`, src/cli/help.ts). */
const kExitOf: Partial<Record<Code, number>> = {
  SDD_ERR_API_REFUSED: 1,
  SDD_ERR_INVALID_ZONE: 2,
  SDD_ERR_INVALID_OPTION: 2,
  SDD_ERR_API_UNREACHABLE: 3,
  SDD_ERR_API_AUTH: 4,
};

function target(value: string): ZoneTarget {
  const zone = zoneOfIdOrHost(value);
  if (zone === undefined) throw new LeakscanError('SDD_ERR_INVALID_ZONE', `--zone ${JSON.stringify(value)} (expected a host name such as shop.example, or 32 hexadecimal digits)`);
  return { zone, host: isZoneId(value.trim().toLowerCase()) ? null : hostName(value) || value.trim().toLowerCase() };
}

/**
 * The API and token to use: `--api URL` with `--token`, `LEAKSCAN_API_TOKEN` or (with `--data`) DIR's
 * admin token; else the service running on `--data DIR` (default .leakscan), found through its pid
 * file, and its admin token. DIR's token is never sent to a URL DIR did not name unless asked for.
 */
function connect(opts: ZoneCliOptions, io: CliIO): ApiClient {
  const given = opts.token ?? (process.env['LEAKSCAN_API_TOKEN'] || undefined);
  const dataDir = resolve(io.cwd, opts.data ?? '.leakscan');
  const adminToken = (): string => {
    const file = join(dataDir, 'admin-token');
    try {
      return readFileSync(file, 'utf8').trim();
    } catch (e) {
      throw new LeakscanError('SDD_ERR_API_AUTH', `no token: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); give --token or set LEAKSCAN_API_TOKEN`);
    }
  };
  if (opts.api !== undefined) {
    const base = apiBase(opts.api);
    if (given !== undefined) return new ApiClient(base, given);
    if (opts.data === undefined) throw new LeakscanError('SDD_ERR_API_AUTH', 'no token: with --api, give --token, set LEAKSCAN_API_TOKEN, or --data DIR (its admin-token)');
    return new ApiClient(base, adminToken());
  }
  const info = runningService(dataDir);
  if (info === undefined) {
    throw new LeakscanError('SDD_ERR_API_UNREACHABLE', `no leakscan serve runs on ${dataDir} (no live ${join(dataDir, 'serve.pid')}); start one with \`leakscan serve --data ${opts.data ?? '.leakscan'}\`, or give --api URL`);
  }
  return new ApiClient(info.api.url, given ?? adminToken());
}

function stateLines(s: ZoneState): string[] {
  const lines = [`zone ${s.zone}${s.host === null ? '' : ` (${escapeControls(s.host)})`}`];
  if (s.entrypoint === null) {
    lines.push(`no entry point in http_response_firewall_managed: ${s.managedRuleset.name} is not deployed`);
    return lines;
  }
  lines.push(`entry point ${s.entrypoint.id}, version ${s.entrypoint.version}`);
  const n = s.executeRules.length;
  if (n === 0) lines.push(`no execute rule of ${s.managedRuleset.name} (${s.managedRuleset.id}): not deployed`);
  s.executeRules.forEach((r, i) => {
    lines.push(`execute rule ${i + 1} of ${n}: ${r.id}  ${r.enabled ? 'enabled' : 'disabled'}`);
    lines.push(`  expression: ${escapeControls(r.expression)}`);
    lines.push(`  overrides: ${escapeControls(r.summary)}`);
    lines.push(`  sensitivity level: ${r.sensitivity_level}`);
  });
  return lines;
}

/** The warning for a zone with several execute rules: each enabled one scans every response it matches. */
function warnings(s: ZoneState): string[] {
  const n = s.executeRules.length;
  if (n < 2) return [];
  const on = s.executeRules.filter((r) => r.enabled).length;
  return [
    `zone ${s.zone} has ${n} execute rules of the managed ruleset (${on} enabled): every enabled one scans the responses its expression matches, and a rule run by two keeps its findings at the lower threshold. Keep one: DELETE /zones/${s.zone}/rulesets/${s.entrypoint?.id}/rules/<id>, or the dashboard`,
  ];
}

/** `leakscan zone deploy|status|disable`: see docs/cli.md, "leakscan zone". */
export function registerZone(program: Command, io: CliIO, setExit: (code: number) => void): void {
  const zone = program
    .command('zone')
    .description('deploy, inspect or disable the managed ruleset on a zone of a running `leakscan serve` (spec A1 → A2/A3)');
  const common = (cmd: Command): Command =>
    cmd
      .requiredOption('-z, --zone <host|id>', 'the zone: a host name (its derived zone id, as the proxy maps it) or a 32-hex zone id')
      .option('-d, --data <dir>', 'data directory of the running service: its API URL from DIR/serve.pid, its token from DIR/admin-token (default .leakscan)')
      .option('--api <url>', 'Rulesets API base URL instead (e.g. http://127.0.0.1:8787/client/v4)')
      .option('--token <token>', 'API token (default: $LEAKSCAN_API_TOKEN, else DIR/admin-token)')
      .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
      .option('--json', 'the same as --format json');

  const run = async (opts: ZoneCliOptions, fn: (api: ApiClient, t: ZoneTarget) => Promise<{ line?: string; state: ZoneState; extra?: Record<string, unknown> }>): Promise<void> => {
    try {
      const t = target(opts.zone);
      const r = await fn(connect(opts, io), t);
      if (opts.json === true || opts.format === 'json') {
        io.stdout.write(`${JSON.stringify({ ...r.extra, ...r.state, warnings: warnings(r.state) }, null, 2)}\n`);
      } else {
        if (r.line !== undefined) io.stdout.write(`${r.line}\n`);
        io.stdout.write(`${stateLines(r.state).join('\n')}\n`);
      }
      for (const w of warnings(r.state)) io.stderr.write(`leakscan: warning: ${w}\n`);
      setExit(0);
    } catch (e) {
      if (!(e instanceof LeakscanError) || kExitOf[e.code] === undefined) throw e;
      io.stderr.write(`leakscan: ${e.code}: ${e.message}\n`);
      setExit(kExitOf[e.code]!);
    }
  };

  common(zone.command('deploy').description('deploy the managed ruleset on the zone; run again, it enables the rule that is there instead of adding one'))
    .action((opts: ZoneCliOptions) =>
      run(opts, async (api, t) => {
        const r = await deployZone(api, t);
        const what = {
          created: `created the entry point with execute rule ${r.rule} (A3)`,
          added: `added execute rule ${r.rule} to the entry point (A2)`,
          enabled: `enabled execute rule ${r.rule}, which was disabled`,
          unchanged: `already deployed: execute rule ${r.rule} is enabled; nothing changed`,
        }[r.action];
        return { line: `deploy: ${what}`, state: r.state, extra: { action: r.action, rule: r.rule } };
      }),
    );

  common(zone.command('status').description("print the zone's execute rules of the managed ruleset; warns when there are two or more"))
    .action((opts: ZoneCliOptions) => run(opts, async (api, t) => ({ state: await zoneStatus(api, t) })));

  common(zone.command('disable').description('disable every execute rule of the managed ruleset on the zone (they stay, disabled)'))
    .action((opts: ZoneCliOptions) =>
      run(opts, async (api, t) => {
        const r = await disableZone(api, t);
        const line = r.action === 'disabled' ? `disable: disabled execute rule${r.rules.length === 1 ? '' : 's'} ${r.rules.join(', ')}` : 'disable: no enabled execute rule; nothing changed';
        return { line, state: r.state, extra: { action: r.action, rules: r.rules } };
      }),
    );
}
