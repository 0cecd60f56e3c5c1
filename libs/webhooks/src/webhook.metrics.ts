import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { AttemptOutcome, DeliveryObserver } from './delivery/delivery-scheduler';

/** Webhook outcomes on a Prometheus registry (the gateway's, or the standalone dispatcher's). */
export class WebhookMetrics implements DeliveryObserver {
  private readonly attempts: Counter<'outcome'>;
  private readonly attemptSeconds: Histogram<'outcome'>;
  private readonly lagSeconds: Histogram;

  constructor(registry: Registry, pending: () => number) {
    const registers = [registry];
    this.attempts = new Counter({
      name: 'gateway_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome: delivered, failed (will retry), dead_lettered',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.attemptSeconds = new Histogram({
      name: 'gateway_webhook_attempt_duration_seconds',
      help: 'Time from sending a notification to the receiver’s answer (or giving up), by outcome',
      labelNames: ['outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
      registers,
    });
    this.lagSeconds = new Histogram({
      name: 'gateway_webhook_delivery_lag_seconds',
      help: 'Time from the event’s commit to its notification’s delivery, retries included',
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300, 3600, 36_000, 129_600],
      registers,
    });
    new Gauge({
      name: 'gateway_webhook_deliveries_pending',
      help: 'Notifications waiting for delivery (due, in back-off, or behind an earlier one of their order)',
      registers,
      collect() {
        this.set(pending());
      },
    });
    for (const outcome of ['delivered', 'failed', 'dead_lettered'] as const)
      this.attempts.inc({ outcome }, 0);
  }

  attempted(outcome: AttemptOutcome, latencyMs: number): void {
    this.attempts.inc({ outcome });
    this.attemptSeconds.observe({ outcome }, latencyMs / 1000);
  }

  delivered(lagMs: number): void {
    this.lagSeconds.observe(Math.max(0, lagMs) / 1000);
  }
}
