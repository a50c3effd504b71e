/**
 * The fleet phase's traffic (bench/fleet.ts): the bench's seeded bodies served by a local origin
 * (test/serve/helpers.ts `startOrigin`), and requests through the proxy on kept-alive connections,
 * each body read to its end, each request timed from its start to its last byte.
 */
import { Agent, request } from 'node:http';
import { makeBody, kContentKinds, type Body, type Density, type SizeLabel } from './bodies.js';
import { plant, startOrigin, type Origin, type OriginBody } from '../test/serve/helpers.js';

/** The bodies of one density: every content kind at each size. */
export function corpusOf(density: Density, sizes: readonly SizeLabel[]): Body[] {
  return kContentKinds.flatMap((kind) => sizes.map((size) => makeBody(kind, density, size)));
}

/** An origin serving each body at `/<its name>` (e.g. `/json/sparse/1MB`) with its content type. */
export function serveBodies(bodies: readonly Body[]): Promise<Origin> {
  const routes: Record<string, OriginBody> = {};
  for (const b of bodies) routes[`/${b.name}`] = { headers: { 'content-type': b.contentType }, body: b.bytes, decoded: b.bytes };
  return startOrigin(routes, plant());
}

export interface Sent {
  /** Milliseconds from each request's start to its last byte, in completion order. */
  ms: number[];
  bytes: number;
  /** Requests that did not end in a 200 with the whole body, by reason. */
  failed: string[];
  wallMs: number;
}

function getOnce(agent: Agent, url: string, host: string): Promise<{ ms: number; bytes: number; failure: string | null }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { agent, headers: { host } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ ms: performance.now() - t0, bytes, failure: res.statusCode === 200 ? null : `HTTP ${res.statusCode}` }));
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ ms: 0, bytes, failure: e.code ?? e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ ms: 0, bytes: 0, failure: e.code ?? e.message }));
    req.end();
  });
}

/**
 * Requests `paths` in turn on `concurrency` connections (closed loop: each connection sends its next
 * request when the last has ended) until `count` requests have been sent, or, with `untilMs`, until
 * that much time has passed.
 */
export async function send(o: { proxy: string; host: string; paths: readonly string[]; concurrency: number; count?: number; untilMs?: number }): Promise<Sent> {
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  const out: Sent = { ms: [], bytes: 0, failed: [], wallMs: 0 };
  const t0 = performance.now();
  let next = 0;
  const more = (): boolean => (o.count !== undefined ? next < o.count : performance.now() - t0 < (o.untilMs ?? 0));
  const lane = async (): Promise<void> => {
    while (more()) {
      const path = o.paths[next++ % o.paths.length]!;
      const r = await getOnce(agent, `${o.proxy}${path}`, o.host);
      if (r.failure === null) out.ms.push(r.ms);
      else out.failed.push(r.failure);
      out.bytes += r.bytes;
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, lane));
  out.wallMs = performance.now() - t0;
  agent.destroy();
  return out;
}
