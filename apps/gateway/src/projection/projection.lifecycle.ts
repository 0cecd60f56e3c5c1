import type { OrderSummaryProjector, OrderSummaryReadModel } from '@gateway/projections';
import type {
  BeforeApplicationShutdown,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';

/**
 * Runs the order-summary projector with the gateway: it follows from its checkpoint once the
 * application has started, stops (committing what it holds) when shutdown begins, and the read
 * model closes after in-flight requests, which may be listing orders, have finished.
 */
export class ProjectionLifecycle
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  constructor(
    private readonly projector: OrderSummaryProjector,
    private readonly readModel: OrderSummaryReadModel,
  ) {}

  onApplicationBootstrap(): void {
    this.projector.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.projector.stop();
  }

  onApplicationShutdown(): void {
    this.readModel.close();
  }
}

/** What /health/ready shows of the projection. */
export async function projectionHealth(projector: OrderSummaryProjector) {
  const { state, error } = projector.status();
  const { checkpoint, head, seconds } = await projector.lag();
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
