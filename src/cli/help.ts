/**
 * What `--help` adds after commander's option list, for the program and every command: its exit
 * codes and examples. Kept in one table so every command has both (test/cli/help.test.ts checks it,
 * and that the paths in the examples exist in the repository). Examples run from a clone's root.
 */
import type { Command } from 'commander';

interface Help {
  exit: ReadonlyArray<readonly [code: string, meaning: string]>;
  examples: readonly string[];
}

const kUsage = ['2', 'usage error (bad option or argument)'] as const;
const kDone: Help['exit'] = [['0', 'done'], kUsage];

const kServeExit: Help['exit'] = [
  ['0', 'stopped cleanly (Ctrl-C, SIGTERM or `leakscan stop`): events written, data directory released'],
  ['2', 'could not start: bad option, port in use, data directory in use (SERVE_ERR_* in the message)'],
  ['130', 'a second Ctrl-C or SIGTERM ended it at once; events not yet written are lost'],
];

const kZoneExit: Help['exit'] = [
  ['0', 'done (status: the zone was read, whatever it holds)'],
  ['1', 'the API refused a call (SDD_ERR_API_REFUSED; the v4 code is shown)'],
  ['2', 'usage error: bad option, --zone neither a host name nor a zone id (SDD_ERR_INVALID_ZONE)'],
  ['3', 'no service answers: nothing runs on --data DIR, or nothing at --api URL (SDD_ERR_API_UNREACHABLE)'],
  ['4', 'no token, or the token is refused (SDD_ERR_API_AUTH)'],
];

const kAuditExit: Help['exit'] = [
  ['0', 'done (verify: the record is valid)'],
  ['1', 'the log refused the call, found nothing, or the record is not valid'],
  ['2', 'usage error, or the log cannot be reached'],
];

