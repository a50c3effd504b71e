/**
 * Security › Events on the dashboard: `/zones/{zone}/security/events` (chart, filters, list, alerts),
 * `…/events.ndjson` (the filtered events, streamed), and `…/events/{id}/proof[.json]` (an event's
 * inclusion proof as a page, and the proof the API's endpoint answers, for a signed-in session rather
 * than a bearer token). handler.ts checks the session, the zone and the token before calling here.
 */
import type { ServerResponse } from 'node:http';
import type { EventIndex } from '../events/index.js';
import { LeakscanError } from '../errors.js';
import { kEventIdPattern, type EventProof } from '../eventlog/index.js';
import { alertsView, type AlertsSource } from './alerts-view.js';
import { toNdjson } from './detections.js';
import { eventsErrorPage, eventsPage, proofPage } from './events-page.js';
import type { DetectionSource, ZoneHost } from './model.js';
import type { Viewer } from './pages.js';
import { kSecurityHeaders, page, send } from './respond.js';
import { eventsChart, eventsList, exportRows, parseEventsQuery, type EventsQuery } from './security-events.js';

/** What Security › Events reads (`leakscan serve` passes its events index, event proofs and alerting). */
export interface SecurityEventsDeps {
  index: EventIndex;
  /**
   * Event `id` of `zone` with its inclusion proof, checked (serve's `proveEvent`); throws LeakscanError.
   * `batch`: where the events index says it is, looked in first (the links carry it).
   */
  prove(zone: string, id: string, batch?: number): Promise<EventProof>;
  /** The Notifications API, for the Alerts section; none: the section is left out. */
  alerts?: AlertsSource;
  /** The clock the default range ends at (tests); default Date.now. */
  now?: () => number;
}

/** `…/security/events`, `….ndjson`, `…/{id}/proof`, `…/{id}/proof.json`. */
export const kEventsRoute = /^\/zones\/([^/]+)\/security\/events(?:(\.ndjson)|\/([^/]+)\/proof(\.json)?)?$/;

export interface EventsRequest {
  res: ServerResponse;
  head: boolean;
  url: URL;
  match: RegExpExecArray;
  zone: string;
  viewer: Viewer;
  deps: SecurityEventsDeps;
  source: DetectionSource;
  hosts: () => Promise<ZoneHost[]>;
  onError: (err: unknown) => void;
}

/**
 * Answers one Security › Events request of a zone the token may read.
 * @example
 * const m = kEventsRoute.exec(url.pathname);
 * if (m !== null) await serveSecurityEvents({ res, head: false, url, match: m, zone: m[1]!, viewer, deps, source, hosts, onError });
 */
export async function serveSecurityEvents(r: EventsRequest): Promise<void> {
  const [, , ndjson, id, json] = r.match;
  if (id !== undefined) return serveProof(r, decodeURIComponent(id), json !== undefined);
  let query: EventsQuery;
  try {
    query = parseEventsQuery(r.url.searchParams, r.deps.now?.() ?? Date.now());
  } catch (e) {
    if (!(e instanceof LeakscanError)) throw e;
    page(r.res, e.status, eventsErrorPage(r.viewer, r.zone, await r.hosts(), r.url.searchParams, { kind: 'error', code: e.code, text: e.message }));
    return;
  }
  if (ndjson !== undefined) return exportNdjson(r, query);
  const [chart, list, alerts, hosts] = await Promise.all([
    eventsChart(r.deps.index, r.zone, query),
    eventsList(r.deps.index, r.source, r.zone, query),
    r.deps.alerts === undefined ? undefined : alertsView(r.deps.alerts, r.viewer.token, r.zone),
    r.hosts(),
  ]);
  page(r.res, 200, eventsPage(r.viewer, { zone: r.zone, hosts, query, chart, list, alerts, now: r.deps.now?.() ?? Date.now() }));
}

/** The filtered events, oldest first, written as they are read (a month of events never sits in memory). */
async function exportNdjson(r: EventsRequest, query: EventsQuery): Promise<void> {
  const { before: _before, ...all } = query;
  const { res } = r;
  res.writeHead(200, {
    ...kSecurityHeaders,
    'content-type': 'application/x-ndjson; charset=utf-8',
    'content-disposition': `attachment; filename="leakscan-events-${r.zone}.ndjson"`,
    'cache-control': 'no-store',
  });
  if (r.head) return void res.end();
  try {
    for await (const rows of exportRows(r.deps.index, r.source, r.zone, all)) {
      if (res.destroyed) return;
      if (!res.write(toNdjson(rows))) await drained(res);
    }
    res.end();
  } catch (e) {
    // The status is sent: cut the download short, so it cannot pass for a complete one.
    r.onError(e);
    res.destroy();
  }
}

/** Resolves when `res` takes more, or is closed (a client that went away). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function serveProof(r: EventsRequest, id: string, json: boolean): Promise<void> {
  if (!kEventIdPattern.test(id)) throw new LeakscanError('SDD_ERR_EVENT_NOT_FOUND', `'${id.slice(0, 80)}' is not an event id (<request id>-<n>)`);
  const hint = r.url.searchParams.get('batch');
  if (hint !== null && !/^[1-9][0-9]{0,9}$/.test(hint)) throw new LeakscanError('SDD_ERR_INVALID_OPTION', `batch '${hint.slice(0, 32)}' is not a batch number`);
  const proven = await r.deps.prove(r.zone, id, hint === null ? undefined : Number(hint));
  if (!json) return page(r.res, 200, proofPage(r.viewer, r.zone, proven));
  r.res.setHeader('content-disposition', `attachment; filename="leakscan-proof-${id}.json"`);
  send(r.res, 200, `${JSON.stringify(proven, null, 2)}\n`, 'application/json; charset=utf-8');
}
