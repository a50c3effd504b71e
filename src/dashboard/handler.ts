/**
 * The dashboard on the API port (`http://127.0.0.1:8787/`): Security › Sensitive Data per zone. It is a
 * client of the Rulesets API's service, as Cloudflare's dashboard is of its API: every change is the
 * API call a script would make (same validation, same versions, same error codes), done with the
 * signed-in token's zones and permission.
 *
 * Paths: `/` (sign-in, then the zones), `/session` and `/session/end`, `/zones?zone=ID|HOST`,
 * `/zones/{zone}/sensitive-data` and its forms (`/deploy`, `/enable`, `/disable`, `/expression`,
 * `/overrides`), `/zones/{zone}/sensitive-data/detections[?before=N]` (stored Log events and their
 * verification, when the server keeps them), `/zones/{zone}/security/events[.ndjson]` and
 * `/zones/{zone}/security/events/{id}/proof[.json]` (events-handler.ts, when the server has an events
 * index), `/assets/dashboard.css`. Any other path is not the dashboard's (the handler returns
 * false and the port answers with the API's 404).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBodyCapped, tokenAllows, type TokenInfo, type TokenStore } from '../api/index.js';
import { kManagedRuleIds, kManagedTags, kPhase, RulesetsApiError, type RulesetService, type Ruleset } from '../rulesets/index.js';
import { isZoneId, zoneOfIdOrHost, ZoneResolver, type LogEvent, type ZoneMapping } from '../eventlog/index.js';
import type { DetectionBatch } from './batches.js';
import { LeakscanError } from '../errors.js';
import { countsByRule, exportRow, isEmptyFilter, keeps, parseFilter, toCsv, toNdjson, type DetectionFilter, type RuleCount } from './detections.js';
import type { Html } from './html.js';
import { applySwitches, deploymentOf, expressionProblem, isSwitch, mappedHosts, newExecuteRule, overridesOf, ruleBody, switchesOf, type DetectionSource, type ExpressionProblem, type Switch, type SwitchChanges, type ZoneHost } from './model.js';
import { detectionsPage, errorPage, kDashboardCss, signInPage, zoneBase, zonePage, zonesPage, type Banner, type DetectionsView, type Viewer, type ZoneEntry } from './pages.js';
import { kEventsRoute, serveSecurityEvents, type SecurityEventsDeps } from './events-handler.js';
import { notAllowed, page, redirect, send } from './respond.js';
import { cookieValue, kSessionCookie, kSessionTtlMs, sameSecret, Sessions, type OpenSession } from './sessions.js';

/** Largest form accepted (the rules form with every switch set is about 6 KB). */
export const kMaxFormBytes = 256 * 1024;

export interface DashboardDeps {
  service: RulesetService;
  tokens: TokenStore;
  /** Unexpected errors (bugs, disk failures): the page says so with a 500; default prints to stderr. */
  onError?: (err: unknown) => void;
  /** Stored detections to show (`leakscan serve` passes its events bucket and audit log); none: no page. */
  detections?: DetectionSource;
  /** The proxy's `--zone` mapping: a host typed in the zone box opens the zone the proxy sends it to, and the zone list names mapped hosts. */
  zones?: ZoneMapping;
  /** Security › Events: the events index, event proofs and alerting (`leakscan serve` passes them); needs `detections` for the batches' checks. None: no page. */
  events?: SecurityEventsDeps;
}

/** The detections page shows whole batches, newest first, until it holds this many events. */
export const kDetectionsPerPage = 200;
/** …or this many batches. */
const kBatchesPerPage = 20;

/** What each form's redirect says, by key (the query carries the key only, never text). */
const kDone: Record<string, string> = {
  deploy: 'Deployed: the managed ruleset runs on this zone with its default rules.',
  enable: 'Enabled.',
  disable: 'Disabled: no response of this zone is scanned for the managed ruleset.',
  expression: 'Filter expression saved.',
  overrides: 'Switches saved.',
};

class FormError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

