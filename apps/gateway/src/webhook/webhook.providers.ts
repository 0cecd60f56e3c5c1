import { openingDatabaseFile } from '@gateway/database-files';
import type { OrderEventConsumer } from '@gateway/order-events';
import type { Provider } from '@nestjs/common';
import { SqliteDeliveryStore, WebhookDispatcher, WebhookMetrics } from '@gateway/webhooks';
import type { GatewayConfig } from '../config/gateway.config';
import type { MerchantRegistry } from '@gateway/merchants';
import { GatewayMetrics } from '../ops/gateway-metrics';
import { MERCHANT_REGISTRY, ORDER_EVENT_CONSUMER } from '../tokens';
import { WEBHOOK_DELIVERIES, WebhookDispatcherLifecycle } from './webhook-dispatcher.lifecycle';

/**
 * The delivery store (its API is served either way) and the embedded dispatcher, when this node
 * runs it (GATEWAY_CONSUMERS; never while an external dispatcher delivers).
 */
export function webhookProviders(config: GatewayConfig): Provider[] {
  const { webhooks } = config;
  return [
    {
      provide: WEBHOOK_DELIVERIES,
      useFactory: () =>
        openingDatabaseFile(
          webhooks.deliveryDb,
          () => new SqliteDeliveryStore(webhooks.deliveryDb),
        ),
    },
    {
      provide: WebhookDispatcherLifecycle,
      useFactory: (
        deliveries: SqliteDeliveryStore,
        merchants: MerchantRegistry,
        consumer: OrderEventConsumer,
        metrics: GatewayMetrics,
      ) => {
        const observer = new WebhookMetrics(metrics.registry, () => deliveries.pendingCount());
        const dispatcher = config.consumers.dispatcher
          ? new WebhookDispatcher({
              config: webhooks.delivery,
              deliveries,
              merchants,
              consumer,
              observer,
            })
          : undefined;
        return new WebhookDispatcherLifecycle(deliveries, dispatcher);
      },
      inject: [WEBHOOK_DELIVERIES, MERCHANT_REGISTRY, ORDER_EVENT_CONSUMER, GatewayMetrics],
    },
  ];
}
