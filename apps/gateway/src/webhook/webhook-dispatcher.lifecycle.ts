import type {
  BeforeApplicationShutdown,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import type { SqliteDeliveryStore, WebhookDispatcher } from '@gateway/webhooks';

export const WEBHOOK_DELIVERIES = Symbol('WebhookDeliveries');

/**
 * Runs the embedded dispatcher with the gateway: it starts consuming in onModuleInit, before the
 * relay's first publish (onApplicationBootstrap), stops before the stores close, and the delivery
 * store closes last. With an external dispatcher there is nothing to run.
 */
export class WebhookDispatcherLifecycle
  implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown
{
  constructor(
    private readonly deliveries: SqliteDeliveryStore,
    private readonly dispatcher?: WebhookDispatcher,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.dispatcher?.start();
  }

  /** A redelivery made through the API goes at once (an external dispatcher polls for it). */
  nudge(): void {
    this.dispatcher?.nudge();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.dispatcher?.close();
  }

  onApplicationShutdown(): Promise<void> {
    return this.deliveries.close();
  }
}
