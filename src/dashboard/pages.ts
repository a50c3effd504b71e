/**
 * The dashboard's pages, rendered on the server as plain HTML forms: no script runs in the browser, so
 * the page works in any browser and under a strict Content-Security-Policy.
 */
import { tokenAllows, type TokenInfo } from '../api/index.js';
import { kManagedTags, kMaxExpressionLength } from '../rulesets/index.js';
import type { DetectionBatch } from './batches.js';
import type { Confidence } from '../types.js';
import { html, type Html } from './html.js';
import { countryName, executeRuleView, kSwitches, ruleGroups, type Deployment, type ExpressionProblem, type RuleGroup, type RuleRow, type Switch, type Switches, type ZoneHost } from './model.js';
import { kConfidenceLevels, kConfidenceRank, managedRuleset } from '../rules/index.js';
import { exportedValue, filterQuery, isEmptyFilter, type DetectionFilter, type RuleCount } from './detections.js';

/** The Sensitive Data page of `zone`; its forms and the detections page are under it. */
export function zoneBase(zone: string): string {
  return `/zones/${zone}/sensitive-data`;
}

export interface Viewer {
  token: TokenInfo;
  csrf: string;
}

/** A message at the top of a page: what was saved, or what the API refused (its v4 code and message). */
export type Banner = { kind: 'ok'; text: string } | { kind: 'error'; code?: number | string; text: string };

/** Where a zone's page sits under Security: its two sections, the current one marked. */
export interface ZoneNav {
  zone: string;
  current: 'sensitive-data' | 'events';
  /** Whether the server keeps an events index (Security › Events exists). */
  events: boolean;
}

/** The zone's Security › Events page. */
export function eventsBase(zone: string): string {
  return `/zones/${zone}/security/events`;
}

function navOf(n: ZoneNav | undefined): Html {
  if (n === undefined) return html`<nav aria-label="breadcrumb">Security › Sensitive Data</nav>`;
  const item = (key: ZoneNav['current'], href: string, text: string): Html =>
    n.current === key ? html`<a href="${href}" aria-current="page">${text}</a>` : html`<a href="${href}">${text}</a>`;
  return html`<nav aria-label="Security sections of the zone">Security › ${item('sensitive-data', zoneBase(n.zone), 'Sensitive Data')}${n.events ? html` · ${item('events', eventsBase(n.zone), 'Events')}` : ''}</nav>`;
}

export function layout(title: string, body: Html, viewer?: Viewer, nav?: ZoneNav): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · leakscan</title>
<link rel="stylesheet" href="/assets/dashboard.css">
</head>
<body>
<header>
<a class="brand" href="/">leakscan</a>
${navOf(nav)}
${
  viewer === undefined
    ? ''
    : html`<form method="post" action="/session/end" class="signout"><span>${viewer.token.name} (${viewer.token.permission})</span>
<input type="hidden" name="csrf" value="${viewer.csrf}"><button type="submit">Sign out</button></form>`
}
</header>
<main>
${body}
</main>
</body>
</html>
`;
}

export function banner(b: Banner | undefined): Html {
  if (b === undefined) return html``;
  if (b.kind === 'ok') return html`<p class="banner ok" role="status">${b.text}</p>`;
  return html`<p class="banner error" role="alert">${b.code === undefined ? '' : html`<code>${b.code}</code> `}${b.text}</p>`;
}

export function signInPage(b?: Banner): Html {
  return layout(
    'Sign in',
    html`<h1>Sign in</h1>
${banner(b)}
<p>Use an API token of this server: the admin token printed on first start (also in <code>DATA_DIR/admin-token</code>) or one made with <code>leakscan token create</code>. The dashboard acts through the Rulesets API with the token's zones and permission.</p>
<form method="post" action="/session" class="signin">
<label for="token">API token</label>
<input id="token" name="token" type="password" autocomplete="off" required minlength="40" maxlength="40">
<button type="submit">Sign in</button>
</form>`,
  );
}

/** A zone of the list and the host names known for it. */
export interface ZoneEntry {
  zone: string;
  hosts: ZoneHost[];
}

const kHostSource: Record<ZoneHost['source'], string> = { mapped: 'mapped with --zone', default: 'the default --zone', seen: 'seen in its detections' };

/** A zone's host names with where each comes from; the hex id alone when none is known. */
export function hostNames(hosts: readonly ZoneHost[]): Html {
  if (hosts.length === 0) return html`<span class="hint">no host name known</span>`;
  return html`${hosts.map((h, i) => html`${i === 0 ? '' : ', '}<span class="host" data-source="${h.source}" title="${kHostSource[h.source]}">${h.name}</span>`)}`;
}

export function zonesPage(viewer: Viewer, zones: readonly ZoneEntry[], b?: Banner): Html {
  return layout(
    'Zones',
    html`<h1>Zones</h1>
