import { DatabaseFileError, openingDatabaseFile } from '@gateway/database-files';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { ConfigError } from '@gateway/config';
import { MerchantFileError, MerchantRegistry, reloadMerchantsOnHangup } from '@gateway/merchants';
import { createLogger } from '@gateway/logging';
import { createEventStore } from '@gateway/event-store';
import { kafkaOrderEventConsumer } from '@gateway/order-events';
import {
  ClusterDeliveryStore,
  SqliteDeliveryStore,
  WebhookDispatcher,
  WebhookMetrics,
} from '@gateway/webhooks';
import { loadDispatcherConfig, type DispatcherConfig } from './dispatcher.config';
import { DispatcherOpsServer } from './ops/dispatcher-ops.server';

/** Beyond the attempts' own time limit, how long closing Kafka and the stores may take. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The standalone webhook dispatcher: consumes the order events topic in the consumer group
 * KAFKA_CONSUMER_GROUP, records notifications in the delivery store the gateway serves its
 * delivery API on (GATEWAY_WEBHOOK_DISPATCHER=external there), and delivers them.
 */
async function main(): Promise<void> {
  const config = loadDispatcherConfig();
  const merchants = MerchantRegistry.load(config.merchantsFile);
  const logger = createLogger(config.logLevel, undefined, 'webhook-dispatcher');
  const { deliveries, close, ownership, where } = await openDeliveries(config, logger);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const dispatcher = new WebhookDispatcher({
    config: config.webhooks.delivery,
    deliveries,
    merchants,
    consumer: kafkaOrderEventConsumer(config.bus, logger, config.sessionTimeoutMs, ownership),
    observer: new WebhookMetrics(registry, () => deliveries.pendingCount()),
  });
  let stopping = false;
  const ops = new DispatcherOpsServer(registry, () => ({
    status: stopping ? 'stopping' : 'up',
    pendingDeliveries: deliveries.pendingCount(),
    ...(deliveries instanceof ClusterDeliveryStore ? { partitions: deliveries.partitions() } : {}),
  }));
  const opsPort = await ops.listen(config.opsPort);
  await dispatcher.start();
  reloadMerchantsOnHangup(merchants, config.merchantsFile);
  const { topic, consumerGroup } = config.bus;
  // Tests and scripts read this line to find the metrics port when GATEWAY_DISPATCHER_PORT=0.
  console.log(
    `webhook dispatcher running: topic ${topic}, consumer group ${consumerGroup}, ` +
      `deliveries in ${where}, metrics and health listening on http://127.0.0.1:${opsPort}`,
  );
  const attemptLimitMs = config.webhooks.delivery.timeoutMs;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      // Kafka or a store that never closes must not keep the process alive.
      setTimeout(() => process.exit(1), attemptLimitMs + SHUTDOWN_GRACE_MS).unref();
      // Stop consuming; attempts in flight end within their time limit and are logged.
      dispatcher
        .close(attemptLimitMs)
        .then(async () => {
          await close();
          await ops.close();
        })
        .then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(`webhook dispatcher did not stop cleanly: ${(error as Error).message}`);
            process.exit(1);
          },
        );
    });
  }
}

/**
 * The delivery store: GATEWAY_WEBHOOK_DB for a lone dispatcher, or (GATEWAY_WEBHOOK_STORE=
 * event-store) the schedules of the partitions the consumer group assigns this one, kept in the
 * event store, so that several dispatchers share the topic with each delivery sent by one.
 */
async function openDeliveries(config: DispatcherConfig, logger: ReturnType<typeof createLogger>) {
  const { deliveryDb, store, delivery } = config.webhooks;
  if (store === 'sqlite' || config.eventStore.kind !== 'kurrentdb') {
    const deliveries = await openingDatabaseFile(
      deliveryDb,
      () => new SqliteDeliveryStore(deliveryDb),
    );
    return { deliveries, close: () => deliveries.close(), ownership: {}, where: deliveryDb };
  }
  const eventStore = await createEventStore(config.eventStore);
  const deliveries = new ClusterDeliveryStore({
    store: eventStore,
    topic: config.bus.topic,
    // A partition's previous owner has this long to log its attempts in flight and release it.
    handoverMs: delivery.timeoutMs + 1000,
    pollMs: delivery.pollMs,
    onError: (error, streamId) =>
      logger.warn({ err: (error as Error).message, streamId }, 'delivery schedule unreadable'),
  });
  return {
    deliveries,
    close: () => deliveries.close().finally(() => eventStore.close()),
    ownership: {
      onRebalancing: () => deliveries.onRebalancing(),
      onAssigned: (partitions: readonly number[]) => deliveries.onAssigned(partitions),
    },
    where: 'the event store (a schedule per partition)',
  };
}

if (require.main === module) {
  main().catch((error: unknown) => {
    const known =
      error instanceof ConfigError ||
      error instanceof MerchantFileError ||
      error instanceof DatabaseFileError;
    console.error(
      known
        ? error.message
        : `webhook dispatcher failed to start: ${(error as Error).message ?? error}`,
    );
    process.exit(1);
  });
}
