import { orderStreamId } from '@gateway/domain';
import type { OrderEventConsumer, OrderEventSource, PublicOrderEvent } from '@gateway/order-events';
import type { MerchantRegistry } from '@gateway/merchants';
import { DeliveryScheduler, type DeliveryObserver } from './delivery/delivery-scheduler';
import { notificationFor } from './delivery/notification';
import { RetrySchedule } from './delivery/retry-schedule';
import type { DeliveryQueue } from './delivery/delivery.types';
import { AddressGuard } from './sending/address-guard';
import { HttpsWebhookSender, type WebhookSender } from './sending/webhook-sender';
import type { WebhookConfig } from './webhook.config';

export interface DispatcherParts {
  readonly config: WebhookConfig;
  readonly deliveries: DeliveryQueue;
  readonly merchants: Pick<MerchantRegistry, 'find'>;
  readonly consumer: OrderEventConsumer;
  readonly observer?: DeliveryObserver;
  /** Tests swap the HTTPS sender; the default is guarded and pinned (sending/webhook-sender.ts). */
  readonly sender?: WebhookSender;
}

/**
 * The webhook dispatcher: consumes order events, durably records the notification each calls for
 * (de-duplicated by event id, so at-least-once input sends once), acknowledges, and lets the
 * scheduler deliver with retries. Runs in the gateway process (embedded) or on its own (main.ts).
 */
export class WebhookDispatcher {
  private readonly scheduler: DeliveryScheduler;

  constructor(private readonly parts: DispatcherParts) {
    const { config } = parts;
    this.scheduler = new DeliveryScheduler({
      store: parts.deliveries,
      sender:
        parts.sender ??
        new HttpsWebhookSender({
          guard: new AddressGuard(config.allowCidrs),
          timeoutMs: config.timeoutMs,
          extraCa: config.extraCa,
          maxSockets: config.concurrency,
        }),
      schedule: new RetrySchedule(config.retryDelaysMs),
      secretOf: (id) => {
        const merchant = parts.merchants.find(id);
        return merchant?.enabled ? merchant.notificationSecret : undefined;
      },
      concurrency: config.concurrency,
      merchantConcurrency: config.merchantConcurrency,
      pollMs: config.pollMs,
      observer: parts.observer,
    });
  }

  async start(): Promise<void> {
    this.scheduler.start();
    await this.parts.consumer.start((event, source) => this.handle(event, source));
  }

  /** The consumer's handler: resolves once the notification (if any) is durable. */
  async handle(event: PublicOrderEvent, source?: OrderEventSource): Promise<void> {
    // Notifications are on for every enabled merchant of the merchants file.
    if (!this.parts.merchants.find(event.merchantId)?.enabled) return;
    const notification = notificationFor(event);
    if (!notification) return;
    const recorded = await this.parts.deliveries.record(
      {
        id: event.eventId,
        merchantId: event.merchantId,
        orderId: event.orderId,
        // The order's key in the delivery store (one delivery at a time per order).
        streamId: orderStreamId(event.merchantId, event.orderId),
        revision: event.revision,
        eventType: event.type,
        committedAt: event.recordedAt,
        ...notification,
      },
      Date.now(),
      source?.partition,
    );
    if (recorded) this.scheduler.nudge();
  }

  /** A redelivery made through the API in this process can go at once. */
  nudge(): void {
    this.scheduler.nudge();
  }

  /**
   * Stops consuming, then sending, letting attempts in flight finish for up to `drainMs`; the
   * delivery store is the caller's to close.
   */
  async close(drainMs = 0): Promise<void> {
    await this.parts.consumer.close();
    await this.scheduler.close(drainMs);
  }
}
