/**
 * The Rulesets API error catalogue: every error the API answers with, its HTTP status and its v4
 * numeric code, in one place (documented in docs/api.md; a test checks both ways).
 *
 * Codes marked `confirmed` are Cloudflare's own, observed on the live API (sources in
 * ../shared/reference/rulesets-api.md); the others are assigned by leakscan inside Cloudflare's ranges
 * (7xxx routing, 10xxx auth/not found, 20xxx ruleset validation) because Cloudflare documents none.
 */
export const kApiErrors = {
  // Headers and auth (confirmed: E1, E2, E3/E4).
  INVALID_HEADERS: { status: 400, code: 6003, message: 'Invalid request headers', confirmed: true },
  MISSING_AUTH: { status: 400, code: 9106, message: 'Missing X-Auth-Key, X-Auth-Email or Authorization headers', confirmed: true },
  AUTHENTICATION: { status: 403, code: 10000, message: 'Authentication error', confirmed: true },
  // Routing (confirmed: E11).
  NO_ROUTE: { status: 404, code: 7000, message: 'No route for that URI', confirmed: true },
  BAD_IDENTIFIER: { status: 400, code: 7003, message: 'Could not route to the path, perhaps your object identifier is invalid?', confirmed: true },
  METHOD_NOT_ALLOWED: { status: 405, code: 7001, message: 'Method not allowed for this route', confirmed: false },
  // Not found (entry point: confirmed E5; the others share its code).
  ENTRYPOINT_NOT_FOUND: { status: 404, code: 10003, message: 'could not find entrypoint ruleset', confirmed: true },
  RULESET_NOT_FOUND: { status: 404, code: 10003, message: 'could not find ruleset', confirmed: false },
  RULE_NOT_FOUND: { status: 404, code: 10003, message: 'could not find rule', confirmed: false },
  VERSION_NOT_FOUND: { status: 404, code: 10003, message: 'could not find ruleset version', confirmed: false },
  // Request bodies and parameters.
  INVALID_JSON: { status: 400, code: 20001, message: 'invalid JSON', confirmed: false },
  INVALID_VALUE: { status: 400, code: 20002, message: 'invalid value', confirmed: false },
  INVALID_EXPRESSION: { status: 400, code: 20003, message: 'invalid expression', confirmed: false },
  BLANK_EXPRESSION: { status: 400, code: 20125, message: 'the expression cannot be blank', confirmed: true },
  ACTION_REQUIRED: { status: 400, code: 20004, message: 'action is required for action parameters', confirmed: false },
  ACTION_NOT_ALLOWED: { status: 400, code: 20005, message: 'action not allowed', confirmed: false },
  OVERRIDE_ACTION: { status: 400, code: 20006, message: 'Sensitive Data Detection rules always log; the action cannot be overridden', confirmed: false },
  UNKNOWN_MANAGED_RULESET: { status: 400, code: 20007, message: 'the ruleset to execute does not exist', confirmed: false },
  UNKNOWN_MANAGED_RULE: { status: 400, code: 20008, message: 'unknown rule or tag of the managed ruleset', confirmed: false },
  POSITION_OUT_OF_RANGE: { status: 400, code: 20009, message: 'invalid rule position', confirmed: false },
  DUPLICATE: { status: 400, code: 20010, message: 'duplicate identifier', confirmed: false },
  SECOND_ENTRYPOINT: { status: 400, code: 20217, message: 'exceeded maximum number of zone rulesets for phase', confirmed: true },
  UNSUPPORTED_PHASE: { status: 400, code: 20011, message: 'phase not supported', confirmed: false },
  IMMUTABLE: { status: 400, code: 20012, message: 'field cannot be changed', confirmed: false },
  MANAGED_READ_ONLY: { status: 400, code: 20013, message: 'managed rulesets cannot be changed, only overridden from an execute rule', confirmed: false },
  RULESET_IN_USE: { status: 400, code: 20014, message: 'the ruleset is referenced by an execute rule', confirmed: false },
  LATEST_VERSION: { status: 400, code: 20015, message: 'the latest version of a ruleset cannot be deleted', confirmed: false },
  LIMIT_EXCEEDED: { status: 400, code: 20016, message: 'limit exceeded', confirmed: false },
  INVALID_DRY_RUN: { status: 400, code: 20017, message: 'dry_run must be true or false', confirmed: false },
  PAYLOAD_TOO_LARGE: { status: 413, code: 20018, message: 'request body too large', confirmed: false },
  INTERNAL: { status: 500, code: 10001, message: 'internal error', confirmed: false },
} as const;

export type ApiErrorName = keyof typeof kApiErrors;

/** One `errors[]` entry of the v4 envelope (the SDK's `ResponseInfo`, plus `error_chain` for header errors). */
export interface ApiErrorEntry {
  code: number;
  message: string;
  source?: { pointer: string };
  error_chain?: { code: number; message: string }[];
}

/**
 * An error the Rulesets API answers with. `message` is the full text sent to the client; `pointer`
 * is the JSON pointer of the offending request field, when there is one.
 * @example
 * throw new RulesetsApiError('RULESET_NOT_FOUND', `could not find ruleset ${id}`);
 */
export class RulesetsApiError extends Error {
  readonly errorName: ApiErrorName;
  readonly status: number;
  readonly code: number;
  readonly pointer: string | undefined;
  readonly chain: { code: number; message: string }[] | undefined;
  constructor(name: ApiErrorName, message?: string, extra?: { pointer?: string; chain?: { code: number; message: string }[] }) {
    super(message ?? kApiErrors[name].message);
    this.name = 'RulesetsApiError';
    this.errorName = name;
    this.status = kApiErrors[name].status;
    this.code = kApiErrors[name].code;
    this.pointer = extra?.pointer;
    this.chain = extra?.chain;
  }

  toEntry(): ApiErrorEntry {
    const entry: ApiErrorEntry = { code: this.code, message: this.message };
    if (this.pointer !== undefined) entry.source = { pointer: this.pointer };
    if (this.chain !== undefined) entry.error_chain = this.chain;
    return entry;
  }
}

/** `'<value>' is not a valid value for <field> because <reason>`: Cloudflare's validation wording (E6, E10). */
export function invalidValue(name: ApiErrorName, field: string, value: unknown, reason: string, pointer?: string): RulesetsApiError {
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  return new RulesetsApiError(name, `'${shown}' is not a valid value for ${field} because ${reason}`, pointer === undefined ? undefined : { pointer });
}
