/**
 * The Security › Events page of a zone and an event's proof page, rendered on the server. The chart is
 * SVG drawn here (no script, no chart library; the Content-Security-Policy allows neither), with a
 * title and a description for screen readers and the same counts as a table beneath it.
 */
import { kConfidenceLevels, managedRuleset } from '../rules/index.js';
import { kManagedTags } from '../rulesets/index.js';
import type { EventProof } from '../eventlog/index.js';
import type { AlertsView } from './alerts-view.js';
import { exportRow, exportedValue } from './detections.js';
import { html, type Html } from './html.js';
import type { ZoneHost } from './model.js';
import { banner, eventsBase, hostNames, layout, localTime, withQuery, type Banner, type Viewer } from './pages.js';
import { cursorText, eventsFilterQuery, kDefaultRangeMs, type EventRow, type EventsChart, type EventsList, type EventsQuery } from './security-events.js';

export interface EventsView {
  zone: string;
  hosts: ZoneHost[];
  query: EventsQuery;
  chart: EventsChart;
  list: EventsList;
  /** Undefined when the server has no alerting. */
  alerts: AlertsView | undefined;
  now: number;
}

/** The filter form's fields as text: the query's, or those of a refused URL as typed. */
export interface FilterFields {
  rule: string;
  tag: string;
  confidence: string;
  host: string;
  since: string;
  until: string;
}

/** The form's fields of a parsed query (`since` empty when it was left out). */
export function filterFieldsOf(q: EventsQuery): FilterFields {
  const f = q.filter;
  return { rule: f.rule ?? '', tag: f.tag ?? '', confidence: f.confidence ?? '', host: f.host ?? '', since: q.sinceDefaulted ? '' : localTime(q.from), until: localTime(f.until) };
}

/** The form's fields as a refused URL has them. */
export function rawFilterFields(p: URLSearchParams): FilterFields {
  const g = (k: string): string => p.get(k) ?? '';
  return { rule: g('rule'), tag: g('tag'), confidence: g('confidence'), host: g('host'), since: g('since'), until: g('until') };
}

function filterForm(zone: string, f: FilterFields, hosts: readonly ZoneHost[]): Html {
  const opt = (value: string, label: string, current: string): Html => html`<option value="${value}"${value === current ? html` selected` : ''}>${label}</option>`;
  const any = Object.values(f).some((v) => v !== '');
  return html`<form method="get" action="${eventsBase(zone)}" class="filters" aria-label="Filter the events">
<label>Rule <select name="rule">${opt('', 'any', f.rule)}${managedRuleset.rules.map((r) => opt(r.id, r.id, f.rule))}</select></label>
<label>Tag <select name="tag">${opt('', 'any', f.tag)}${[...kManagedTags].sort().map((t) => opt(t, t, f.tag))}</select></label>
<label>Confidence <select name="confidence">${opt('', 'any', f.confidence)}${kConfidenceLevels.map((c) => opt(c, c, f.confidence))}</select></label>
<label>Host <input name="host" list="known-hosts" value="${f.host}" placeholder="any" size="18"></label>
<datalist id="known-hosts">${hosts.filter((h) => h.source !== 'default' && !h.name.startsWith('*')).map((h) => html`<option value="${h.name}">`)}</datalist>
<label>From <input type="datetime-local" name="since" step="1" value="${f.since}"></label>
<label>until <input type="datetime-local" name="until" step="1" value="${f.until}"> UTC</label>
<button type="submit">Filter</button>${any ? html` <a href="${eventsBase(zone)}">Clear</a>` : ''}
</form>`;
}

/** Links to the last hour, day, week and month, keeping the other filters. */
function rangeLinks(v: EventsView): Html {
  const { since: _s, until: _u, ...rest } = v.query.filter;
  const base = eventsFilterQuery(rest);
  const ranges: [string, number][] = [['last hour', 3_600_000], ['24 hours', kDefaultRangeMs], ['7 days', 7 * kDefaultRangeMs], ['30 days', 30 * kDefaultRangeMs]];
  return html`<p class="ranges">Show: ${ranges.map(([text, ms], i) => {
    const since = new Date(Math.floor((v.now - ms) / 60_000) * 60_000).toISOString().slice(0, 16);
    return html`${i === 0 ? '' : ' · '}<a href="${withQuery(eventsBase(v.zone), base === '' ? `since=${since}` : `${base}&since=${since}`)}">${text}</a>`;
  })}</p>`;
}

