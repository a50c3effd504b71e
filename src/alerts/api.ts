/**
 * The Notifications API's resources as the official SDK calls them (`alerting.destinations.webhooks`,
 * `alerting.policies`, `alerting.history`, `alerting.availableAlerts`), under
 * `/accounts/{account_id}/alerting/v3/…`. src/api routes each call here (`AlertingCall`, defined there); errors are
 * LeakscanError codes `SDD_ERR_ALERT_*`, answered by the API in the v4 envelope.
 */
import type { AlertingCall } from '../api/index.js';
import { LeakscanError } from '../errors.js';
import { newId, type AlertStore, type DeliveryRecord, type PolicyRecord, type WebhookRecord } from './store.js';

export type { AlertingCall };

export interface AlertingAnswer {
  result: unknown;
  resultInfo?: Record<string, unknown>;
}

/** The WAF alert types of Cloudflare's Notifications (its SDK's names), and what their dashboard calls them. */
export const kAlertTypes = {
  clickhouse_alert_fw_anomaly: { display_name: 'Security Events Alert', description: 'Spikes in security events of every service, per zone.', filter_options: [{ ComparisonOperator: '==', Key: 'zones', Optional: true }] },
  clickhouse_alert_fw_ent_anomaly: {
    display_name: 'Advanced Security Events Alert',
    description: 'Spikes in security events of the chosen services and zones (leakscan: service dlp, Data Loss Protection).',
    filter_options: [{ ComparisonOperator: '==', Key: 'zones', Optional: false }, { ComparisonOperator: '==', Key: 'services', Optional: false }, { ComparisonOperator: '==', Key: 'actions', Optional: true }],
  },
} as const;

/** The service of Sensitive Data Detection's events (GraphQL `source`, the policy filter `services`). */
export const kService = 'dlp';

const invalid = (field: string, why: string): LeakscanError => new LeakscanError('SDD_ERR_ALERT_INVALID', `${field}: ${why}`);

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body', 'must be a JSON object');
  return body as Record<string, unknown>;
}

function str(b: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const v = b[field];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || (required && v.trim() === '')) throw invalid(field, required ? 'a non-empty string is required' : 'must be a string');
  return v;
}

function webhookFields(body: unknown): { name: string; url: string; secret: string | null } {
  const b = objectBody(body);
  const name = str(b, 'name', true)!;
  const url = str(b, 'url', true)!;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalid('url', `${JSON.stringify(url)} is not a URL`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw invalid('url', 'must be an http:// or https:// URL');
  return { name, url, secret: str(b, 'secret', false) ?? null };
}

/** A webhook as the API shows it: never its secret. */
const webhookView = ({ secret: _secret, ...w }: WebhookRecord): Omit<WebhookRecord, 'secret'> => w;

function filtersOf(value: unknown, alertType: string): Record<string, string[]> {
  if (value === undefined) value = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('filters', 'must be an object of string arrays');
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw invalid(`filters.${k}`, 'must be an array of strings');
    out[k] = v as string[];
  }
  for (const z of out['zones'] ?? []) if (!/^[0-9a-f]{32}$/.test(z)) throw invalid('filters.zones', `${JSON.stringify(z)} is not a zone id`);
  if (alertType === 'clickhouse_alert_fw_ent_anomaly') {
    for (const k of ['zones', 'services']) if ((out[k] ?? []).length === 0) throw invalid(`filters.${k}`, 'the Advanced Security Events Alert needs at least one');
  }
  return out;
}

function policyFields(body: unknown, store: AlertStore): Omit<PolicyRecord, 'id' | 'created' | 'modified'> {
  const b = objectBody(body);
  const name = str(b, 'name', true)!;
  const alertType = str(b, 'alert_type', true)!;
  if (!(alertType in kAlertTypes)) throw new LeakscanError('SDD_ERR_ALERT_UNSUPPORTED', `alert_type ${JSON.stringify(alertType)}: one of ${Object.keys(kAlertTypes).join(', ')}`);
  const enabled = b['enabled'] ?? true;
  if (typeof enabled !== 'boolean') throw invalid('enabled', 'must be a boolean');
  const m = b['mechanisms'] ?? {};
  if (typeof m !== 'object' || m === null || Array.isArray(m)) throw invalid('mechanisms', 'must be an object');
  const webhooks: { id: string }[] = [];
  for (const [kind, list] of Object.entries(m)) {
    if (!Array.isArray(list)) throw invalid(`mechanisms.${kind}`, 'must be an array');
    if (list.length === 0) continue;
    if (kind !== 'webhooks') throw new LeakscanError('SDD_ERR_ALERT_UNSUPPORTED', `mechanisms.${kind}: only webhooks deliver alerts`);
    for (const entry of list as unknown[]) {
      const id = (entry as { id?: unknown } | null)?.id;
      if (typeof id !== 'string' || !store.state.webhooks.some((w) => w.id === id)) throw new LeakscanError('SDD_ERR_ALERT_NOT_FOUND', `webhook destination ${JSON.stringify(id)}`);
      webhooks.push({ id });
    }
  }
  return { name, description: str(b, 'description', false) ?? '', enabled, alert_type: alertType, filters: filtersOf(b['filters'], alertType), mechanisms: { webhooks } };
}

