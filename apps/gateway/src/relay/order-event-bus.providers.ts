import type { EventStore } from '@gateway/event-store';
import { InProcessOrderEventBus, type OrderEventPublisher } from '@gateway/order-events';
import type { Provider } from '@nestjs/common';
import { join } from 'node:path';
import type { GatewayConfig } from '../config/gateway.config';
import type { GatewayLogger } from '../ops/logger';
import { EVENT_STORE, LOGGER, ORDER_EVENT_CONSUMER, ORDER_EVENT_PUBLISHER } from '../tokens';
import { OrderEventRelay } from './order-event.relay';
import {
  RELAY_CHECKPOINTS,
  SqliteRelayCheckpointStore,
  type RelayCheckpointStore,
} from './relay-checkpoint.store';
import { RelayLifecycle } from './relay.lifecycle';

/**
 * The bus the configuration names (GATEWAY_BUS), bound to ORDER_EVENT_PUBLISHER and
 * ORDER_EVENT_CONSUMER, and the relay feeding it. Embedded: one InProcessOrderEventBus is both.
 */
export function orderEventBusProviders(config: GatewayConfig): Provider[] {
  return [
    {
      provide: ORDER_EVENT_PUBLISHER,
      useFactory: (logger: GatewayLogger) =>
        new InProcessOrderEventBus({
          onHandlerError: (error, envelope) =>
            logger.warn(
              { err: (error as Error)?.message, eventId: envelope.eventId },
              'order event handler failed; retrying',
            ),
        }),
      inject: [LOGGER],
    },
    { provide: ORDER_EVENT_CONSUMER, useExisting: ORDER_EVENT_PUBLISHER },
    {
      provide: RELAY_CHECKPOINTS,
      useFactory: () =>
        new SqliteRelayCheckpointStore(join(config.dataDir, 'relay.db'), checkpointName(config)),
    },
    {
      provide: OrderEventRelay,
      useFactory: (
        store: EventStore,
        publisher: OrderEventPublisher,
        checkpoints: RelayCheckpointStore,
        logger: GatewayLogger,
      ) => new OrderEventRelay(store, publisher, checkpoints, logger.child({ component: 'relay' })),
      inject: [EVENT_STORE, ORDER_EVENT_PUBLISHER, RELAY_CHECKPOINTS, LOGGER],
    },
    RelayLifecycle,
  ];
}

/** One checkpoint per destination: a new bus or topic starts from the first event. */
function checkpointName(config: GatewayConfig): string {
  return config.bus.kind === 'kafka' ? `kafka:${config.bus.topic}` : 'embedded';
}
