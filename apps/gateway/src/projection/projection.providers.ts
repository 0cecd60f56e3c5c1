import { openingDatabaseFile } from '@gateway/database-files';
import type { EventStore } from '@gateway/event-store';
import {
  OrderSummaryProjector,
  SqliteOrderSummaryReadModel,
  type OrderSummaryReadModel,
} from '@gateway/projections';
import { Logger, type Provider } from '@nestjs/common';
import { join } from 'node:path';
import type { GatewayConfig } from '../config/gateway.config';
import { GatewayMetrics } from '../ops/gateway-metrics';
import { EVENT_STORE, ORDER_SUMMARIES } from '../tokens';
import { OrderListNotServed } from './order-list-not-served';
import { ProjectionLifecycle } from './projection.lifecycle';

/**
 * The order-summary read model and its projector, when this node runs the projector
 * (GATEWAY_CONSUMERS); without it, no read-model.db is opened and the order list is refused.
 */
export function projectionProviders(config: GatewayConfig): Provider[] {
  if (!config.consumers.projector)
    return [
      { provide: ORDER_SUMMARIES, useValue: new OrderListNotServed() },
      { provide: ProjectionLifecycle, useValue: new ProjectionLifecycle() },
    ];
  return [
    // The read model is local SQLite beside the event log, whatever the event store.
    {
      provide: ORDER_SUMMARIES,
      useFactory: () => {
        const filename = join(config.dataDir, 'read-model.db');
        return openingDatabaseFile(filename, () => SqliteOrderSummaryReadModel.open(filename));
      },
    },
    {
      provide: ProjectionLifecycle,
      useFactory: (
        store: EventStore,
        readModel: OrderSummaryReadModel,
        metrics: GatewayMetrics,
      ) => {
        const logger = new Logger('OrderSummaryProjector');
        const projector = new OrderSummaryProjector(store, readModel, {
          batchSize: config.projectionBatchSize,
          onError: (error) => logger.error(`projection failed: ${error.message}; retrying`),
        });
        metrics.observeProjection('order_summary', () => projector.lag());
        return new ProjectionLifecycle({ projector, readModel });
      },
      inject: [EVENT_STORE, ORDER_SUMMARIES, GatewayMetrics],
    },
  ];
}