// Tableau 10's first eight, then grey for the other rules: told apart in light and dark themes alike.
const kColours = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7'];
const kOtherColour = '#9c9c9c';
const colourOf = (ruleId: string, i: number): string => (ruleId === '' ? kOtherColour : kColours[i % kColours.length]!);

const kBucketWords: Record<number, string> = { 60_000: 'minute', 300_000: '5 minutes', 3_600_000: 'hour', 86_400_000: 'day' };

function stamp(ms: number, bucketMs: number): string {
  const iso = new Date(ms).toISOString();
  return bucketMs >= 86_400_000 ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** 1, 2 or 5 times a power of ten: a step that puts at most 5 ticks up to `max`. */
function tickStep(max: number): number {
  const raw = Math.max(1, max / 5);
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw)!;
}

const kW = 960;
const kH = 260;
const kPad = { left: 56, right: 12, top: 12, bottom: 50 };

/**
 * Stacked bars of events per rule and bucket, the most frequent rule at the bottom.
 * @example
 * html`<section>${chartSvg(await eventsChart(index, zone, query))}</section>`
 */
export function chartSvg(c: EventsChart): Html {
  const plotW = kW - kPad.left - kPad.right;
  const plotH = kH - kPad.top - kPad.bottom;
  const totals = Array.from({ length: c.buckets }, (_, i) => c.series.reduce((n, s) => n + s.counts[i]!, 0));
  const step = tickStep(Math.max(...totals, 1));
  const top = Math.max(step, Math.ceil(Math.max(...totals, 1) / step) * step);
  const y = (n: number): number => kPad.top + plotH - (n / top) * plotH;
  const bw = plotW / c.buckets;
  const gap = bw > 4 ? Math.min(2, bw * 0.2) : 0;
  const every = Math.max(1, Math.ceil(c.buckets / 8));
  const per = kBucketWords[c.bucketMs] ?? `${c.bucketMs / 60_000} minutes`;
  const end = c.start + c.buckets * c.bucketMs;
  const bars: Html[] = [];
  for (let i = 0; i < c.buckets; i++) {
    let below = 0;
    c.series.forEach((s, k) => {
      const n = s.counts[i]!;
      if (n === 0) return;
      const x = kPad.left + i * bw + gap / 2;
      bars.push(html`<rect x="${x.toFixed(2)}" y="${y(below + n).toFixed(2)}" width="${Math.max(0.5, bw - gap).toFixed(2)}" height="${(y(below) - y(below + n)).toFixed(2)}" fill="${colourOf(s.ruleId, k)}" data-rule="${s.ruleId}" data-bucket="${new Date(c.start + i * c.bucketMs).toISOString()}" data-count="${n}"><title>${stamp(c.start + i * c.bucketMs, c.bucketMs)} UTC, ${s.ruleId === '' ? s.description : s.ruleId}: ${n}</title></rect>`);
      below += n;
    });
  }
  const ticks = Array.from({ length: Math.floor(top / step) + 1 }, (_, i) => i * step);
  const summary = c.series.map((s) => `${s.ruleId === '' ? s.description : s.ruleId} ${s.total}`).join(', ');
  return html`<svg class="chart" viewBox="0 0 ${kW} ${kH}" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
<title id="chart-title">Events per rule per ${per}, ${stamp(c.start, c.bucketMs)} to ${stamp(end, c.bucketMs)} UTC</title>
<desc id="chart-desc">${c.total} events in ${c.buckets} bars of one ${per} each, stacked by rule${c.total === 0 ? '' : `: ${summary}`}. The table below the chart holds the same counts.</desc>
<g class="axis y" font-size="11" fill="currentColor">${ticks.map((t) => html`<line x1="${kPad.left}" x2="${kW - kPad.right}" y1="${y(t).toFixed(2)}" y2="${y(t).toFixed(2)}" stroke="currentColor" stroke-opacity="${t === 0 ? 0.6 : 0.15}"></line><text x="${kPad.left - 6}" y="${(y(t) + 4).toFixed(2)}" text-anchor="end">${t}</text>`)}
<text transform="translate(14 ${kPad.top + plotH / 2}) rotate(-90)" text-anchor="middle">Events per ${per}</text></g>
<g class="bars">${bars}</g>
<g class="axis x" font-size="11" fill="currentColor">${xLabels(c, bw, every)}
<text x="${kPad.left + plotW / 2}" y="${kH - 6}" text-anchor="middle">Time (UTC)</text></g>
</svg>`;
}