/** By command path (`''` is the program, `token create` a subcommand). */
export const kHelp: Readonly<Record<string, Help>> = {
  '': {
    exit: [
      ['0', 'success; scan: no findings'],
      ['1', 'scan: findings; verify: something does not verify; zone, audit: the service refused; stop: still running'],
      ['2', 'usage error, or (scan) an input that could not be read'],
      ['3, 4', 'zone: no service answers; the token is refused'],
    ],
    examples: [
      'leakscan scan corpus/samples',
      'leakscan scan --format sarif --output leakscan.sarif corpus/samples',
      'leakscan rules',
      'leakscan demo                                   # the service on sample data (npm start)',
      'leakscan zone deploy --zone shop.example        # on a running `leakscan serve`',
      'leakscan <command> --help',
    ],
  },
  scan: {
    exit: [
      ['0', 'no findings'],
      ['1', 'at least one finding'],
      ['2', 'usage error (bad option, unknown rule id or tag, unwritable --output) or input error (a path could not be read, an archive that is not one); wins over 1'],
    ],
    examples: [
      'leakscan scan corpus/samples                                      # a folder, recursively',
      'leakscan scan --format sarif --output leakscan.sarif corpus/samples',
      'leakscan scan --min-confidence medium corpus/samples/hr-export.csv',
      'leakscan scan --enable secrets --disable email-address corpus/samples/app.env',
      'leakscan scan test/cli/fixtures/synthetic.har                     # each response body of a HAR',
      'gzip -c corpus/samples/user.json | leakscan scan -                # standard input; gzip recognised',
    ],
  },
  rules: {
    exit: kDone,
    examples: ['leakscan rules', "leakscan rules --format json | jq -r '.[] | select(.enabledByDefault | not) | .id'"],
  },
  token: {
    exit: kDone,
    examples: ['leakscan token create --name ci --zone 023e105f4ecef8ad9ca31a8372d0c353 --permission edit', 'leakscan token list', 'leakscan token revoke ID'],
  },
  'token create': {
    exit: kDone,
    examples: ['leakscan token create --name ci --zone 023e105f4ecef8ad9ca31a8372d0c353 --permission edit   # prints the token once', 'leakscan token create --name viewer --all-zones'],
  },
  'token list': { exit: kDone, examples: ['leakscan token list', 'leakscan token list --format json --data .leakscan'] },
  'token revoke': { exit: [['0', 'revoked'], ['2', 'usage error, or no token has that id']], examples: ['leakscan token revoke ID      # ID from `leakscan token list`'] },
  audit: {
    exit: kAuditExit,
    examples: ['leakscan audit namespaces', 'leakscan audit get events.ZONE latest', 'leakscan audit verify events.ZONE 3'],
  },
  'audit get': { exit: kAuditExit, examples: ['leakscan audit get events.ZONE latest', 'leakscan audit get events.ZONE 1 --url https://127.0.0.1:8788'] },
  'audit publish': { exit: kAuditExit, examples: ['leakscan audit publish NAMESPACE 1 DIGEST     # DIGEST: 64 hex digits; uses DIR/tls/client.pem'] },
  'audit verify': {
    exit: kAuditExit,
    examples: ['leakscan audit verify events.ZONE latest', 'leakscan audit verify events.ZONE 3 --public-key KEY     # KEY: the line `leakscan serve` prints'],
  },
  'audit namespaces': { exit: kAuditExit, examples: ['leakscan audit namespaces --data .leakscan'] },
  'audit namespace': { exit: kAuditExit, examples: ['leakscan audit namespace create mylog', 'leakscan audit namespace disable mylog'] },
  'audit namespace create': { exit: kAuditExit, examples: ['leakscan audit namespace create mylog'] },
  'audit namespace disable': { exit: kAuditExit, examples: ['leakscan audit namespace disable mylog'] },
  serve: {
    exit: kServeExit,
    examples: [
      'leakscan serve                                                    # API and dashboard on :8787, data in .leakscan',
      'leakscan serve --origin http://127.0.0.1:3000 --proxy-port 8080   # and the scanning proxy',
      'leakscan serve --origin http://127.0.0.1:3000 --zone shop.example=023e105f4ecef8ad9ca31a8372d0c353',
    ],
  },
  demo: {
    exit: kServeExit,
    examples: ['leakscan demo                                     # what npm start runs', 'leakscan demo --samples corpus/samples --port 0 --proxy-port 0'],
  },
  stop: {
    exit: [
      ['0', 'stopped'],
      ['1', 'still running after --timeout (SERVE_ERR_STOP_TIMEOUT), or it exited without closing its stores'],
      ['2', 'nothing runs on the data directory (SERVE_ERR_NOT_RUNNING), or usage error'],
    ],
    examples: ['leakscan stop', 'leakscan stop --data .leakscan --timeout 60'],
  },
  verify: {
    exit: [
      ['0', 'every batch verifies (with --event or --proof: the event is proven)'],
      ['1', 'something does not (the report says what; with --event or --proof, an SDD_ERR_PROOF_* or SDD_ERR_EVENT_NOT_FOUND code)'],
      ['2', 'usage error, no data in the directory, or the directory is in use by a running service'],
    ],
    examples: [
      'leakscan stop && leakscan verify',
      'leakscan verify --zone shop.example --format json',
      'leakscan verify --event ID --format json     # prints the proof; ID: an event id (leakscan events)',
      'leakscan verify --proof proof.json --public-key KEY       # anyone: KEY is the line `leakscan serve` prints',
    ],
  },
  batcher: {
    exit: [
      ['0', 'stopped cleanly (Ctrl-C or SIGTERM): the batch in progress was written and published'],
      ['2', 'usage error: bad option, --nats or --s3 not a valid URL, S3 credentials, the signing key or a --nats-* file missing (SDD_ERR_FLEET_OPTION)'],
      ['3', 'the NATS server does not answer or runs without JetStream (SDD_ERR_BUS_UNREACHABLE)'],
      ['4', 'the NATS server refuses the login, or the TLS handshake with it fails (SDD_ERR_BUS_AUTH)'],
    ],
    examples: [
      'leakscan batcher --nats nats://127.0.0.1:4222                  # embedded stores of .leakscan (serve stopped)',
      'leakscan batcher --nats nats://10.0.0.5:4222 --s3 http://10.0.0.6:7480/leakscan?if-match=unquoted --data .leakscan',
    ],
  },
  'scan-worker': {
    exit: [
      ['0', 'stopped cleanly (Ctrl-C or SIGTERM): the bodies in hand were published and acknowledged'],
      ['2', 'usage error: bad option, --nats not a nats:// or tls:// URL, a --nats-* file missing (SDD_ERR_FLEET_OPTION)'],
      ['3', 'the NATS server does not answer or runs without JetStream (SDD_ERR_BUS_UNREACHABLE)'],
      ['4', 'the NATS server refuses the login, or the TLS handshake with it fails (SDD_ERR_BUS_AUTH)'],
    ],
    examples: ['leakscan scan-worker --nats nats://127.0.0.1:4222            # bodies from `serve --nats URL --scan remote`', 'leakscan scan-worker --nats nats://10.0.0.5:4222 --workers 2', 'LEAKSCAN_NATS_PASSWORD=… leakscan scan-worker --nats tls://10.0.0.5:4222 --nats-user scanner --nats-tls-ca ca.pem'],
  },
  events: {
    exit: [
      ['0', 'done (also when the zone has no events)'],
      ['2', 'usage error: bad option or time, --zone neither a host name nor a zone id, no stored events in --data DIR'],
    ],
    examples: ['leakscan events --zone shop.example --since 24h', 'leakscan events --zone shop.example --since 2026-05-01T00:00:00Z --rule card-visa,us-ssn --format json'],
  },
  zone: { exit: kZoneExit, examples: ['leakscan zone deploy --zone shop.example', 'leakscan zone status --zone shop.example --json', 'leakscan zone disable --zone shop.example'] },
  'zone deploy': {
    exit: kZoneExit,
    examples: [
      'leakscan zone deploy --zone shop.example                          # the service running on .leakscan',
      'leakscan zone deploy --zone 023e105f4ecef8ad9ca31a8372d0c353 --api http://127.0.0.1:8787 --token "$TOKEN"',
    ],
  },
  'zone status': { exit: kZoneExit, examples: ['leakscan zone status --zone shop.example', 'leakscan zone status --zone shop.example --data .leakscan --json'] },
  'zone disable': { exit: kZoneExit, examples: ['leakscan zone disable --zone shop.example'] },
};

export function helpText(h: Help): string {
  const width = Math.max(...h.exit.map(([c]) => c.length));
  const exit = h.exit.map(([c, m]) => `  ${c.padEnd(width)}  ${m}`);
  return `\nExit codes:\n${exit.join('\n')}\n\nExamples:\n${h.examples.map((e) => `  ${e}`).join('\n')}\n`;
}

/** The command's path below the program: `token create`. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Adds exit codes and examples to the help of the program and of every command that has them. */
export function addHelp(program: Command): void {
  const visit = (cmd: Command): void => {
    const h = kHelp[commandPath(cmd)];
    if (h !== undefined) cmd.addHelpText('after', helpText(h));
    for (const sub of cmd.commands) visit(sub);
  };
  visit(program);
}
