/**
 * The error and notice catalogue. Every code is stable, documented in docs/errors.md (a test checks
 * both ways) and carries its message template and, for HTTP surfaces, a status.
 */
export const kCodes = {
  // Scan notices: the body was (partly) not scanned; scanning itself never throws for a bad body.
  SDD_SKIP_BINARY: { status: 0, message: 'binary content is not scanned' },
  SDD_SKIP_ENCODING: { status: 0, message: 'unsupported Content-Encoding; body not scanned' },
  SDD_BODY_TRUNCATED: { status: 0, message: 'body longer than the scan cap; the rest was counted, not scanned' },
  SDD_FINDINGS_TRUNCATED: { status: 0, message: 'too many findings in one body; later ones were not reported' },
  SDD_CONFIRM_BUDGET: { status: 0, message: 'some candidate windows matched everywhere and failed every check; the rest of those windows was skipped' },
  SDD_INVALID_UTF8: { status: 0, message: 'invalid byte sequences were replaced by U+FFFD' },
  SDD_UNSUPPORTED_CHARSET: { status: 0, message: 'charset not supported; body scanned as UTF-8' },
  SDD_DECODE_ERROR: { status: 0, message: 'Content-Encoding stream is corrupt or truncated; scanned what could be decoded' },
  SDD_STREAM_ERROR: { status: 0, message: 'the body stream failed; scanned what was received' },
  // Errors thrown to callers.
  SDD_ERR_UNKNOWN_RULE: { status: 400, message: 'unknown rule id or tag' },
  SDD_ERR_INVALID_OPTION: { status: 400, message: 'invalid option' },
  SDD_ERR_BACKEND_UNAVAILABLE: { status: 500, message: 'regular-expression backend not available' },
  SDD_ERR_SCANNER_CLOSED: { status: 500, message: 'the scanner is closed' },
  SDD_ERR_POOL_QUEUE_FULL: { status: 503, message: 'the worker pool queue is full' },
  SDD_ERR_WORKER_FAILED: { status: 500, message: 'a scan worker failed' },
  SDD_ERR_INPUT: { status: 400, message: 'an input could not be read' },
  SDD_ERR_INPUT_FORMAT: { status: 400, message: 'an archive input (HAR, WARC) is not one' },
  SDD_ERR_SCAN_FAILED: { status: 500, message: 'the scan failed' },
  // `leakscan zone`: talking to a running service's Rulesets API.
  SDD_ERR_INVALID_ZONE: { status: 400, message: 'not a zone id (32 hexadecimal digits) nor a host name' },
  SDD_ERR_API_UNREACHABLE: { status: 503, message: 'the Rulesets API cannot be reached (is `leakscan serve` running?)' },
  SDD_ERR_API_AUTH: { status: 403, message: 'the Rulesets API refused the token, or no token was found' },
  SDD_ERR_API_REFUSED: { status: 400, message: 'the Rulesets API refused the call' },
  // Inclusion proofs of stored events (`leakscan verify --event`, the events proof endpoint).
  SDD_ERR_PROOF_MALFORMED: { status: 400, message: 'not an inclusion proof' },
  SDD_ERR_PROOF_SIGNATURE: { status: 422, message: "the proof's epoch record does not verify with the audit log's keys" },
  SDD_ERR_PROOF_PATH: { status: 422, message: 'the event and its audit path do not lead to the signed epoch digest' },
  SDD_ERR_PROOF_EVENT: { status: 422, message: 'the proof is not for the event asked about' },
  SDD_ERR_EVENT_NOT_FOUND: { status: 404, message: 'no stored event has this id' },
  SDD_ERR_PROOF_UNAVAILABLE: { status: 409, message: 'the event has no inclusion proof yet' },
  // The events query (`POST /client/v4/graphql`, `leakscan events`). The endpoint answers these with
  // HTTP 200 and the code in the GraphQL error's `extensions`, as Cloudflare's GraphQL API does.
  SDD_ERR_GRAPHQL_REQUEST: { status: 200, message: 'not a GraphQL request: the body must be a JSON object with a `query` string' },
  SDD_ERR_GRAPHQL_SYNTAX: { status: 200, message: 'the query is not valid GraphQL syntax' },
  SDD_ERR_GRAPHQL_VALIDATION: { status: 200, message: 'the query asks for a field, argument or type the schema does not have' },
  SDD_ERR_GRAPHQL_ARGUMENT: { status: 200, message: 'error parsing args' },
  SDD_ERR_GRAPHQL_ZONE: { status: 200, message: 'zones are not authorized' },
  SDD_ERR_GRAPHQL_INTERNAL: { status: 200, message: 'internal error' },
  // Alerts (the Notifications API under /client/v4/accounts/{account_id}/alerting/v3, webhook delivery);
  // `v4` is the number of the v4 envelope's error entry.
  SDD_ERR_ALERT_FORBIDDEN: { status: 403, v4: 10000, message: "alerting is managed with an all-zones token, on the service's account id" },
  SDD_ERR_ALERT_INVALID: { status: 400, v4: 20002, message: 'invalid value' },
  SDD_ERR_ALERT_UNSUPPORTED: { status: 400, v4: 20002, message: 'not supported by leakscan alerting' },
  SDD_ERR_ALERT_NOT_FOUND: { status: 404, v4: 10003, message: 'could not find' },
  SDD_ERR_ALERT_IN_USE: { status: 400, v4: 20014, message: 'the destination is used by a policy' },
  SDD_ERR_ALERT_DELIVERY: { status: 502, message: 'the webhook did not accept the alert' },
  // Logpush-style export jobs (`/client/v4/zones/{zone_id}/logpush/jobs`, src/logpush); a delivery
  // failure is not an API answer: it is the job's `error_message`.
  SDD_ERR_LOGPUSH_JOB_NOT_FOUND: { status: 404, v4: 10003, message: 'no Logpush job of this zone has this id' },
  SDD_ERR_LOGPUSH_DATASET: { status: 400, v4: 20002, message: 'the dataset is not one a job can push (only firewall_events)' },
  SDD_ERR_LOGPUSH_DESTINATION: { status: 400, v4: 20002, message: 'destination_conf is not a supported destination (an https:// URL)' },
  SDD_ERR_LOGPUSH_INVALID: { status: 400, v4: 20002, message: 'invalid Logpush job' },
  SDD_ERR_LOGPUSH_DELIVERY: { status: 502, message: 'the destination did not accept a file' },
  // The fleet roles on NATS JetStream (`serve --nats`, `leakscan batcher`, `leakscan scan-worker`, src/fleet).
  SDD_ERR_FLEET_OPTION: { status: 400, message: 'a fleet option (--nats, --s3, their settings) is invalid' },
  SDD_ERR_BUS_UNREACHABLE: { status: 503, message: 'the NATS server cannot be reached, or it runs without JetStream' },
  SDD_ERR_BUS_AUTH: { status: 403, message: 'the NATS server refused the login, or the TLS handshake with it failed' },
  SDD_ERR_BUS_MESSAGE: { status: 400, message: 'a message on the bus is not what its subject carries' },
} as const;

export type Code = keyof typeof kCodes;

/** Base class of every error leakscan throws: a literal `code` from the catalogue. */
export class LeakscanError extends Error {
  readonly code: Code;
  readonly status: number;
  constructor(code: Code, detail?: string, options?: { cause?: unknown }) {
    super(detail ? `${kCodes[code].message}: ${detail}` : kCodes[code].message, options);
    this.name = 'LeakscanError';
    this.code = code;
    this.status = kCodes[code].status;
  }
}

/** A notice for a scan report. */
export function notice(code: Code, detail?: string): { code: string; message: string } {
  return { code, message: detail ? `${kCodes[code].message}: ${detail}` : kCodes[code].message };
}