/** Every `every`-th bucket's start under the axis: the time, and the date where it changes (whole dates for day buckets). */
function xLabels(c: EventsChart, bw: number, every: number): Html {
  let lastDate = '';
  const out: Html[] = [];
  for (let i = 0; i < c.buckets; i += every) {
    const x = kPad.left + i * bw;
    if (x > kW - kPad.right - 36) break;
    const iso = new Date(c.start + i * c.bucketMs).toISOString();
    const date = iso.slice(0, 10);
    const y = kH - kPad.bottom + 15;
    if (c.bucketMs >= 86_400_000) out.push(html`<text x="${x.toFixed(2)}" y="${y}">${date.slice(5)}</text>`);
    else out.push(html`<text x="${x.toFixed(2)}" y="${y}">${iso.slice(11, 16)}${date === lastDate ? '' : html`<tspan x="${x.toFixed(2)}" dy="13">${date.slice(5)}</tspan>`}</text>`);
    lastDate = date;
  }
  return html`${out}`;
}

function legend(v: EventsView): Html {
  const { rule: _r, tag: _t, ...rest } = v.query.filter;
  return html`<ul class="legend">${v.chart.series.map((s, k) => {
    const swatch = html`<svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" fill="${colourOf(s.ruleId, k)}"></rect></svg>`;
    if (s.ruleId === '') return html`<li>${swatch} ${s.description} <span class="n">${s.total}</span></li>`;
    const q = eventsFilterQuery({ ...rest, rule: s.ruleId });
    return html`<li data-rule="${s.ruleId}">${swatch} <a href="${withQuery(eventsBase(v.zone), q)}" title="${s.description}"><code>${s.ruleId}</code></a> <span class="n">${s.total}</span></li>`;
  })}</ul>`;
}

/** The chart's counts as a table: one row per bucket holding events. */
function chartTable(c: EventsChart): Html {
  const rows = Array.from({ length: c.buckets }, (_, i) => i).filter((i) => c.series.some((s) => s.counts[i]! > 0));
  return html`<details class="chart-table"><summary>The chart as a table (${rows.length} ${rows.length === 1 ? 'bar' : 'bars'} with events)</summary>
<table><thead><tr><th scope="col">From (UTC)</th>${c.series.map((s) => html`<th scope="col">${s.ruleId === '' ? 'other rules' : s.ruleId}</th>`)}<th scope="col">All</th></tr></thead>
<tbody>${rows.map((i) => html`<tr><th scope="row">${stamp(c.start + i * c.bucketMs, c.bucketMs)}</th>${c.series.map((s) => html`<td class="n">${s.counts[i]}</td>`)}<td class="n">${c.series.reduce((n, s) => n + s.counts[i]!, 0)}</td></tr>`)}</tbody></table>
</details>`;
}

const kBadgeText: Record<string, string> = { verified: 'verified', pending: 'pending', failed: 'FAILED' };
const kBadgeTitle: Record<string, string> = {
  verified: 'its batch verifies against the signed epoch',
  pending: 'its batch is written, its epoch not published yet',
  failed: 'its batch fails its check',
};

/** `2026-11-28T15:54:32.639Z` as `2026-11-28 15:54:32` (UTC; the whole time in the cell's title). */
function shortTime(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso;
}

/** A range's ends for a sentence: `2026-11-28 15:54 UTC` (seconds when they are not 0). */
function rangeTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(17, 19) === '00' ? iso.slice(11, 16) : iso.slice(11, 19)} UTC`;
}

/** The proof page of event `id` (`.json` after it: the proof itself; `?batch=N` says where to look first). */
export function eventPath(zone: string, id: string): string {
  return `${eventsBase(zone)}/${encodeURIComponent(id)}/proof`;
}

