import { Gauge, type Registry } from 'prom-client';
import { CONSUMER_NAMES, type ConsumerSwitches } from '../config/consumers.config';

/** gateway_consumer_running{consumer}: 1 for each consumer this node runs, 0 for one switched off. */
export function observeConsumers(registry: Registry, switches: ConsumerSwitches): void {
  const gauge = new Gauge({
    name: 'gateway_consumer_running',
    help: 'In-process consumers of order events this node runs (GATEWAY_CONSUMERS): 1 on, 0 off',
    labelNames: ['consumer'] as const,
    registers: [registry],
  });
  for (const consumer of CONSUMER_NAMES) gauge.set({ consumer }, switches[consumer] ? 1 : 0);
}