${banner(b)}
<form method="get" action="/zones" class="open-zone">
<label for="zone">Zone id or host name</label>
<input id="zone" name="zone" required placeholder="32 hexadecimal digits, or shop.example">
<button type="submit">Open</button>
</form>
<p class="hint">A host name opens the zone the proxy sends it to: its <code>--zone</code> mapping, or else the zone whose id is the first 32 hex digits of the SHA-256 of its lower-cased name.</p>
${
  zones.length === 0
    ? html`<p>No zone has a configuration yet.</p>`
    : html`<table class="zones">
<thead><tr><th>Hosts</th><th>Zone id</th><th>Known from</th></tr></thead>
<tbody>${zones.map(
        (z) => html`<tr data-zone="${z.zone}"><td><a href="${zoneBase(z.zone)}">${z.hosts.length === 0 ? html`<code>${z.zone}</code>` : hostNames(z.hosts)}</a></td><td><code>${z.zone}</code></td><td class="hint">${[...new Set(z.hosts.map((h) => kHostSource[h.source]))].join('; ')}</td></tr>`,
      )}</tbody>
</table>`
}`,
    viewer,
  );
}

export interface ZoneView {
  zone: string;
  deployment: Deployment;
  switches: Switches;
  /** Rule search (id, description or tag). */
  query: string;
  /** The expression to show (a refused draft is shown again, not lost). */
  expression: string;
  /** Whether the server keeps detections to show (`leakscan serve` does). */
  detections: boolean;
  /** Where a refused expression is wrong, shown under it with a caret. */
  problem?: ExpressionProblem | undefined;
  /** Host names known for the zone. */
  hosts?: ZoneHost[];
  /** Whether Security › Events exists (the server keeps an events index). */
  events?: boolean;
}

function switchSelect(name: string, value: Switch, label: string, disabled: boolean): Html {
  return html`<select name="${name}" aria-label="${label}"${disabled ? html` disabled` : ''}>${kSwitches.map(
    (s) => html`<option value="${s}"${s === value ? html` selected` : ''}>${s === 'default' ? 'Default' : s === 'on' ? 'On' : 'Off'}</option>`,
  )}</select>`;
}

const kThresholdText: Record<Confidence, string> = { high: 'High', medium: 'Medium and high', low: 'Every level' };

/** What a rule reports in the zone: nothing when it does not run, or when its best finding is below its threshold. */
function reportsText(r: RuleRow): string {
  if (r.threshold === null) return '';
  if (kConfidenceRank[r.best] < kConfidenceRank[r.threshold]) return `Nothing (its findings are ${r.best}: lower sensitivity_level)`;
  return kThresholdText[r.threshold];
}

function matches(q: string, r: { id: string; description: string; tags: string[] }): boolean {
  if (q === '') return true;
  const needle = q.toLowerCase();
  return r.id.toLowerCase().includes(needle) || r.description.toLowerCase().includes(needle) || r.tags.some((t) => t.toLowerCase() === needle);
}

export function zonePage(viewer: Viewer, v: ZoneView, b?: Banner): Html {
  const base = zoneBase(v.zone);
  const canEdit = tokenAllows(viewer.token, v.zone, true);
  const { deployment: d, switches: s } = v;
  const rule = d.rule;
  // With several execute rules, the zone is scanned when any of them is enabled.
  const anyOn = d.rules.some((r) => r.enabled);
  const status = rule === undefined ? 'Not deployed' : anyOn ? 'Deployed' : 'Deployed, disabled';
  const ro = canEdit ? html`` : html`<p class="hint">This token can read only: changes need a token with edit permission.</p>`;
  // Every form carries the session's form token, and the version of the rule it was drawn from.
  const hidden = html`<input type="hidden" name="csrf" value="${viewer.csrf}">${rule === undefined ? '' : html`<input type="hidden" name="version" value="${rule.version}">`}`;
  const shown = s.rules.filter((r) => matches(v.query, r));
  const lock = !canEdit || rule === undefined;
  return layout(
    'Sensitive Data',
    html`<h1>Sensitive Data Detection</h1>
