import { openingDatabaseFile } from '@gateway/database-files';
import { SqliteEventStore } from '@gateway/event-store';
import type { Provider } from '@nestjs/common';
import { join } from 'node:path';
import type { GatewayConfig } from '../config/gateway.config';
import { GatewayMetrics } from '../ops/gateway-metrics';
import { METRICS_TEXT } from '../ops/metrics-text';
import { CONSUMERS, EVENT_STORE } from '../tokens';
import type { PrimaryLink } from './primary-link';

/**
 * What a request process (GATEWAY_WORKERS > 1) wires differently, in place of the app module's
 * providers of the same tokens: the event store reads the file itself and appends through the
 * primary's writer; the consumers run in the primary; its registry holds no writer metrics (the
 * primary's does) and /metrics is the primary's sum over every process.
 */
export function workerProviders(config: GatewayConfig, link: PrimaryLink): Provider[] {
  return [
    {
      provide: EVENT_STORE,
      useFactory: async () => {
        const filename = join(config.dataDir, 'events.db');
        const store = await openingDatabaseFile(filename, () =>
          SqliteEventStore.open({ filename, appendThrough: (append) => link.append(append) }),
        );
        link.followWriterState((state) => store.sharedWriterState(state));
        return store;
      },
    },
    { provide: CONSUMERS, useValue: link.consumers },
    {
      provide: GatewayMetrics,
      useFactory: () => {
        const metrics = new GatewayMetrics({});
        link.answerRegistryWith(() => metrics.registry.getMetricsAsJSON());
        return metrics;
      },
    },
    { provide: METRICS_TEXT, useValue: () => link.metricsText() },
  ];
}
