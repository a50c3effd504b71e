/**
 * Alerts: Data Loss Protection spikes, Cloudflare's way. The Notifications API's webhook destinations
 * and policies (served by src/api under `/accounts/{account_id}/alerting/v3`), the WAF alerts' spike
 * detector (five-minute buckets, z-score over six hours, > 3.5 and ≥ 200 events, no duplicate within
 * two hours) and webhook delivery that survives restarts. docs/api.md ("Alerts") describes the API.
 * @example
 * import { Alerts } from './alerts/index.js';
 * const alerts = await Alerts.open(dataDir, { minEvents: 200 }, onError);
 * alerts.observe(zone, events);
 */
export { Alerts, alertOptionsFromEnv, alertPayload, kDedupMs, type AlertOptions, type ObservedEvent } from './alerts.js';
export { kAlertTypes, kService, type AlertingAnswer, type AlertingCall } from './api.js';
export { SpikeDetector, kDetectorDefaults, type DetectorOptions, type DetectorState, type Spike } from './detector.js';
export { kDeliveryDefaults, type DeliveryOptions } from './delivery.js';
export type { DeliveryRecord, PolicyRecord, WebhookRecord } from './store.js';