<p class="zone">Zone ${v.hosts === undefined || v.hosts.length === 0 ? '' : html`${hostNames(v.hosts)} `}<code>${v.zone}</code> · <a href="/">all zones</a>${v.detections ? html` · <a href="${base}/detections">Detections</a>` : ''}${v.events === true ? html` · <a href="${eventsBase(v.zone)}">Security events</a>` : ''}</p>
${banner(b)}
${ro}
<section aria-labelledby="status">
<h2 id="status">Status: <span class="status" data-status="${rule === undefined ? 'none' : anyOn ? 'on' : 'off'}">${status}</span></h2>
${
  rule === undefined
    ? html`<p>The managed ruleset is not deployed on this zone: no response is scanned for it. Deploying adds a rule that executes it on every response (you can narrow it below) with its default rules: ${s.on} of ${s.rules.length}.</p>
<form method="post" action="${base}/deploy">${hidden}<button type="submit"${canEdit ? '' : html` disabled`}>Deploy</button></form>`
    : html`<p>${s.on} of ${s.rules.length} rules run${d.executeRules > 1 ? ' under rule 1' : ''}, action Log. Entry point ruleset <code>${d.entrypoint?.id}</code> version ${d.entrypoint?.version}; rule <code>${rule.id}</code> version ${rule.version}, updated ${rule.last_updated}.</p>
${d.executeRules > 1 ? executeRulesTable(d, s.rules.length) : ''}
<form method="post" action="${base}/${rule.enabled ? 'disable' : 'enable'}">${hidden}<button type="submit"${canEdit ? '' : html` disabled`}>${rule.enabled ? 'Disable' : 'Enable'}${d.executeRules > 1 ? ' rule 1' : ''}</button></form>`
}
</section>
<section aria-labelledby="scope">
<h2 id="scope">Which responses are scanned</h2>
<form method="post" action="${base}/expression">${hidden}
<label for="expression">Filter expression (Rules language; <code>true</code> scans every response)</label>
<textarea id="expression" name="expression" rows="3" maxlength="${kMaxExpressionLength}" spellcheck="false"${lock ? html` disabled` : ''}${v.problem === undefined ? '' : html` aria-invalid="true" aria-describedby="expression-problem"`}>${v.expression}</textarea>
${v.problem === undefined ? '' : problemBlock(v.problem)}
<p class="hint">For example <code>http.host eq "shop.example" and not starts_with(http.request.uri.path, "/assets/")</code>.</p>
<button type="submit"${lock ? html` disabled` : ''}>Save expression</button>
</form>
</section>
<section aria-labelledby="rules">
<h2 id="rules">Rules</h2>
<form method="get" action="${base}" class="search">
<label for="q">Search rules</label>
<input id="q" name="q" value="${v.query}" placeholder="id, words of the description, or a tag">
<button type="submit">Search</button>
${v.query === '' ? '' : html`<a href="${base}">Clear</a>`}
</form>
<form method="post" action="${base}/overrides">${hidden}
<p><label>Every rule: ${switchSelect('all', s.all, 'Every rule', lock)}</label> <span class="hint">A tag's switch overrides this one, a rule's own switch overrides both.</span></p>
<details${s.tags.some((t) => t.own !== 'default') ? html` open` : ''}>
<summary>Tags (${s.tags.length})</summary>
<table class="tags">
<thead><tr><th>Tag</th><th>Rules</th><th>Running</th><th>Switch</th></tr></thead>
<tbody>${s.tags.map(
      (t) => html`<tr><td><a href="${base}?q=${encodeURIComponent(t.tag)}">${t.tag}</a></td><td>${t.rules}</td><td>${t.on}</td><td>${switchSelect(`tag.${t.tag}`, t.own, `Tag ${t.tag}`, lock)}</td></tr>`,
    )}</tbody>
