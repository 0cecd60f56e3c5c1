import type { Provider } from '@nestjs/common';
import type { Consumers } from '../consumers/consumers.host';
import { CONSUMERS } from '../tokens';
import { GatewayMetrics } from './gateway-metrics';

/** What /metrics answers: a function, so that a request process can ask the primary instead. */
export const METRICS_TEXT = Symbol('MetricsText');
export type MetricsText = () => Promise<string>;

/** This thread's registry followed by the consumers thread's (their names are disjoint). */
export const metricsTextProvider: Provider = {
  provide: METRICS_TEXT,
  useFactory:
    (metrics: GatewayMetrics, consumers: Consumers): MetricsText =>
    async () => {
      const [own, theirs] = await Promise.all([metrics.registry.metrics(), consumers.metrics()]);
      return own + theirs;
    },
  inject: [GatewayMetrics, CONSUMERS],
};
