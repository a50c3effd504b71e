/**
 * The dashboard: Security › Sensitive Data and Security › Events per zone on the API port,
 * server-rendered forms over the Rulesets API's service and the events index (docs/dashboard.md).
 */
export { createDashboardHandler, kMaxFormBytes, kDetectionsPerPage, type DashboardDeps } from './handler.js';
export { applySwitches, deploymentOf, switchesOf, ruleBody, newExecuteRule, type Switch, type Switches, type SwitchChanges, type Deployment, type DetectionSource } from './model.js';
export { html, escapeHtml, Html } from './html.js';
export { kEventsRoute, type SecurityEventsDeps } from './events-handler.js';
export { kEventsPerPage, kChartSeries, type EventsFilter, type EventsQuery } from './security-events.js';
export type { AlertsSource } from './alerts-view.js';
export { Detections, type DetectionBatch } from './batches.js';