function historyView(d: DeliveryRecord, store: AlertStore): Record<string, unknown> {
  const hook = store.state.webhooks.find((w) => w.id === d.destination_id);
  return {
    id: d.id, alert_body: d.body, alert_type: d.alert_type, description: d.text, mechanism: hook?.url ?? d.destination_id, mechanism_type: 'webhook',
    name: d.policy_name, policy_id: d.policy_id, sent: d.sent ?? d.created,
    // leakscan's own: where the delivery stands (history shows pending and failed ones too).
    status: d.status, attempts: d.attempts, last_error: d.last_error, destination_id: d.destination_id,
  };
}

function history(store: AlertStore, query: URLSearchParams): AlertingAnswer {
  const num = (name: string, def: number, max: number): number => {
    const t = query.get(name);
    const n = t === null ? def : Number(t);
    if (!Number.isInteger(n) || n < 1 || n > max) throw invalid(name, `must be an integer from 1 to ${max}`);
    return n;
  };
  const page = num('page', 1, 1_000_000);
  const perPage = num('per_page', 25, 1000);
  const time = (name: string): number | undefined => {
    const t = query.get(name);
    if (t === null) return undefined;
    const ms = Date.parse(t);
    if (Number.isNaN(ms)) throw invalid(name, 'must be an RFC 3339 time');
    return ms;
  };
  const since = time('since');
  const before = time('before');
  const rows = store.state.deliveries
    .filter((d) => (since === undefined || Date.parse(d.created) >= since) && (before === undefined || Date.parse(d.created) < before))
    .reverse();
  const slice = rows.slice((page - 1) * perPage, page * perPage);
  return { result: slice.map((d) => historyView(d, store)), resultInfo: { page, per_page: perPage, count: slice.length, total_count: rows.length } };
}

function find<T extends { id: string }>(list: T[], id: string | undefined, what: string): T {
  const found = list.find((x) => x.id === id);
  if (found === undefined) throw new LeakscanError('SDD_ERR_ALERT_NOT_FOUND', `${what} ${id ?? ''}`);
  return found;
}

/**
 * Answers one Notifications API call against `store`; `onChange` runs after every accepted write.
 * Only a token for every zone may manage alerting (a policy and a destination are the account's, and a
 * policy can name any zone); writes need `edit`, as everywhere in the API.
 */
export async function answerAlerting(store: AlertStore, call: AlertingCall): Promise<AlertingAnswer> {
  if (call.account !== store.state.account_id || !call.token.zones.includes('*')) {
    throw new LeakscanError('SDD_ERR_ALERT_FORBIDDEN', call.account !== store.state.account_id ? `account ${call.account} is not this service's` : 'the token is limited to some zones');
  }
  const s = store.state;
  const now = new Date().toISOString();
  const write = async <T>(change: () => T): Promise<T | null> => {
    if (call.dryRun) return null;
    const out = change();
    await store.save();
    return out;
  };
  switch (`${call.method} ${call.resource}${call.id === undefined ? '' : '/:id'}`) {
    case 'GET available_alerts':
      return { result: { WAF: Object.entries(kAlertTypes).map(([type, t]) => ({ type, ...t })) } };
    case 'GET history':
      return history(store, call.query);
    case 'GET webhooks':
      return { result: s.webhooks.map(webhookView) };
    case 'GET webhooks/:id':
      return { result: webhookView(find(s.webhooks, call.id, 'webhook destination')) };
    case 'POST webhooks': {
      const f = webhookFields(call.body);
      const w: WebhookRecord = { id: newId(), ...f, type: 'generic', created_at: now, last_success: null, last_failure: null };
      return { result: await write(() => (s.webhooks.push(w), { id: w.id })) };
    }
    case 'PUT webhooks/:id': {
      const w = find(s.webhooks, call.id, 'webhook destination');
      const f = webhookFields(call.body);
      return { result: await write(() => (Object.assign(w, f), { id: w.id })) };
    }
    case 'DELETE webhooks/:id': {
      const w = find(s.webhooks, call.id, 'webhook destination');
      const user = s.policies.find((p) => p.mechanisms.webhooks.some((m) => m.id === w.id));
      if (user !== undefined) throw new LeakscanError('SDD_ERR_ALERT_IN_USE', `policy ${user.id} delivers to ${w.id}`);
      await write(() => (s.webhooks = s.webhooks.filter((x) => x !== w)));
      return { result: null };
    }
    case 'GET policies':
      return { result: s.policies };
    case 'GET policies/:id':
      return { result: find(s.policies, call.id, 'policy') };
    case 'POST policies': {
      const p: PolicyRecord = { id: newId(), ...policyFields(call.body, store), created: now, modified: now };
      return { result: await write(() => (s.policies.push(p), { id: p.id })) };
    }
    case 'PUT policies/:id': {
      const p = find(s.policies, call.id, 'policy');
      // The SDK's update makes every field optional: what the body leaves out stays as it was.
      const f = policyFields({ ...p, ...objectBody(call.body) }, store);
      return { result: await write(() => (Object.assign(p, f, { modified: now }), { id: p.id })) };
    }
    case 'DELETE policies/:id': {
      const p = find(s.policies, call.id, 'policy');
      await write(() => (s.policies = s.policies.filter((x) => x !== p)));
      return { result: null };
    }
    default:
      throw new LeakscanError('SDD_ERR_ALERT_UNSUPPORTED', `${call.method} ${call.resource}`);
  }
}
