import type { SendResult, WebhookSender } from '../sending/webhook-sender';
import { standardWebhookHeaders } from '../sending/webhook-signature';
import type { AttemptConsequence, DeliveryQueue, DueDelivery } from './delivery.types';
import type { RetrySchedule } from './retry-schedule';

/** How an attempt ended, for metrics. */
export type AttemptOutcome = 'delivered' | 'failed' | 'dead_lettered';

export interface DeliveryObserver {
  attempted(outcome: AttemptOutcome, latencyMs: number): void;
  /** A notification was delivered this long after its event was committed. */
  delivered(lagMs: number): void;
}

export interface SchedulerOptions {
  readonly store: DeliveryQueue;
  readonly sender: WebhookSender;
  readonly schedule: RetrySchedule;
  /** The merchant's notification secret; undefined when the merchant is unknown or disabled. */
  readonly secretOf: (merchantId: string) => string | undefined;
  /** Attempts in flight at once, over all merchants. */
  readonly concurrency: number;
  /** Attempts in flight at once for one merchant, so a slow merchant cannot take every slot. */
  readonly merchantConcurrency: number;
  /** Longest sleep between looks at the store (picks up redeliveries made by other processes). */
  readonly pollMs: number;
  readonly observer?: DeliveryObserver;
  readonly clock?: () => number;
}

/**
 * Sends due deliveries. Only the oldest pending notification of an order is ever due, and one
 * attempt per order is in flight at a time, so an order's notifications go out in order. Free
 * slots are dealt round-robin over the merchants with due deliveries, each capped at
 * `merchantConcurrency`: a dead or slow endpoint holds its own merchant's slots, never others'.
 */
export class DeliveryScheduler {
  /** The orders (stream ids) of each merchant with an attempt in flight. */
  private readonly inFlightByMerchant = new Map<string, Set<string>>();
  /** The attempts in flight, one per order. */
  private readonly attempts = new Set<Promise<void>>();
  private readonly clock: () => number;
  private timer?: NodeJS.Timeout;
  private tickQueued = false;
  private closing = false;
  /** The sender was closed: answers still arriving are not logged. */
  private cutShort = false;
  /** Rotates which merchant is served first, so none is always last. */
  private turn = 0;

  constructor(private readonly options: SchedulerOptions) {
    this.clock = options.clock ?? Date.now;
  }

  start(): void {
    this.nudge();
  }

  /** Something may be due now (a delivery was recorded or an attempt finished). */
  nudge(): void {
    if (this.tickQueued || this.closing) return;
    this.tickQueued = true;
    setImmediate(() => {
      this.tickQueued = false;
      this.tick();
    });
  }

  /**
   * Stops starting attempts; lets those in flight finish and be logged for up to `drainMs`, then
   * cuts the rest short: those are not logged and go again (same attempt number) after a restart.
   */
  async close(drainMs = 0): Promise<void> {
    this.closing = true;
    clearTimeout(this.timer);
    const inFlight = Promise.allSettled([...this.attempts]);
    if (drainMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise((done) => (timer = setTimeout(done, drainMs)));
      await Promise.race([inFlight, bound]);
      clearTimeout(timer);
    }
    this.cutShort = true;
    this.options.sender.close();
    await inFlight;
  }

  private tick(): void {
    if (this.closing) return;
    const { store, concurrency } = this.options;
    const now = this.clock();
    let free = concurrency - this.attempts.size;
    const merchants = store.merchantsDue(now);
    const queues = new Map<string, DueDelivery[]>();
    for (let i = 0; i < merchants.length; i++) {
      const merchant = merchants[(i + this.turn) % merchants.length];
      queues.set(merchant, this.startable(merchant, now));
    }
    this.turn++;
    while (free > 0 && queues.size) {
      for (const [merchant, queue] of queues) {
        const next = queue.shift();
        if (!next) {
          queues.delete(merchant);
          continue;
        }
        this.launch(next);
        if (--free === 0) break;
      }
    }
    this.sleep(now);
  }

  /** The merchant's due deliveries that may start now, within its share of the slots. */
  private startable(merchantId: string, now: number): DueDelivery[] {
    const running = this.inFlightByMerchant.get(merchantId);
    const room = this.options.merchantConcurrency - (running?.size ?? 0);
    if (room <= 0) return [];
    // Each in-flight order keeps its (still pending) head among the due rows: left out by the
    // query, so a tick reads only rows it may start (not every in-flight one again, with its body).
    return this.options.store.due(merchantId, now, room, running ?? []);
  }

  private sleep(now: number): void {
    clearTimeout(this.timer);
    const next = this.options.store.nextDueAt();
    // Due rows that could not start wait for a slot: a finishing attempt nudges.
    const wait =
      next !== undefined && next > now
        ? Math.min(next - now, this.options.pollMs)
        : this.options.pollMs;
    this.timer = setTimeout(() => this.nudge(), wait);
    this.timer.unref();
  }

  private launch(delivery: DueDelivery): void {
    const merchant = delivery.merchantId;
    const running = this.inFlightByMerchant.get(merchant) ?? new Set<string>();
    this.inFlightByMerchant.set(merchant, running.add(delivery.streamId));
    this.options.store.attemptStarted?.(delivery);
    const attempt = this.attempt(delivery)
      .catch(() => undefined) // the delivery stays pending and is tried again
      .finally(() => {
        running.delete(delivery.streamId);
        if (running.size === 0 && this.inFlightByMerchant.get(merchant) === running)
          this.inFlightByMerchant.delete(merchant);
        this.attempts.delete(attempt);
        this.options.store.attemptEnded?.(delivery);
        this.nudge();
      });
    this.attempts.add(attempt);
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const { sender, store, schedule, observer } = this.options;
    const number = delivery.attempts + 1;
    const started = this.clock();
    const secret = this.options.secretOf(delivery.merchantId);
    const result: SendResult =
      secret === undefined
        ? { latencyMs: 0, error: 'the merchant is unknown or disabled' }
        : await sender.send(
            delivery.url,
            this.headers(delivery, secret, number, started),
            delivery.body,
          );
    if (this.cutShort) return;
    const { statusCode } = result;
    const ok = statusCode !== undefined && statusCode >= 200 && statusCode < 300;
    const delay = ok ? undefined : schedule.delayAfterFailure(delivery.roundAttempts + 1);
    const finished = this.clock();
    const consequence: AttemptConsequence = ok
      ? { status: 'DELIVERED' }
      : delay === undefined
        ? { status: 'DEAD_LETTERED' }
        : { status: 'PENDING', nextAttemptAt: finished + delay };
    await store.completeAttempt(
      delivery,
      {
        attempt: number,
        startedAt: new Date(started).toISOString(),
        latencyMs: result.latencyMs,
        ...(statusCode !== undefined ? { statusCode } : {}),
        outcome: ok ? 'DELIVERED' : 'FAILED',
        ...(result.error !== undefined ? { error: result.error } : {}),
      },
      consequence,
      finished,
    );
    observer?.attempted(
      ok ? 'delivered' : delay === undefined ? 'dead_lettered' : 'failed',
      result.latencyMs,
    );
    if (ok) observer?.delivered(finished - Date.parse(delivery.committedAt));
  }

  private headers(delivery: DueDelivery, secret: string, attempt: number, now: number) {
    return {
      'content-type': 'application/json',
      'user-agent': 'gateway-ledger-webhooks/1',
      'x-notification-secret': secret,
      'x-notification-id': delivery.id,
      'x-notification-attempt': String(attempt),
      ...standardWebhookHeaders(secret, delivery.id, Math.floor(now / 1000), delivery.body),
    };
  }
}
