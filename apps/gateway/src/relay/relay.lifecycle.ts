import type { OrderEventConsumer, OrderEventPublisher } from '@gateway/order-events';
import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { ORDER_EVENT_CONSUMER, ORDER_EVENT_PUBLISHER } from '../tokens';
import { OrderEventRelay } from './order-event.relay';
import { RELAY_CHECKPOINTS, type RelayCheckpointStore } from './relay-checkpoint.store';

/**
 * Starts the relay once every module is initialised (consumers start in onModuleInit, so the
 * in-process bus has them before the first publish) and stops it before the HTTP server closes,
 * then closes the bus. The event store closes after this (StoreShutdown).
 */
@Injectable()
export class RelayLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly relay: OrderEventRelay,
    @Inject(RELAY_CHECKPOINTS) private readonly checkpoints: RelayCheckpointStore,
    @Inject(ORDER_EVENT_PUBLISHER) private readonly publisher: OrderEventPublisher,
    @Inject(ORDER_EVENT_CONSUMER) private readonly consumer: OrderEventConsumer,
  ) {}

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay.stop();
    await Promise.all([this.publisher.close(), this.consumer.close()]);
    this.checkpoints.close();
  }
}
