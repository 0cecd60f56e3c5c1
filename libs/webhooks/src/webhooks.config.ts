import { isAbsolute, join, resolve } from 'node:path';
import { loadWebhookConfig, type WebhookConfig } from './webhook.config';

export const DISPATCHER_PLACEMENTS = ['embedded', 'external'] as const;
export const DELIVERY_STORES = ['sqlite', 'event-store'] as const;

/** Webhooks as the gateway runs them. */
export interface GatewayWebhooksConfig {
  /**
   * embedded: the gateway runs the dispatcher in its process (GATEWAY_WEBHOOK_DISPATCHER);
   * external: a standalone dispatcher (apps/webhook-dispatcher) delivers, and the gateway only
   * serves the delivery API on the store they share.
   */
  readonly dispatcher: (typeof DISPATCHER_PLACEMENTS)[number];
  /** The delivery store: pending deliveries, attempts, dead letters (GATEWAY_WEBHOOK_DB). */
  readonly deliveryDb: string;
  /**
   * sqlite: the delivery store is GATEWAY_WEBHOOK_DB, for one dispatcher; event-store: one
   * schedule stream per Kafka partition in KurrentDB, for several dispatchers (cluster/).
   */
  readonly store: (typeof DELIVERY_STORES)[number];
  readonly delivery: WebhookConfig;
}

export function loadGatewayWebhooks(
  env: NodeJS.ProcessEnv,
  problems: string[],
  dataDir: string,
  cwd: string,
): GatewayWebhooksConfig {
  const placement = env.GATEWAY_WEBHOOK_DISPATCHER || 'embedded';
  if (!(DISPATCHER_PLACEMENTS as readonly string[]).includes(placement))
    problems.push(`GATEWAY_WEBHOOK_DISPATCHER='${placement}' must be embedded or external`);
  const { deliveryDb, store } = deliveryStoreOf(env, problems, dataDir, cwd);
  return {
    dispatcher: placement === 'external' ? 'external' : 'embedded',
    deliveryDb,
    store,
    delivery: loadWebhookConfig(env, problems, cwd),
  };
}

/**
 * Where the deliveries are kept (GATEWAY_WEBHOOK_STORE, GATEWAY_WEBHOOK_DB): the gateway's
 * choice, and the console's reading of it (the same names, the same rule).
 */
export function deliveryStoreOf(
  env: NodeJS.ProcessEnv,
  problems: string[],
  dataDir: string,
  cwd: string,
): Pick<GatewayWebhooksConfig, 'deliveryDb' | 'store'> {
  const db = env.GATEWAY_WEBHOOK_DB || join(dataDir, 'webhooks.db');
  const store = env.GATEWAY_WEBHOOK_STORE || 'sqlite';
  if (!(DELIVERY_STORES as readonly string[]).includes(store))
    problems.push(`GATEWAY_WEBHOOK_STORE='${store}' must be sqlite or event-store`);
  else if (store === 'event-store' && env.GATEWAY_EVENT_STORE !== 'kurrentdb')
    problems.push(
      'GATEWAY_WEBHOOK_STORE=event-store needs GATEWAY_EVENT_STORE=kurrentdb: the delivery schedules live in the event store every node shares',
    );
  return {
    deliveryDb: isAbsolute(db) ? db : resolve(cwd, db),
    store: store === 'event-store' ? 'event-store' : 'sqlite',
  };
}