export function createDashboardHandler(deps: DashboardDeps): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const sessions = new Sessions(deps.tokens);
  const onError = deps.onError ?? ((err: unknown) => process.stderr.write(`leakscan dashboard: ${(err as Error)?.stack ?? String(err)}\n`));
  const { service } = deps;
  const detections = deps.detections;
  // Security › Events reads the events index and checks batches through `detections`.
  const eventsOn = deps.events !== undefined && detections !== undefined;
  const resolver = new ZoneResolver(deps.zones);
  // The hosts the dashboard knows for a zone: the mapping's, then those of its stored events.
  const hostsOf = async (zone: string): Promise<ZoneHost[]> => {
    const mapped = mappedHosts(deps.zones, zone);
    const seen = (await detections?.hosts?.(zone)) ?? [];
    return [...mapped, ...seen.filter((h) => !mapped.some((m) => m.name === h)).map((name): ZoneHost => ({ name, source: 'seen' }))];
  };
  const listZones = async (token: TokenInfo): Promise<ZoneEntry[]> =>
    Promise.all((await visibleZones(service, token, deps.zones)).map(async (zone) => ({ zone, hosts: await hostsOf(zone) })));

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const zoneMatch = /^\/zones\/([^/]+)\/sensitive-data(?:\/([a-z]+)(?:\.(ndjson|csv))?)?$/.exec(path);
    const eventsMatch = deps.events === undefined || detections === undefined ? null : kEventsRoute.exec(path);
    const ours = path === '/' || path === '/session' || path === '/session/end' || path === '/zones' || path === '/assets/dashboard.css' || zoneMatch !== null || eventsMatch !== null;
    if (!ours) return false;
    const method = req.method ?? 'GET';
    const read = method === 'GET' || method === 'HEAD';
    let session: OpenSession | undefined;
    let viewer: Viewer | undefined;
    try {
      if (path === '/assets/dashboard.css') {
        req.resume();
        if (!read) return notAllowed(res, 'GET, HEAD'), true;
        send(res, 200, kDashboardCss, 'text/css; charset=utf-8', 'public, max-age=3600');
        return true;
      }
      session = await sessions.get(cookieValue(req.headers.cookie, kSessionCookie));
      viewer = session === undefined ? undefined : { token: session.token, csrf: session.csrf };

      if (path === '/session') {
        if (method !== 'POST') return (req.resume(), notAllowed(res, 'POST'), true);
        checkOrigin(req);
        const form = await readForm(req);
        const opened = await sessions.open(form.get('token')?.trim() ?? '');
        if (opened === undefined) {
          page(res, 401, signInPage({ kind: 'error', text: 'Unknown or revoked API token.' }));
          return true;
        }
        if (session !== undefined) sessions.end(session.id);
        res.setHeader('set-cookie', `${kSessionCookie}=${opened.id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${kSessionTtlMs / 1000}`);
        redirect(res, '/');
        return true;
      }
      if (path === '/session/end') {
        if (method !== 'POST') return (req.resume(), notAllowed(res, 'POST'), true);
        checkOrigin(req);
        const form = await readForm(req);
        if (session !== undefined) {
          checkCsrf(form, session);
          sessions.end(session.id);
        }
        res.setHeader('set-cookie', `${kSessionCookie}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`);
        redirect(res, '/');
        return true;
      }
      if (session === undefined || viewer === undefined) {
        req.resume();
        if (path === '/' && read) page(res, 200, signInPage());
        else if (read) redirect(res, '/');
        else page(res, 401, signInPage({ kind: 'error', text: 'Sign in first: the session has ended (signed out, expired, server restarted or token revoked).' }));
        return true;
      }

      if (path === '/' || path === '/zones') {
        req.resume();
        if (!read) return notAllowed(res, 'GET, HEAD'), true;
        if (path === '/zones') {
          const asked = (url.searchParams.get('zone') ?? '').trim();
          // A host goes to the zone the proxy sends it to: its --zone mapping, else its derived zone.
          const zone = isZoneId(asked.toLowerCase()) ? asked.toLowerCase() : zoneOfIdOrHost(asked) === undefined ? undefined : resolver.zoneOf(asked);
          if (zone === undefined) {
            page(res, 400, zonesPage(viewer, await listZones(session.token), { kind: 'error', text: `'${asked}' is neither a zone id (32 hexadecimal digits) nor a host name.` }));
          } else redirect(res, zoneBase(zone));
          return true;
        }
        page(res, 200, zonesPage(viewer, await listZones(session.token)));
        return true;
      }

      if (eventsMatch !== null) {
        req.resume();
        if (!read) return notAllowed(res, 'GET, HEAD'), true;
        const zone = eventsMatch[1]!;
        if (zoneRefused(res, zone, session.token, viewer)) return true;
        await serveSecurityEvents({ res, head: method === 'HEAD', url, match: eventsMatch, zone, viewer, deps: deps.events!, source: detections!, hosts: () => hostsOf(zone), onError });
        return true;
      }

      // /zones/{zone}/sensitive-data[/action]
      const zone = zoneMatch![1]!;
      const action = zoneMatch![2];
      const format = zoneMatch![3] as 'ndjson' | 'csv' | undefined;
      if (format !== undefined && action !== 'detections') {
        req.resume();
        page(res, 404, errorPage('Not found', { kind: 'error', text: `No such page: ${path}.` }, viewer));
        return true;
      }
      if (zoneRefused(res, zone, session.token, viewer)) return req.resume(), true;
      if (action === undefined) {
        req.resume();
        if (!read) return notAllowed(res, 'GET, HEAD'), true;
        const done = url.searchParams.get('done');
        const b: Banner | undefined = done !== null && Object.hasOwn(kDone, done) ? { kind: 'ok', text: kDone[done]! } : undefined;
        page(res, 200, await renderZone(service, viewer, zone, url.searchParams.get('q') ?? '', undefined, b, detections !== undefined, await hostsOf(zone), undefined, eventsOn));
        return true;
      }
      if (action === 'detections' && detections !== undefined) {
        req.resume();
        if (!read) return notAllowed(res, 'GET, HEAD'), true;
        const beforeText = url.searchParams.get('before');
        const before = beforeText === null ? Number.POSITIVE_INFINITY : Number(beforeText);
        if (beforeText !== null && (!/^[1-9][0-9]{0,9}$/.test(beforeText) || !Number.isSafeInteger(before))) {
          page(res, 400, errorPage('Request refused', { kind: 'error', text: `'${beforeText}' is not a batch number.` }, viewer));
          return true;
        }
        const filter = parseFilter(url.searchParams);
        const found = await readDetections(detections, zone, filter);
        if (format !== undefined) {
          // Oldest first, as the events were written; each field as the redaction choke point left it.
          const rows = found.batches.toReversed().flatMap((b) => b.kept.map((e) => exportRow(e, b.batch.state)));
          res.setHeader('content-disposition', `attachment; filename="leakscan-detections-${zone}.${format}"`);
          send(res, 200, format === 'csv' ? toCsv(rows) : toNdjson(rows), format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
          return true;
        }
        page(res, 200, detectionsPage(viewer, { ...detectionsView(zone, filter, found, before), hosts: await hostsOf(zone), events: eventsOn }));
        return true;
      }
      if (!Object.hasOwn(kDone, action)) {
        req.resume();
        page(res, 404, errorPage('Not found', { kind: 'error', text: `No such form: ${action}.` }, viewer));
        return true;
      }
      if (method !== 'POST') return (req.resume(), notAllowed(res, 'POST'), true);
      checkOrigin(req);
      const form = await readForm(req);
      checkCsrf(form, session);
      try {
        if (!tokenAllows(session.token, zone, true)) throw new FormError(403, 'This token can read only: changes need a token with edit permission.');
        await apply(service, zone, action, form);
      } catch (err) {
        let b = bannerOf(err, onError);
        const draft = action === 'expression' ? (form.get('expression') ?? undefined) : undefined;
        // The API's message holds the parser's caret line, which a proportional banner cannot align:
        // the page shows the reason in the banner and the caret under the expression itself.
        const problem = draft !== undefined && err instanceof RulesetsApiError && err.errorName === 'INVALID_EXPRESSION' ? expressionProblem(draft.trim()) : undefined;
        if (problem !== undefined) b = { kind: 'error', code: (err as RulesetsApiError).code, text: `The filter expression is invalid at line ${problem.line}, column ${problem.column}: ${problem.reason}.` };
        page(res, statusOf(err), await renderZone(service, viewer, zone, '', draft, b, detections !== undefined, await hostsOf(zone), problem, eventsOn));
        return true;
      }
      redirect(res, `${zoneBase(zone)}?done=${action}`);
      return true;
    } catch (err) {
      const b = bannerOf(err, onError);
      if (!res.headersSent) {
        page(res, statusOf(err), errorPage(statusOf(err) === 500 ? 'Something went wrong' : 'Request refused', b, viewer));
      }
      if (!req.complete) res.once('finish', () => req.destroy());
      return true;
    }
  };
}

