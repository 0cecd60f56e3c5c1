import { backoffDelay, DEFAULT_BACKOFF, sleep, type Backoff } from './backoff';
import type {
  OrderEventConsumer,
  OrderEventHandler,
  OrderEventPublisher,
} from './order-event-bus.port';
import { orderEventKey, type PublicOrderEvent } from './public-order-event';

export class OrderEventBusClosedError extends Error {
  constructor() {
    super('The order event bus is closed');
    this.name = 'OrderEventBusClosedError';
  }
}

export interface InProcessOrderEventBusOptions {
  /** Wait between retries of a rejected handler. */
  readonly retry?: Backoff;
  /** Told about every rejected handler call before it is retried (for logs and metrics). */
  readonly onHandlerError?: (error: unknown, event: PublicOrderEvent) => void;
}

/**
 * The embedded bus: publisher and consumer in one object, for one process. `publish` resolves
 * only once every started consumer's handler has resolved for every event, so the relay's
 * checkpoint moves only past events the consumers have durably taken. One order's events are
 * handled one after another in publish order; different orders run concurrently. A rejected
 * handler is retried with back-off until it resolves or the bus closes (then `publish` rejects
 * and the relay retries from its checkpoint after a restart).
 *
 * Consumers must `start` before the relay publishes, or the events published meanwhile reach
 * nobody: in Nest, start consumers in onModuleInit (the relay starts in onApplicationBootstrap).
 */
export class InProcessOrderEventBus implements OrderEventPublisher, OrderEventConsumer {
  private readonly handlers = new Set<OrderEventHandler>();
  /** The end of each order's delivery chain (settled, never rejected). */
  private readonly tails = new Map<string, Promise<void>>();
  private readonly closing = new AbortController();

  constructor(private readonly options: InProcessOrderEventBusOptions = {}) {}

  async start(handle: OrderEventHandler): Promise<void> {
    if (this.closing.signal.aborted) throw new OrderEventBusClosedError();
    this.handlers.add(handle);
  }

  async publish(events: readonly PublicOrderEvent[]): Promise<void> {
    if (this.closing.signal.aborted) throw new OrderEventBusClosedError();
    const handlers = [...this.handlers];
    if (handlers.length === 0) return;
    await Promise.all(
      events.map((event) =>
        this.afterPrevious(orderEventKey(event), () =>
          Promise.all(handlers.map((handle) => this.untilHandled(handle, event))),
        ),
      ),
    );
  }

  async close(): Promise<void> {
    this.closing.abort();
    this.handlers.clear();
  }

  /** Runs `task` once everything queued before it for the same order has settled. */
  private afterPrevious(orderKey: string, task: () => Promise<unknown>): Promise<void> {
    const run = (this.tails.get(orderKey) ?? Promise.resolve()).then(task).then(() => undefined);
    const tail = run.catch(() => undefined);
    this.tails.set(orderKey, tail);
    void tail.then(() => {
      if (this.tails.get(orderKey) === tail) this.tails.delete(orderKey);
    });
    return run;
  }

  private async untilHandled(handle: OrderEventHandler, event: PublicOrderEvent) {
    for (let attempt = 1; ; attempt++) {
      if (this.closing.signal.aborted) throw new OrderEventBusClosedError();
      try {
        await handle(event);
        return;
      } catch (error) {
        this.options.onHandlerError?.(error, event);
        await sleep(
          backoffDelay(attempt, this.options.retry ?? DEFAULT_BACKOFF),
          this.closing.signal,
        );
      }
    }
  }
}
