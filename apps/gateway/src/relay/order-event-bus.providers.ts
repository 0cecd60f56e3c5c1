import { openingDatabaseFile } from '@gateway/database-files';
import type { EventStore } from '@gateway/event-store';
import {
  InProcessOrderEventBus,
  KafkaOrderEventPublisher,
  type OrderEventConsumer,
  type OrderEventPublisher,
  handlerFailed,
  kafkaOrderEventConsumer,
} from '@gateway/order-events';
import type { Provider } from '@nestjs/common';
import { join } from 'node:path';
import type { GatewayConfig } from '../config/gateway.config';
import { GatewayMetrics } from '../ops/gateway-metrics';
import { PublicOrderEvents } from '../order-events/public-order-events';
import type { GatewayLogger } from '@gateway/logging';
import { EVENT_STORE, LOGGER, ORDER_EVENT_CONSUMER, ORDER_EVENT_PUBLISHER } from '../tokens';
import { OrderEventRelay } from './order-event.relay';
import {
  RELAY_CHECKPOINTS,
  SqliteRelayCheckpointStore,
  type RelayCheckpointStore,
} from './relay-checkpoint.store';
import { RelayLifecycle } from './relay.lifecycle';
import { observeRelay } from './relay.metrics';

/**
 * The bus the configuration names (GATEWAY_BUS), bound to ORDER_EVENT_PUBLISHER and
 * ORDER_EVENT_CONSUMER, and the relay feeding it public events (built by PublicOrderEvents, which
 * the live feed shares), unless this node does not run it (GATEWAY_CONSUMERS). Embedded: one
 * InProcessOrderEventBus is both.
 */
export function orderEventBusProviders(config: GatewayConfig): Provider[] {
  return [
    {
      provide: ORDER_EVENT_PUBLISHER,
      useFactory: (logger: GatewayLogger) => {
        const bus = config.bus;
        return bus.kind === 'kafka'
          ? new KafkaOrderEventPublisher({ ...bus, log: logger })
          : new InProcessOrderEventBus({ onHandlerError: handlerFailed(logger) });
      },
      inject: [LOGGER],
    },
    {
      provide: ORDER_EVENT_CONSUMER,
      useFactory: (publisher: OrderEventPublisher, logger: GatewayLogger) => {
        const bus = config.bus;
        if (bus.kind !== 'kafka') return publisher;
        return kafkaOrderEventConsumer(bus, logger);
      },
      inject: [ORDER_EVENT_PUBLISHER, LOGGER],
    },
    {
      provide: RELAY_CHECKPOINTS,
      useFactory: () => {
        const filename = join(config.dataDir, 'relay.db');
        return openingDatabaseFile(
          filename,
          () => new SqliteRelayCheckpointStore(filename, checkpointName(config)),
        );
      },
    },
    {
      provide: RelayLifecycle,
      useFactory: (
        store: EventStore,
        publicEvents: PublicOrderEvents,
        publisher: OrderEventPublisher,
        consumer: OrderEventConsumer,
        checkpoints: RelayCheckpointStore,
        logger: GatewayLogger,
        metrics: GatewayMetrics,
      ) => {
        const bus = { publisher, consumer, checkpoints };
        if (!config.consumers.relay) return new RelayLifecycle(bus);
        const relay = new OrderEventRelay(
          store,
          (batch) => publicEvents.forBus(batch),
          publisher,
          checkpoints,
          logger.child({ component: 'relay' }),
        );
        observeRelay(metrics.registry, relay, store);
        return new RelayLifecycle(bus, relay);
      },
      inject: [
        EVENT_STORE,
        PublicOrderEvents,
        ORDER_EVENT_PUBLISHER,
        ORDER_EVENT_CONSUMER,
        RELAY_CHECKPOINTS,
        LOGGER,
        GatewayMetrics,
      ],
    },
    PublicOrderEvents,
  ];
}

/** One checkpoint per destination: a new bus or topic starts from the first event. */
function checkpointName(config: GatewayConfig): string {
  return config.bus.kind === 'kafka' ? `kafka:${config.bus.topic}` : 'embedded';
}