/** Answers 404 for a path whose zone is not a zone id, 403 for a zone the token may not read; true when it did. */
function zoneRefused(res: ServerResponse, zone: string, token: TokenInfo, viewer: Viewer): boolean {
  if (!isZoneId(zone)) {
    page(res, 404, errorPage('Not found', { kind: 'error', text: `'${zone}' is not a zone id (32 lower-case hexadecimal digits).` }, viewer));
    return true;
  }
  if (!tokenAllows(token, zone, false)) {
    page(res, 403, errorPage('Not allowed', { kind: 'error', text: `This token cannot act on zone ${zone}.` }, viewer));
    return true;
  }
  return false;
}

/** Zones with a stored configuration or a --zone mapping that the token may read, and the token's own. */
async function visibleZones(service: RulesetService, token: TokenInfo, mapping: ZoneMapping | undefined): Promise<string[]> {
  const known = [...(await service.zones()), ...Object.values(mapping?.hosts ?? {}), ...(mapping?.defaultZone === undefined ? [] : [mapping.defaultZone])];
  const named = token.zones.filter((z) => z !== '*');
  return [...new Set([...known.filter((z) => tokenAllows(token, z, false)), ...named])].sort();
}

async function entrypointOf(service: RulesetService, zone: string): Promise<Ruleset | undefined> {
  try {
    return await service.getEntrypoint(zone, kPhase);
  } catch (err) {
    if (err instanceof RulesetsApiError && err.errorName === 'ENTRYPOINT_NOT_FOUND') return undefined;
    throw err;
  }
}

