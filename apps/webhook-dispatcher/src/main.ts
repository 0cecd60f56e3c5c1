import { DatabaseFileError, openingDatabaseFile } from '@gateway/database-files';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { ConfigError } from '@gateway/config';
import { MerchantFileError, MerchantRegistry, reloadMerchantsOnHangup } from '@gateway/merchants';
import { createLogger } from '@gateway/logging';
import { kafkaOrderEventConsumer } from '@gateway/order-events';
import { SqliteDeliveryStore, WebhookDispatcher, WebhookMetrics } from '@gateway/webhooks';
import { loadDispatcherConfig } from './dispatcher.config';
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
  const { deliveryDb } = config.webhooks;
  const deliveries = await openingDatabaseFile(
    deliveryDb,
    () => new SqliteDeliveryStore(deliveryDb),
  );
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const dispatcher = new WebhookDispatcher({
    config: config.webhooks.delivery,
    deliveries,
    merchants,
    consumer: kafkaOrderEventConsumer(config.bus, logger, config.sessionTimeoutMs),
    observer: new WebhookMetrics(registry, () => deliveries.pendingCount()),
  });
  let stopping = false;
  const ops = new DispatcherOpsServer(registry, () => ({
    status: stopping ? 'stopping' : 'up',
    pendingDeliveries: deliveries.pendingCount(),
  }));
  const opsPort = await ops.listen(config.opsPort);
  await dispatcher.start();
  reloadMerchantsOnHangup(merchants, config.merchantsFile);
  const { topic, consumerGroup } = config.bus;
  // Tests and scripts read this line to find the metrics port when GATEWAY_DISPATCHER_PORT=0.
  console.log(
    `webhook dispatcher running: topic ${topic}, consumer group ${consumerGroup}, ` +
      `deliveries in ${config.webhooks.deliveryDb}, metrics and health listening on http://127.0.0.1:${opsPort}`,
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
          await deliveries.close();
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