function eventRow(zone: string, { row: r, problems }: EventRow): Html {
  const state = r.verification;
  const why = problems.length === 0 ? kBadgeTitle[state]! : problems.map((p) => `${p.code}: ${p.message}`).join('; ');
  const proof = r.id === '' ? html`<span class="hint">none</span>` : state === 'pending' ? html`<span class="hint">once signed</span>` : html`<a class="proof" href="${eventPath(zone, r.id)}?batch=${r.batch}">proof</a>`;
  return html`<tr data-event="${r.id}" data-batch="${r.batch}"><td class="time" title="${r.timestamp}">${shortTime(r.timestamp)}</td><td class="rule" title="${r.description}"><code>${r.ruleId}</code></td><td class="confidence" data-confidence="${r.confidence ?? ''}">${r.confidence ?? ''}</td><td class="value"><code>${r.redacted}</code></td><td class="request">${r.method} ${r.host}${r.path}</td><td>${r.status}</td><td class="batch"><span class="badge" data-state="${state}" title="${why}">${kBadgeText[state]}</span> <span class="hint">batch ${r.batch}</span></td><td>${proof}</td></tr>`;
}

function eventsTable(v: EventsView): Html {
  if (v.list.rows.length === 0) return html`<p>No event matches${v.query.before === undefined ? '' : ' past this point'}.</p>`;
  const q = eventsFilterQuery({ ...v.query.filter, ...(v.query.sinceDefaulted ? { since: v.query.from, until: v.query.to } : {}) });
  return html`<table class="events">
<thead><tr><th>Time</th><th>Rule</th><th>Confidence</th><th>Value (redacted)</th><th>Request</th><th>Status</th><th>Batch</th><th>Proof</th></tr></thead>
<tbody>${v.list.rows.map((r) => eventRow(v.zone, r))}</tbody>
</table>
${v.list.older === undefined ? '' : html`<p><a class="older" href="${withQuery(eventsBase(v.zone), q === '' ? `before=${cursorText(v.list.older)}` : `${q}&before=${cursorText(v.list.older)}`)}">Older events</a></p>`}`;
}

function alertsSection(a: AlertsView | undefined): Html {
  if (a === undefined) return html``;
  const body =
    a.state === 'forbidden'
      ? html`<p>Alert policies and their deliveries belong to the account (a policy can name any zone): sign in with a token for every zone to see them, as the Notifications API requires.</p>`
      : html`${
          a.policies.length === 0
            ? html`<p>No alert policy covers this zone. Create one with the Notifications API (<code>/accounts/{account_id}/alerting/v3/policies</code>, docs/api.md).</p>`
            : html`<table class="policies">
<thead><tr><th>Policy</th><th>Alert type</th><th>Enabled</th><th>Zones</th><th>Services</th><th>Delivers to</th></tr></thead>
<tbody>${a.policies.map((p) => html`<tr data-policy="${p.id}"><td>${p.name}</td><td>${p.type}</td><td>${p.enabled ? 'Yes' : 'No'}</td><td>${p.zones}</td><td>${p.services.join(', ') || 'every service'}</td><td>${p.destinations.join(', ') || html`<span class="hint">no webhook</span>`}</td></tr>`)}</tbody>
</table>`
        }
<h3>Deliveries</h3>
${
  a.deliveries.length === 0
    ? html`<p>No alert about this zone has been sent.</p>`
    : html`<table class="deliveries">
<thead><tr><th>Time</th><th>Policy</th><th>Webhook</th><th>Status</th><th>Attempts</th><th>Last error</th></tr></thead>
<tbody>${a.deliveries.map((d) => html`<tr data-delivery="${d.id}"><td class="time">${d.time}</td><td>${d.policy}</td><td>${d.destination}</td><td><span class="badge" data-state="${d.status}">${d.status}</span></td><td class="n">${d.attempts}</td><td>${d.lastError ?? ''}</td></tr>`)}</tbody>
</table>${a.total > a.deliveries.length ? html`<p class="hint">The newest ${a.deliveries.length} of ${a.total}; the Notifications API's history lists every one.</p>` : ''}`
}`;
  return html`<section aria-labelledby="alerts"><h2 id="alerts">Alerts</h2>
<p class="hint">The Data Loss Protection spike alert policies that cover this zone, and the alerts about it they delivered.</p>
${body}</section>`;
}

function zoneLine(zone: string, hosts: readonly ZoneHost[]): Html {
  return html`<p class="zone">Zone ${hosts.length === 0 ? '' : html`${hostNames(hosts)} `}<code>${zone}</code> · <a href="/">all zones</a></p>`;
}

/**
 * @example
 * page(res, 200, eventsPage(viewer, { zone, hosts, query, chart, list, alerts, now: Date.now() }));
 */
