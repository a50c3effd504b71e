/**
 * The dashboard: Security › Sensitive Data per zone on the API port, server-rendered forms over the
 * Rulesets API's service (docs/dashboard.md).
 */
export { createDashboardHandler, kMaxFormBytes, kDetectionsPerPage, type DashboardDeps } from './handler.js';
export { applySwitches, deploymentOf, switchesOf, ruleBody, newExecuteRule, type Switch, type Switches, type SwitchChanges, type Deployment, type DetectionSource } from './model.js';
export { html, escapeHtml, Html } from './html.js';
