import type { OrderEventConsumer, OrderEventPublisher } from '@gateway/order-events';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { OrderEventRelay } from './order-event.relay';
import type { RelayCheckpointStore } from './relay-checkpoint.store';

/** The bus's two ends and the relay's checkpoints: closed at shutdown, relay or not. */
export interface RelayBus {
  readonly publisher: OrderEventPublisher;
  readonly consumer: OrderEventConsumer;
  readonly checkpoints: RelayCheckpointStore;
}

/**
 * Starts the relay, when this node runs it (GATEWAY_CONSUMERS), once every module is initialised
 * (consumers start in onModuleInit, so the in-process bus has them before the first publish) and
 * stops it before the HTTP server closes, then closes the bus. The event store closes after this
 * (StoreShutdown).
 */
export class RelayLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly bus: RelayBus,
    private readonly relay?: OrderEventRelay,
  ) {}

  onApplicationBootstrap(): void {
    this.relay?.start();
  }

  /** The relay's state for /health/ready (live, retrying, …), or `off`. */
  state(): string {
    return this.relay?.status().state ?? 'off';
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay?.stop();
    await Promise.all([this.bus.publisher.close(), this.bus.consumer.close()]);
    this.bus.checkpoints.close();
  }
}