async function renderZone(service: RulesetService, viewer: Viewer, zone: string, query: string, draft: string | undefined, b: Banner | undefined, detections: boolean, hosts: ZoneHost[], problem?: ExpressionProblem, events = false): Promise<Html> {
  const deployment = deploymentOf(await entrypointOf(service, zone));
  const switches = switchesOf(overridesOf(deployment.rule));
  return zonePage(viewer, { zone, deployment, switches, query, expression: draft ?? deployment.rule?.expression ?? 'true', detections, problem, hosts, events }, b);
}

/** The zone's batches read for the page, the counts and the exports: the newest this many, each read and checked on every view. */
export const kScannedBatches = 100;

interface FoundBatch {
  batch: DetectionBatch;
  /** Its events the filter keeps. */
  kept: LogEvent[];
}

interface Found {
  /** Newest first. */
  batches: FoundBatch[];
  /** Batches the zone has in all (more than were read when over kScannedBatches). */
  total: number;
  /** Events per rule that every filter but the rule's keeps. */
  counts: RuleCount[];
}

/** The zone's newest batches, each checked against its epoch, with the events the filter keeps. */
async function readDetections(source: DetectionSource, zone: string, filter: DetectionFilter): Promise<Found> {
  const all = await source.batches(zone);
  const batches: FoundBatch[] = [];
  const counted: LogEvent[] = [];
  for (let i = all.length - 1; i >= 0 && batches.length < kScannedBatches; i--) {
    const batch = await source.read(zone, all[i]!);
    for (const e of batch.events) if (keeps(filter, e, true)) counted.push(e);
    batches.push({ batch, kept: batch.events.filter((e) => keeps(filter, e)) });
  }
  return { batches, total: all.length, counts: countsByRule(counted) };
}

/**
 * Whole batches older than `before`, newest first, until the page holds enough events. With a filter,
 * a batch with nothing kept is left out, unless it failed its check (that is always shown).
 */
function detectionsView(zone: string, filter: DetectionFilter, found: Found, before: number): DetectionsView {
  const empty = isEmptyFilter(filter);
  const older = found.batches.filter((b) => b.batch.batch < before && (empty || b.kept.length > 0 || b.batch.state === 'failed'));
  const shown: FoundBatch[] = [];
  let events = 0;
  for (const b of older) {
    if (events >= kDetectionsPerPage || shown.length >= kBatchesPerPage) break;
    shown.push(b);
    events += b.kept.length;
  }
  const last = shown.at(-1)?.batch.batch;
  return {
    zone, filter, total: found.total, scanned: found.batches.length, counts: found.counts,
    matched: found.batches.reduce((n, b) => n + b.kept.length, 0),
    batches: shown.map((b) => ({ ...b.batch, events: b.kept })),
    older: last !== undefined && older.length > shown.length ? last : undefined,
  };
}

