import { ORDER_STREAM_PREFIX } from '@gateway/domain';
import type { EventStore } from '@gateway/event-store';
import { Gauge, type Registry } from 'prom-client';
import { pulledCounter } from '../ops/gateway-metrics';
import type { RelayStatus } from './order-event.relay';

/**
 * The relay's figures, read from its status when /metrics is scraped. Lag: how far the bus's
 * acknowledged checkpoint trails the store, in events (positions; exact for the embedded store,
 * whose positions count events; 0 when no order event follows the checkpoint, whatever other
 * streams, such as the relay's lease, wrote after it) and in seconds (age of the oldest event
 * not yet acknowledged). On a cluster, a standby shows the checkpoint the lease carries.
 */
export function observeRelay(
  registry: Registry,
  relay: { status(): RelayStatus },
  store: Pick<EventStore, 'headPosition' | 'readAll'>,
): void {
  const registers = [registry];
  const checkpoint = () => relay.status().checkpoint ?? 0n;
  const oldestUnpublished = async () => {
    const [oldest] = await store.readAll({
      after: relay.status().checkpoint,
      maxCount: 1,
      streamPrefix: ORDER_STREAM_PREFIX,
    });
    return oldest;
  };
  new Gauge({
    name: 'gateway_relay_lag_events',
    help: 'Order events committed but not yet acknowledged by the bus (head minus checkpoint)',
    registers,
    async collect() {
      const head = (await store.headPosition()) ?? 0n;
      const behind = head > checkpoint() && (await oldestUnpublished()) !== undefined;
      this.set(behind ? Number(head - checkpoint()) : 0);
    },
  });
  new Gauge({
    name: 'gateway_relay_lag_seconds',
    help: 'Age of the oldest order event the bus has not acknowledged (0 when caught up)',
    registers,
    async collect() {
      const oldest = await oldestUnpublished();
      this.set(oldest ? Math.max(0, (Date.now() - Date.parse(oldest.recordedAt)) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'gateway_relay_leader',
    help: '1 while this node publishes (holds the relay lease on a cluster; always on one node)',
    registers,
    collect() {
      this.set(relay.status().role === 'standby' ? 0 : 1);
    },
  });
  new Gauge({
    name: 'gateway_relay_lease_term',
    help: 'Term of the relay lease last seen (counts take-overs; 0 without a lease)',
    registers,
    collect() {
      this.set(relay.status().term ?? 0);
    },
  });
  new Gauge({
    name: 'gateway_relay_checkpoint_position',
    help: 'Global position of the last event the bus acknowledged',
    registers,
    collect() {
      this.set(Number(checkpoint()));
    },
  });
  new Gauge({
    name: 'gateway_relay_up',
    help: '1 while the relay publishes, 0 while it retries a refused publish or is stopped',
    registers,
    collect() {
      this.set(relay.status().state === 'live' ? 1 : 0);
    },
  });
  pulledCounter(
    registry,
    'gateway_relay_events_published_total',
    'Order events the bus acknowledged',
    () => relay.status().eventsPublished,
  );
  pulledCounter(
    registry,
    'gateway_relay_publish_failures_total',
    'Publishes the bus refused (each retried)',
    () => relay.status().publishFailures,
  );
}
