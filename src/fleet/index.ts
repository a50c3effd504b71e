/**
 * The fleet roles on NATS JetStream (docs/fleet.md): the bus and its streams, what travels on them,
 * the publisher `serve --nats` and scan-workers use, and the stateless, competing batcher.
 * @example
 * import { connectBus, Batcher } from './fleet/index.js';
 * const nc = await connectBus('nats://127.0.0.1:4222', 'leakscan-batcher');
 * const batcher = new Batcher({ nc, bucket, log });
 * await batcher.start();
 */
export { connectBus, parseNatsUrl, ensureEventsStream, ensureBodiesStream, eventsSubject, bodiesSubject, zoneOfSubject, streamIdentity, kEventsStream, kBodiesStream, kScanConsumer, kDuplicateWindowMs, kBodiesMaxBytesDefault } from './bus.js';
export { parseEvent, parseOutcome, parseRecord, outcomeMsgId, kKindHeader, type Outcome, type BusRecord } from './messages.js';
export { EventPublisher, type PublisherOptions, type PublisherStats } from './publisher.js';
export { Batcher, type BatcherOptions, type BatcherStats } from './batcher.js';
export { openFleetStore, openS3Url, parseS3Url, type FleetStore, type S3Location } from './store.js';
export { encodeEnvelope, parseEnvelope, kExchangeHeader, BodyPublisher, type BodyEnvelope, type BodyPublisherStats } from './bodies.js';
export { busLogin, kNatsPasswordEnv, kNatsTokenEnv, type BusLogin, type BusLoginFlags } from './auth.js';
export { ScanWorker, type ScanWorkerOptions, type ScanWorkerStats } from './scan-worker.js';