</table>
</details>
<p class="count">Showing ${shown.length} of ${s.rules.length} rules${v.query === '' ? '' : html` matching “${v.query}”`}, by family and country.</p>
${groupsNav(ruleGroups(shown))}
${rulesTable(ruleGroups(shown), lock)}
<p class="hint">Reports: the lowest confidence of the findings kept, from the zone's <code>sensitivity_level</code> overrides, which the Rulesets API sets (<code>default</code>: high only; <code>medium</code>; <code>low</code>: every level; <code>eoff</code>: the rule does not run). Saving switches here keeps them.</p>
<div class="savebar">
<button type="submit"${lock ? html` disabled` : ''}>Save switches</button>
<span class="hint">${s.on} of ${s.rules.length} rules run now; changed switches take effect when saved.${rule === undefined ? ' Deploy the managed ruleset first.' : ''}</span>
</div>
</form>
</section>`,
    viewer,
    { zone: v.zone, current: 'sensitive-data', events: v.events === true },
  );
}

const kFamilyText: Record<RuleGroup['family'], string> = { pii: 'Personal data', 'financial-information': 'Financial information', secrets: 'Secrets' };

function groupId(g: RuleGroup): string {
  return `g-${g.family}-${g.country === '' ? 'any' : g.country}`;
}

function groupTitle(g: RuleGroup): string {
  return g.country === '' ? `${kFamilyText[g.family]}, any country` : `${kFamilyText[g.family]}, ${countryName(g.country) ?? g.country}`;
}

/** Links to each group, so a rule is two clicks away rather than a long scroll. */
function groupsNav(groups: readonly RuleGroup[]): Html {
  const families = [...new Set(groups.map((g) => g.family))];
  return html`<nav class="groups" aria-label="Rule groups">${families.map(
    (f) => html`<p><strong>${kFamilyText[f]}</strong>: ${groups
      .filter((g) => g.family === f)
      .map((g, i) => html`${i === 0 ? '' : ' · '}<a href="#${groupId(g)}">${g.country === '' ? 'any country' : (countryName(g.country) ?? g.country)}</a> <span class="hint">${g.rules.length}</span>`)}</p>`,
  )}</nav>`;
}

/** Tags a row shows: its family and country are the group's heading already. */
function topicTags(r: RuleRow): string {
  return r.tags.filter((t) => t !== r.family && t !== r.country).join(', ');
}

/** One table for every group, so columns line up; each group is a tbody under its own heading row. */
function rulesTable(groups: readonly RuleGroup[], lock: boolean): Html {
  return html`<table class="rules">
<thead><tr><th>Rule</th><th>Description</th><th>Tags</th><th>Default</th><th>Switch</th><th>Runs</th><th>Reports</th></tr></thead>
${groups.map((g) => {
    const on = g.rules.filter((r) => r.on).length;
    return html`<tbody data-family="${g.family}" data-country="${g.country}"><tr class="group"><th colspan="7" id="${groupId(g)}">${groupTitle(g)} <span class="hint">${on} of ${g.rules.length} run</span></th></tr>
${g.rules.map(
      (r) => html`<tr data-rule="${r.id}"><td><code>${r.id}</code></td><td>${r.description}</td><td>${topicTags(r)}</td><td>${r.byDefault ? 'On' : 'Off'}</td><td>${switchSelect(`rule.${r.id}`, r.own, `Rule ${r.id}`, lock)}</td><td class="runs" data-on="${r.on ? 'yes' : 'no'}">${r.on ? 'Yes' : 'No'}</td><td class="threshold" data-threshold="${r.threshold ?? ''}">${reportsText(r)}</td></tr>`,
    )}</tbody>`;
  })}
</table>`;
}

/** Every rule executing the managed ruleset, and what each does; the page's forms edit the first. */
function executeRulesTable(d: Deployment, total: number): Html {
  return html`<p class="hint">${d.executeRules} rules of the entry point execute the managed ruleset. A response is scanned by every enabled one whose expression matches it, with the rules each turns on joined. This page's forms edit rule 1; use the Rulesets API for the others.</p>
