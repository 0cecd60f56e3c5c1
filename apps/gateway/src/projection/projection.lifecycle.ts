import type { OrderSummaryProjector, OrderSummaryReadModel } from '@gateway/projections';
import type {
  BeforeApplicationShutdown,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';

export interface RunningProjection {
  readonly projector: OrderSummaryProjector;
  readonly readModel: OrderSummaryReadModel;
}

/**
 * Runs the order-summary projector with the gateway, unless this node does not run it
 * (GATEWAY_CONSUMERS): it follows from its checkpoint once the application has started, stops
 * (committing what it holds) when shutdown begins, and the read model closes after in-flight
 * requests, which may be listing orders, have finished.
 */
export class ProjectionLifecycle
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  constructor(private readonly running?: RunningProjection) {}

  onApplicationBootstrap(): void {
    this.running?.projector.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.running?.projector.stop();
  }

  onApplicationShutdown(): void {
    this.running?.readModel.close();
  }

  /** What /health/ready shows of the projection: its state and lag, or `off`. */
  async health() {
    if (!this.running) return { orderSummary: { state: 'off' } };
    const { state, error } = this.running.projector.status();
    const { checkpoint, head, seconds } = await this.running.projector.lag();
    return {
      orderSummary: {
        state,
        ...(checkpoint !== undefined ? { checkpoint: checkpoint.toString() } : {}),
        ...(head !== undefined ? { head: head.toString() } : {}),
        lagSeconds: seconds,
        ...(error ? { error } : {}),
      },
    };
  }
}
