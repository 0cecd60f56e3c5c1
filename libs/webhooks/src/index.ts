/**
 * Webhook delivery: the dispatcher (order events → durable delivery queue → signed HTTPS POSTs
 * with retries and dead letters), its SQLite delivery store and its settings. Run inside the
 * gateway (embedded) or by apps/webhook-dispatcher (standalone); the gateway serves the delivery
 * API on the same store.
 */
export * from './webhook-dispatcher';
export * from './webhook.config';
export * from './webhooks.config';
export * from './webhook.metrics';
export * from './delivery/delivery.types';
export * from './delivery/sqlite-delivery.store';
export * from './delivery/retry-schedule';
export * from './cluster/partition-events';
export * from './cluster/partition-schedule';
export * from './cluster/cluster-delivery.store';
export * from './cluster/event-store-delivery-reader';
export * from './cluster/delivery-read-model';
