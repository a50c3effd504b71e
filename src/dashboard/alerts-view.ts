/**
 * The Alerts section of Security › Events: the spike alert policies that cover a zone and their
 * deliveries, read through the Notifications API's own calls (src/alerts `answer`) with the signed-in
 * token, so the page sees what that token sees there. A policy and a destination are the account's
 * (a policy can name any zone), so, as in the API, only a token for every zone reads them.
 */
import type { AlertingAnswer, AlertingCall } from '../alerts/index.js';
import { kAlertTypes } from '../alerts/index.js';
import type { TokenInfo } from '../api/index.js';

/** What `leakscan serve` gives the dashboard of its alerting. */
export interface AlertsSource {
  accountId: string;
  answer(call: AlertingCall): Promise<AlertingAnswer>;
}

export interface PolicyView {
  id: string;
  name: string;
  /** The alert type's display name (`Advanced Security Events Alert`). */
  type: string;
  enabled: boolean;
  /** `every zone`, or the zones it names when this one is among them. */
  zones: string;
  services: string[];
  /** Names of the webhook destinations it delivers to. */
  destinations: string[];
}

export interface DeliveryView {
  id: string;
  policy: string;
  destination: string;
  status: string;
  attempts: number;
  /** When it was delivered, or created while pending or failed (RFC 3339). */
  time: string;
  lastError: string | null;
}

export type AlertsView = { state: 'forbidden' } | { state: 'shown'; policies: PolicyView[]; deliveries: DeliveryView[]; total: number };

/** Deliveries shown, newest first. */
export const kDeliveriesShown = 20;

interface PolicyRecordLike {
  id: string;
  name: string;
  enabled: boolean;
  alert_type: string;
  filters: Record<string, string[]>;
  mechanisms: { webhooks: { id: string }[] };
}

interface HistoryLike {
  id: string;
  alert_body: string;
  name: string;
  policy_id: string;
  sent: string;
  status: string;
  attempts: number;
  last_error: string | null;
  destination_id: string;
}

/** The zone a delivery's payload is about (`data.zone`), or undefined. */
function zoneOfBody(body: string): string | undefined {
  try {
    const zone = (JSON.parse(body) as { data?: { zone?: unknown } }).data?.zone;
    return typeof zone === 'string' ? zone : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The zone's policies and its deliveries, newest first, as `token` may read them.
 * @example
 * const view = await alertsView({ accountId: alerts.accountId, answer: (c) => alerts.answer(c) }, token, zone);
 */
export async function alertsView(source: AlertsSource, token: TokenInfo, zone: string): Promise<AlertsView> {
  if (!token.zones.includes('*')) return { state: 'forbidden' };
  const call = (resource: AlertingCall['resource'], query = ''): Promise<AlertingAnswer> =>
    source.answer({ method: 'GET', resource, account: source.accountId, id: undefined, body: undefined, query: new URLSearchParams(query), token, dryRun: false });
  const policies = (await call('policies')).result as PolicyRecordLike[];
  const hooks = new Map(((await call('webhooks')).result as { id: string; name: string }[]).map((w) => [w.id, w.name]));
  const history = (await call('history', 'per_page=1000')).result as HistoryLike[];
  const covering = policies.filter((p) => (p.filters['zones'] ?? []).length === 0 || p.filters['zones']!.includes(zone));
  const mine = history.filter((h) => zoneOfBody(h.alert_body) === zone);
  return {
    state: 'shown',
    policies: covering.map((p) => {
      const zones = p.filters['zones'] ?? [];
      return {
        id: p.id, name: p.name, type: (kAlertTypes as Record<string, { display_name: string }>)[p.alert_type]?.display_name ?? p.alert_type, enabled: p.enabled,
        zones: zones.length === 0 ? 'every zone' : zones.length === 1 ? 'this zone' : `this zone and ${zones.length - 1} more`,
        services: p.filters['services'] ?? [], destinations: p.mechanisms.webhooks.map((w) => hooks.get(w.id) ?? w.id),
      };
    }),
    deliveries: mine.slice(0, kDeliveriesShown).map((h) => ({
      id: h.id, policy: h.name, destination: hooks.get(h.destination_id) ?? h.destination_id, status: h.status, attempts: h.attempts, time: h.sent, lastError: h.last_error,
    })),
    total: mine.length,
  };
}