/** One form's change, as the API calls a script would make. */
async function apply(service: RulesetService, zone: string, action: string, form: URLSearchParams): Promise<void> {
  const d = deploymentOf(await entrypointOf(service, zone));
  if (action === 'deploy') {
    if (d.rule !== undefined) throw new FormError(409, 'The managed ruleset is already deployed on this zone.');
    if (d.entrypoint === undefined) await service.updateEntrypoint(zone, kPhase, { rules: [newExecuteRule()] });
    else await service.addRule(zone, d.entrypoint.id, newExecuteRule());
    return;
  }
  const rule = d.rule;
  if (rule === undefined || d.entrypoint === undefined) throw new FormError(409, 'The managed ruleset is not deployed on this zone: deploy it first.');
  // The page's forms carry the version of the rule they were drawn from: a change made elsewhere since
  // (another tab, the API) is not overwritten without being seen.
  const seen = form.get('version');
  if (seen !== null && seen !== rule.version) {
    throw new FormError(409, `The rule changed since this page was loaded (version ${seen}, now ${rule.version}): the page shows it as it is now; make the change again.`);
  }
  let body: Record<string, unknown>;
  if (action === 'enable' || action === 'disable') body = ruleBody(rule, { enabled: action === 'enable' });
  else if (action === 'expression') {
    const expression = form.get('expression');
    if (expression === null) throw new FormError(400, 'The form has no expression field.');
    body = ruleBody(rule, { expression: expression.trim() });
  } else body = ruleBody(rule, { overrides: applySwitches(overridesOf(rule), switchChanges(form)) ?? null });
  await service.editRule(zone, d.entrypoint.id, rule.id, body);
}

/** The switches a form sets; an unknown tag, rule or value is refused rather than dropped. */
function switchChanges(form: URLSearchParams): SwitchChanges {
  const tags = new Map<string, Switch>();
  const rules = new Map<string, Switch>();
  let all: Switch | undefined;
  for (const [name, value] of form) {
    if (name === 'csrf' || name === 'version') continue;
    if (!isSwitch(value)) throw new FormError(400, `'${value}' is not a switch value for ${name} (default, on or off).`);
    if (name === 'all') all = value;
    else if (name.startsWith('tag.') && kManagedTags.has(name.slice(4))) tags.set(name.slice(4), value);
    else if (name.startsWith('rule.') && kManagedRuleIds.has(name.slice(5))) rules.set(name.slice(5), value);
    else throw new FormError(400, `'${name}' is not a tag or rule of the managed ruleset.`);
  }
  return all === undefined ? { tags, rules } : { all, tags, rules };
}

function checkCsrf(form: URLSearchParams, session: OpenSession): void {
  if (!sameSecret(form.get('csrf') ?? '', session.csrf)) throw new FormError(403, 'The form is not from this session (missing or stale form token): reload the page and try again.');
}

/**
 * A browser's cross-site POST carries its Origin: only this host's own pages may post. `Origin: null`
 * (a sandboxed iframe, a data: page, a redirect across sites) is as foreign as any other site: taking it
 * would let a page sign a visitor in to an attacker's token (login CSRF). Requests without an Origin
 * (command-line clients) pass; the forms of a session also carry its CSRF token.
 */
function checkOrigin(req: IncomingMessage): void {
  const origin = req.headers.origin;
  if (origin === undefined) return;
  if (origin === 'null') throw new FormError(403, 'The request comes from another site.');
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    throw new FormError(403, 'The request comes from another site.');
  }
  if (host !== req.headers.host) throw new FormError(403, 'The request comes from another site.');
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new FormError(415, `forms are sent as application/x-www-form-urlencoded, not '${type}'.`);
  const body = await readBodyCapped(req, kMaxFormBytes);
  if (body === undefined) throw new FormError(413, `The form is larger than ${kMaxFormBytes} bytes.`);
  return new URLSearchParams(body.toString('utf8'));
}

function bannerOf(err: unknown, onError: (err: unknown) => void): Banner {
  if (err instanceof LeakscanError) return { kind: 'error', code: err.code, text: err.message };
  if (err instanceof RulesetsApiError) return { kind: 'error', code: err.code, text: err.message };
  if (err instanceof FormError) return err.code === undefined ? { kind: 'error', text: err.message } : { kind: 'error', code: err.code, text: err.message };
  onError(err);
  return { kind: 'error', text: 'Internal error: the change may not have been made; see the server log.' };
}

function statusOf(err: unknown): number {
  if (err instanceof LeakscanError) return err.status;
  if (err instanceof RulesetsApiError) return err.status;
  if (err instanceof FormError) return err.status;
  return 500;
}