<table class="execute-rules">
<thead><tr><th>#</th><th>Rule</th><th>Enabled</th><th>Expression</th><th>Runs</th><th>Overrides</th></tr></thead>
<tbody>${d.rules.map((r, i) => {
    const x = executeRuleView(r);
    return html`<tr data-execute-rule="${x.id}"><td>${i + 1}${i === 0 ? html` <span class="hint">(edited here)</span>` : ''}</td><td><code>${x.id}</code>${x.description === '' ? '' : html`<br>${x.description}`}</td><td class="enabled" data-enabled="${x.enabled ? 'yes' : 'no'}">${x.enabled ? 'Yes' : 'No'}</td><td><code class="expr">${x.expression}</code></td><td>${x.running} of ${total} rules</td><td>${x.overrides.length === 0 ? 'none: default rules' : html`<ul class="overrides">${x.overrides.map((o) => html`<li>${o}</li>`)}</ul>`}</td></tr>`;
  })}</tbody>
</table>`;
}

/**
 * A refused expression's line with the parser's caret under the characters it points at. The caret
 * line repeats the text before them, hidden, so the caret lands under them whatever the glyph widths.
 */
function problemBlock(p: ExpressionProblem): Html {
  const at = p.at === '' ? ' ' : p.at;
  return html`<div class="expr-problem" id="expression-problem"><pre><span class="src">${p.before}<mark class="at">${at}</mark>${p.after}</span>
<span class="pad" aria-hidden="true">${p.before}</span><span class="caret">${'^'.repeat(Math.max(1, Array.from(p.at).length))}</span> ${p.reason}</pre>
<p>Line ${p.line}, column ${p.column}: ${p.reason}.</p></div>`;
}

export interface DetectionsView {
  zone: string;
  filter: DetectionFilter;
  /** Batches to show, newest first, each with only the events the filter keeps. */
  batches: DetectionBatch[];
  /** Batches the zone has in all. */
  total: number;
  /** Of those, how many were read (the newest). */
  scanned: number;
  /** Events the filter keeps in the batches read. */
  matched: number;
  /** Events per rule, every filter but the rule applied. */
  counts: RuleCount[];
  /** The `before` of the next (older) page, when there is one. */
  older: number | undefined;
  /** Host names known for the zone. */
  hosts?: ZoneHost[];
  /** Whether Security › Events exists. */
  events?: boolean;
}

const kStateText: Record<DetectionBatch['state'], string> = {
  verified: 'verified: its digest is signed in epoch',
  pending: 'pending: not yet published as epoch',
  failed: 'FAILED verification against epoch',
};

/** `datetime-local`'s value for a time (UTC, to the second). */
export function localTime(ms: number | undefined): string {
  return ms === undefined ? '' : new Date(ms).toISOString().slice(0, 19);
}

export function withQuery(path: string, query: string): string {
  return query === '' ? path : `${path}?${query}`;
}

function filterForm(base: string, f: DetectionFilter): Html {
  const opt = (value: string, label: string, current: string | undefined): Html => html`<option value="${value}"${value === (current ?? '') ? html` selected` : ''}>${label}</option>`;
  const tags = [...kManagedTags].sort();
  return html`<form method="get" action="${base}/detections" class="filters">
<label>Rule <select name="rule">${opt('', 'any', f.rule)}${managedRuleset.rules.map((r) => opt(r.id, r.id, f.rule))}</select></label>
<label>Tag <select name="tag">${opt('', 'any', f.tag)}${tags.map((t) => opt(t, t, f.tag))}</select></label>
<label>Confidence <select name="confidence">${opt('', 'any', f.confidence)}${kConfidenceLevels.map((c) => opt(c, c, f.confidence))}</select></label>
<label>From <input type="datetime-local" name="since" step="1" value="${localTime(f.since)}"></label>
<label>until <input type="datetime-local" name="until" step="1" value="${localTime(f.until)}"> UTC</label>
<button type="submit">Filter</button>${isEmptyFilter(f) ? '' : html` <a href="${base}/detections">Clear</a>`}
</form>`;
}

function countsTable(base: string, v: DetectionsView): Html {
  if (v.counts.length === 0) return html``;
  return html`<table class="counts">
