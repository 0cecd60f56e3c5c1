import { openingDatabaseFile } from '@gateway/database-files';
import type { EventStore, SqliteEventStore } from '@gateway/event-store';
import type { GatewayLogger } from '@gateway/logging';
import type { MerchantRegistry } from '@gateway/merchants';
import { SqliteOrderSummaryReadModel, type OrderSummaryReadModel } from '@gateway/projections';
import {
  DeliveryReadModel,
  SqliteDeliveryStore,
  WebhookMetrics,
  type DeliveryLog,
} from '@gateway/webhooks';
import {
  Inject,
  type BeforeApplicationShutdown,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { runningConsumers } from '../config/consumers.config';
import type { GatewayConfig } from '../config/gateway.config';
import { GatewayMetrics } from '../ops/gateway-metrics';
import { PublicOrderEvents } from '../order-events/public-order-events';
import { OrderListNotServed } from '../projection/order-list-not-served';
import {
  CONSUMERS,
  EVENT_STORE,
  LOGGER,
  MERCHANT_REGISTRY,
  ORDER_SUMMARIES,
  WEBHOOK_DELIVERIES,
} from '../tokens';
import type { ConsumersSettings } from './consumers-protocol';
import { ConsumersHost, NO_CONSUMERS, type Consumers } from './consumers.host';

/**
 * The consumers of committed order events, on the consumers thread (ConsumersHost), and what the
 * main thread keeps of them: the order list reads read-model.db, which the projector there
 * writes (without the projector the list is refused); the delivery API reads and writes the
 * delivery store (an external dispatcher shares it too); the live feeds build public events
 * themselves (PublicOrderEvents), from this thread's own subscriptions.
 */
export function consumersProviders(config: GatewayConfig): Provider[] {
  return [
    {
      provide: ORDER_SUMMARIES,
      useFactory: () => {
        if (!config.consumers.projector) return new OrderListNotServed();
        const filename = join(config.dataDir, 'read-model.db');
        return openingDatabaseFile(filename, () =>
          SqliteOrderSummaryReadModel.openToList(filename),
        );
      },
    },
    {
      provide: WEBHOOK_DELIVERIES,
      useFactory: async (metrics: GatewayMetrics, store: EventStore) => {
        const { deliveryDb } = config.webhooks;
        // Dispatchers sharing the topic keep the deliveries in the event store (docs/webhooks.md).
        const deliveries =
          config.webhooks.store === 'event-store'
            ? new DeliveryReadModel(store)
            : await openingDatabaseFile(deliveryDb, () => new SqliteDeliveryStore(deliveryDb));
        // With the dispatcher on the consumers thread, its metrics come from there.
        if (!config.consumers.dispatcher)
          new WebhookMetrics(metrics.registry, () => deliveries.pendingCount());
        return deliveries;
      },
      inject: [GatewayMetrics, EVENT_STORE],
    },
    {
      provide: CONSUMERS,
      useFactory: async (
        store: EventStore,
        merchants: MerchantRegistry,
        logger: GatewayLogger,
      ): Promise<Consumers> => {
        if (runningConsumers(config.consumers).length === 0) return NO_CONSUMERS;
        const host = await ConsumersHost.start(settingsOf(config, store), logger);
        merchants.onReload(() => host.reloadMerchants());
        return host;
      },
      inject: [EVENT_STORE, MERCHANT_REGISTRY, LOGGER],
    },
    ConsumersShutdown,
    PublicOrderEvents,
  ];
}

/** With the embedded store, its writer posts every commit to the consumers thread directly. */
function settingsOf(config: GatewayConfig, store: EventStore): ConsumersSettings {
  const settings = {
    dataDir: config.dataDir,
    merchantsFile: config.merchantsFile,
    logLevel: config.logLevel,
    eventStore: config.eventStore,
    bus: config.bus,
    webhooks: config.webhooks,
    consumers: config.consumers,
    projectionBatchSize: config.projectionBatchSize,
    relayLeaseSeconds: config.relayLeaseSeconds,
    relayHolder: `${hostname()}:${process.pid}:${randomUUID()}`,
  };
  if (config.eventStore.kind !== 'sqlite') return settings;
  const commitsChannel = `gateway-commits-${randomUUID()}`;
  (store as SqliteEventStore).tapCommits(commitsChannel);
  return { ...settings, commitsChannel };
}

/**
 * The consumers stop when shutdown begins, after the HTTP server stopped taking requests and
 * before the event store closes (every 201 is already durable there; the consumers resume from
 * their checkpoints at the next start); the main thread's read model and delivery store close
 * after in-flight requests, which may be listing orders or deliveries, have finished.
 */
class ConsumersShutdown implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(CONSUMERS) private readonly consumers: Consumers,
    @Inject(ORDER_SUMMARIES) private readonly summaries: Partial<OrderSummaryReadModel>,
    @Inject(WEBHOOK_DELIVERIES) private readonly deliveries: DeliveryLog,
  ) {}

  beforeApplicationShutdown(): Promise<void> {
    return this.consumers.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    this.summaries.close?.();
    await this.deliveries.close();
  }
}
