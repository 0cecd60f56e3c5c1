import {
  serveSharedAppend,
  type SharedWriterState,
  type SqliteEventStore,
} from '@gateway/event-store';
import { NestLogBridge, type GatewayLogger } from '@gateway/logging';
import { type MerchantRegistry, reloadMerchantsOnHangup } from '@gateway/merchants';
import { NestFactory } from '@nestjs/core';
import { AggregatorRegistry } from 'prom-client';
import { AppModule } from '../app.module';
import type { GatewayConfig } from '../config/gateway.config';
import type { Consumers } from '../consumers/consumers.host';
import { GatewayMetrics } from '../ops/gateway-metrics';
import { shutDownOnSignals } from '../ops/graceful-shutdown';
import { CONSUMERS, EVENT_STORE, MERCHANT_REGISTRY } from '../tokens';
import { WorkerPool, type PrimaryServices } from './worker-pool';

/**
 * The primary process of GATEWAY_WORKERS > 1: the gateway's application without an HTTP server.
 * It owns the event store's one writer and the consumers thread (projector, relay, dispatcher:
 * once, not once per process), and runs the request processes (WorkerPool), which serve HTTP on
 * the one port. Prints the listening line once every one of them listens.
 */
export async function runPrimary(config: GatewayConfig, logger: GatewayLogger): Promise<void> {
  const app = await NestFactory.createApplicationContext(AppModule.forConfig(config, logger), {
    logger: new NestLogBridge(logger),
    abortOnError: false,
  });
  const store = app.get<SqliteEventStore>(EVENT_STORE);
  const consumers = app.get<Consumers>(CONSUMERS);
  const metrics = app.get(GatewayMetrics);
  const services: PrimaryServices = {
    answer: async (question) => {
      switch (question.kind) {
        case 'append':
          return serveSharedAppend((request) => store.appendSerialized(request), question.append);
        case 'status':
          return consumers.status();
        case 'metrics': {
          // Counters and histograms summed over the processes, this one's (the writer's) included.
          const registries = [
            await metrics.registry.getMetricsAsJSON(),
            ...(await pool.registries()),
          ];
          const summed = AggregatorRegistry.aggregate(registries);
          return (await summed.metrics()) + (await consumers.metrics());
        }
      }
    },
    nudge: () => consumers.nudge(),
    writerState: (): SharedWriterState => {
      const { state, unwritable } = store.stats();
      return unwritable ? { state, unwritable } : { state };
    },
  };
  const pool = new WorkerPool(config.workers, services, logger);
  let url: string;
  try {
    url = await pool.start();
  } catch (error) {
    pool.kill();
    await app.close();
    throw error;
  }
  // Tests and scripts read this line to find the port when PORT=0.
  console.log(
    `gateway listening on ${url} (data: ${config.dataDir}, request processes: ${config.workers})`,
  );
  reloadMerchantsOnHangup(app.get<MerchantRegistry>(MERCHANT_REGISTRY), config.merchantsFile);
  process.on('SIGHUP', () => pool.signal('SIGHUP'));
  // SIGTERM or SIGINT: every request process drains (it refuses new requests and finishes those
  // in flight, whose appends the writer here still commits) and exits; then the consumers stop
  // and the store closes. One still busy after the grace period (and 5 s more) is killed.
  shutDownOnSignals(logger, async (signal) => {
    logger.info({ signal }, 'shutting down: draining the request processes');
    await pool.stop((config.shutdownGraceSeconds + 5) * 1000);
    await app.close();
  });
}