<thead><tr><th>Rule</th><th>Events</th><th>Description</th></tr></thead>
<tbody>${v.counts.map((c) => {
    const q = filterQuery({ ...v.filter, rule: c.ruleId });
    return html`<tr data-rule="${c.ruleId}"${c.ruleId === v.filter.rule ? html` class="selected"` : ''}><td><a href="${withQuery(`${base}/detections`, q)}"><code>${c.ruleId}</code></a></td><td class="n">${c.events}</td><td>${c.description}</td></tr>`;
  })}</tbody>
</table>`;
}

export function detectionsPage(viewer: Viewer, v: DetectionsView): Html {
  const base = zoneBase(v.zone);
  const shown = v.batches.reduce((n, b) => n + b.events.length, 0);
  const query = filterQuery(v.filter);
  const filtered = !isEmptyFilter(v.filter);
  return layout(
    'Detections',
    html`<h1>Detections</h1>
<p class="zone">Zone ${v.hosts === undefined || v.hosts.length === 0 ? '' : html`${hostNames(v.hosts)} `}<code>${v.zone}</code> · <a href="${base}">settings</a> · <a href="/">all zones</a></p>
<p>Log events of this zone as stored: written in batches to the events bucket, each batch signed as the next epoch of the audit namespace <code>events.${v.zone}</code> and checked here against it, as <code>leakscan verify</code> does. Values are redacted when the event is made; the raw value is never stored.</p>
${filterForm(base, v.filter)}
${
  v.total === 0
    ? html`<p>No detections stored for this zone yet.</p>`
    : html`<p class="count">${v.matched} events${filtered ? ' match the filter' : ''} in the ${v.scanned === v.total ? '' : html`newest ${v.scanned} of `}${v.total} batches; showing ${shown} in ${v.batches.length} batches, newest first.</p>
<p class="export">Export the ${v.matched} events: <a href="${withQuery(`${base}/detections.ndjson`, query)}" download>NDJSON</a> · <a href="${withQuery(`${base}/detections.csv`, query)}" download>CSV</a> <span class="hint">(oldest first; values redacted as stored)</span></p>
<h2>Events per rule</h2>
${v.counts.length === 0 ? html`<p>No event matches.</p>` : countsTable(base, v)}`
}
${v.batches.map(
  (b) => html`<section class="batch" data-batch="${b.batch}" data-state="${b.state}">
<h2>Batch ${b.batch} <span class="state">${kStateText[b.state]} ${b.batch}</span></h2>
${b.problems.map((p) => html`<p class="banner error" role="alert"><code>${p.code}</code> ${p.message}</p>`)}
<table class="events">
<thead><tr><th>Time</th><th>Rule</th><th>Confidence</th><th>Value (redacted)</th><th>Request</th><th>Response</th><th>Bytes</th></tr></thead>
<tbody>${[...b.events].reverse().map(
    // An event stored before events carried a confidence shows none (it was high: the only level then).
    (e) => html`<tr><td class="time">${e.timestamp}</td><td title="${e.description}"><code>${e.ruleId}</code></td><td class="confidence" data-confidence="${e.confidence ?? ''}">${e.confidence ?? ''}</td><td class="value"><code>${exportedValue(e.redacted)}</code></td><td class="request">${e.method} ${e.host}${e.path}</td><td>${e.status} ${e.contentType ?? ''}</td><td>${e.start}–${e.end}</td></tr>`,
  )}</tbody>
</table>
</section>`,
)}
${v.older === undefined ? '' : html`<p><a href="${withQuery(`${base}/detections`, query === '' ? `before=${v.older}` : `${query}&before=${v.older}`)}">Older batches</a></p>`}`,
    viewer,
    { zone: v.zone, current: 'sensitive-data', events: v.events === true },
  );
}

export function errorPage(title: string, b: Banner, viewer?: Viewer): Html {
  return layout(title, html`<h1>${title}</h1>${banner(b)}<p><a href="/">Back to the dashboard</a></p>`, viewer);
}

export const kDashboardCss = `
:root { color-scheme: light dark; font: 15px/1.45 system-ui, sans-serif; }
body { margin: 0; }
header { display: flex; gap: 1.5rem; align-items: center; padding: .6rem 1.2rem; border-bottom: 1px solid #8884; }
.brand { font-weight: 700; text-decoration: none; color: inherit; }
nav { color: #888; flex: 1; }
.signout { display: flex; gap: .6rem; align-items: center; margin: 0; }
main { max-width: 72rem; padding: 0 1.2rem 3rem; }
section { margin: 1.6rem 0; }
.banner { padding: .6rem .8rem; border-radius: 4px; }
.banner.ok { background: #2a7a2a22; border: 1px solid #2a7a2a; }
.banner.error { background: #b0202022; border: 1px solid #b02020; }
.hint { color: #888; font-size: .9em; }
textarea { width: 100%; font-family: ui-monospace, monospace; }
table { border-collapse: collapse; width: 100%; margin: .6rem 0; }
th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #8883; vertical-align: top; }
td.runs[data-on="yes"] { color: #2a7a2a; font-weight: 600; }
td.confidence[data-confidence="medium"], td.confidence[data-confidence="low"] { color: #b06000; }
.status[data-status="on"] { color: #2a7a2a; }
.status[data-status="off"], .status[data-status="none"] { color: #b06000; }
label { margin-right: .4rem; }
table.rules tr.group th { padding-top: 1.2rem; font-size: 1.05em; border-bottom: 2px solid #8886; scroll-margin-top: .5rem; }
table.rules td:first-child code { white-space: nowrap; }
nav.groups p { margin: .2rem 0; }
.savebar { position: sticky; bottom: 0; display: flex; gap: 1rem; align-items: center; padding: .6rem 0; background: Canvas; border-top: 1px solid #8886; }
.expr-problem pre { margin: .4rem 0 0; padding: .4rem; overflow-x: auto; border: 1px solid #b02020; border-radius: 4px; font-family: ui-monospace, monospace; }
.expr-problem mark { background: #b0202033; color: inherit; }
.expr-problem .pad { visibility: hidden; }
.expr-problem .caret { color: #b02020; font-weight: 700; }
.expr-problem p { margin: .2rem 0; color: #b02020; }
table.execute-rules code.expr { white-space: pre-wrap; overflow-wrap: anywhere; }
ul.overrides { margin: 0; padding-left: 1rem; }
form.filters { display: flex; flex-wrap: wrap; gap: .4rem 1rem; align-items: center; }
table.counts { width: auto; }
table.counts td.n { text-align: right; }
table.counts tr.selected { font-weight: 700; }
/* The value and the request wrap anywhere: at 800 px the table fits the window, nothing is cut off. */
table.events { table-layout: auto; }
table.events td.value code, table.events td.request { overflow-wrap: anywhere; }
table.events td.time { min-width: 6rem; }
.batch { overflow-x: auto; }
.batch .state { font-size: .7em; font-weight: 400; color: #2a7a2a; }
.batch[data-state="pending"] .state { color: #b06000; }
.batch[data-state="failed"] .state { color: #b02020; font-weight: 700; }
nav a[aria-current="page"] { color: inherit; font-weight: 600; text-decoration: none; }
p.ranges { margin: .3rem 0; }
svg.chart { width: 100%; height: auto; max-height: 20rem; display: block; }
ul.legend { display: flex; flex-wrap: wrap; gap: .2rem 1.2rem; list-style: none; padding: 0; margin: .4rem 0; }
ul.legend .n, td.n { font-variant-numeric: tabular-nums; }
ul.legend .n { color: #888; }
details.chart-table table { width: auto; }
details.chart-table td.n { text-align: right; }
.badge { display: inline-block; padding: 0 .4rem; border-radius: 3px; font-size: .85em; border: 1px solid currentColor; color: #2a7a2a; white-space: nowrap; }
.badge[data-state="pending"] { color: #b06000; }
.badge[data-state="failed"] { color: #b02020; font-weight: 700; }
table.events .badge + .hint { display: inline-block; }
@media (min-width: 64rem) { table.events td.rule code { white-space: nowrap; } }
code.hash { overflow-wrap: anywhere; font-size: .85em; }
ol.path { margin: 0; padding-left: 1.4rem; }
`;