export function eventsPage(viewer: Viewer, v: EventsView): Html {
  const q = v.query;
  const exportQuery = eventsFilterQuery({ ...q.filter, since: q.from, until: q.to });
  const shownRange = `${rangeTime(q.from)} to ${rangeTime(q.to)}`;
  return layout(
    'Security events',
    html`<h1>Security events</h1>
${zoneLine(v.zone, v.hosts)}
<p>Log events of the managed ruleset in this zone, from the events index. Values were redacted when each event was stored; each event's badge is its batch's check against its signed epoch, and <em>proof</em> shows its RFC 9162 inclusion proof.</p>
${filterForm(v.zone, filterFieldsOf(q), v.hosts)}
${rangeLinks(v)}
<p class="count"><strong>${v.chart.total}</strong> events${q.filter.rule ?? q.filter.tag ?? q.filter.confidence ?? q.filter.host ? ' match the filter' : ''} from ${shownRange}${q.sinceDefaulted ? ' (the last day: set From for earlier events)' : ''}.
<a href="${withQuery(`${eventsBase(v.zone)}.ndjson`, exportQuery)}" download>Export as NDJSON</a> <span class="hint">(oldest first; values redacted as stored)</span></p>
<section aria-labelledby="over-time"><h2 id="over-time">Events per rule over time</h2>
${chartSvg(v.chart)}
${legend(v)}
${chartTable(v.chart)}
</section>
<section aria-labelledby="events-list"><h2 id="events-list">Events${q.before === undefined ? '' : ' (older)'}</h2>
${eventsTable(v)}
</section>
${alertsSection(v.alerts)}`,
    viewer,
    { zone: v.zone, current: 'events', events: true },
  );
}

/** The page shown for a refused query: the reason, and the form as it was filled in. */
export function eventsErrorPage(viewer: Viewer, zone: string, hosts: readonly ZoneHost[], raw: URLSearchParams, b: Banner): Html {
  return layout(
    'Security events',
    html`<h1>Security events</h1>
${zoneLine(zone, hosts)}
${banner(b)}
${filterForm(zone, rawFilterFields(raw), hosts)}
<p><a href="${eventsBase(zone)}">Show every event of the last day</a></p>`,
    viewer,
    { zone, current: 'events', events: true },
  );
}

/** One event's inclusion proof, as checked by the server, and the proof to download. */
export function proofPage(viewer: Viewer, zone: string, p: EventProof): Html {
  const r = exportRow(p.event, 'verified');
  const proof = p.proof;
  return layout(
    'Inclusion proof',
    html`<h1>Inclusion proof</h1>
<p class="zone">Zone <code>${zone}</code> · <a href="${eventsBase(zone)}">security events</a></p>
<p class="banner ok" role="status">Checked: this event is leaf ${proof.index} of ${proof.size} of batch ${proof.epoch}'s Merkle tree (RFC 9162, SHA-256), and its audit path leads to the digest signed as epoch ${proof.epoch} of <code>${proof.namespace}</code>.</p>
<h2>The event</h2>
<table class="proof-event"><tbody>
<tr><th>Id</th><td><code>${r.id}</code></td></tr>
<tr><th>Time</th><td>${r.timestamp}</td></tr>
<tr><th>Rule</th><td><code>${r.ruleId}</code> ${r.description}</td></tr>
<tr><th>Value (redacted)</th><td><code>${exportedValue(p.event.redacted)}</code></td></tr>
<tr><th>Request</th><td>${r.method} ${r.host}${r.path} → ${r.status}</td></tr>
</tbody></table>
<h2>The proof</h2>
<table class="proof"><tbody>
<tr><th>Scheme</th><td><code>${proof.scheme}</code></td></tr>
<tr><th>Epoch</th><td>${proof.epoch} of <code>${proof.namespace}</code></td></tr>
<tr><th>Leaf</th><td>${proof.index} of ${proof.size} (the batch's header is leaf 0)</td></tr>
<tr><th>Signed digest</th><td><code class="hash">${proof.record.digest}</code></td></tr>
<tr><th>Audit path</th><td><ol class="path">${proof.path.map((h) => html`<li><code class="hash">${h}</code></li>`)}</ol></td></tr>
</tbody></table>
<p><a href="${eventPath(zone, r.id)}.json?batch=${proof.epoch}" download>Download the proof (JSON)</a> <span class="hint">the event and its proof, as <code>GET /client/v4/zones/{zone}/security/events/{id}/proof</code> answers them; anyone with the audit log's public key checks it without the rest of the batch.</span></p>`,
    viewer,
    { zone, current: 'events', events: true },
  );
}
