import type { SqliteCommittedBatch, SqliteWriterStats } from '@gateway/event-store';
import type { ProjectionLag, UnknownInCurrency } from '@gateway/projections';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** A store that reports group-commit counters (the SQLite adapter); others simply report none. */
export interface StatsSource {
  stats(): SqliteWriterStats;
  /** Called after each group commit, for the batch-size and commit-time histograms. */
  observeBatches?(observe: (batch: SqliteCommittedBatch) => void): void;
}

export function hasWriterStats(store: object): store is StatsSource {
  return typeof (store as Partial<StatsSource>).stats === 'function';
}

/** A counter whose total is read from its source at each scrape (the source counts). */
export function pulledCounter(registry: Registry, name: string, help: string, read: () => number) {
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

/** Projection lag, read from the projector when /metrics is scraped (on the consumers thread). */
export function observeProjection(
  registry: Registry,
  projection: string,
  lag: () => Promise<ProjectionLag>,
): void {
  const registers = [registry];
  let last: Promise<ProjectionLag> | undefined;
  // One lag reading serves the three gauges of a scrape.
  const read = () => (last ??= lag().finally(() => setImmediate(() => (last = undefined))));
  const gauge = (name: string, help: string, value: (l: ProjectionLag) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['projection'] as const,
      registers,
      async collect() {
        const reading = value(await read());
        if (reading !== undefined) this.set({ projection }, reading);
      },
    });
  gauge(
    'gateway_projection_lag_seconds',
    'Age of the oldest event the projection has not applied yet (0 when caught up)',
    (l) => l.seconds,
  );
  gauge(
    'gateway_projection_checkpoint_position',
    'Global position of the last event the projection applied',
    (l) => (l.checkpoint === undefined ? undefined : Number(l.checkpoint)),
  );
  gauge(
    'gateway_projection_head_position',
    'Global position of the last event in the store',
    (l) => (l.head === undefined ? undefined : Number(l.head)),
  );
}

/**
 * Money whose outcome is UNKNOWN, per currency (issue 18: finance watches it fall as the janitor
 * learns outcomes), read from the order-summary read model when /metrics is scraped.
 */
export function observeUnknownOutcomes(registry: Registry, read: () => UnknownInCurrency[]): void {
  const gauges = {
    gateway_unknown_outcome_amount: [
      'Amount of transactions whose outcome is UNKNOWN, in the currency (decimal)',
      (u: UnknownInCurrency) => u.amount / 1000,
    ],
    gateway_unknown_outcome_transactions: [
      'Transactions whose outcome is UNKNOWN, per currency',
      (u: UnknownInCurrency) => u.transactions,
    ],
  } as const;
  for (const [name, [help, value]] of Object.entries(gauges))
    new Gauge({
      name,
      help,
      labelNames: ['currency'] as const,
      registers: [registry],
      collect() {
        this.reset(); // a currency whose last UNKNOWN outcome was learnt disappears
        for (const unknown of read()) this.set({ currency: unknown.currency }, value(unknown));
      },
    });
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Appends per group commit: a convoy shows as batches of 1 beside batches of the connection count. */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000];
const COMMIT_BUCKETS = [0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.5];

/**
 * The gateway's Prometheus registry. Request metrics are updated once per response, after it
 * is sent; the event store's figures are read from its counters only when /metrics is scraped.
 */
export class GatewayMetrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'gateway_requests_total',
    help: 'API requests answered, by apiOperation, result and gatewayCode (NONE when absent)',
    labelNames: ['apiOperation', 'result', 'gatewayCode'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'gateway_http_request_duration_seconds',
    help: 'Time from request received to response sent, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly appendDuration = new Histogram({
    name: 'gateway_event_store_append_duration_seconds',
    help: 'Time for an order append to become durable, queueing for the group commit included',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly refusals = new Counter({
    name: 'gateway_requests_refused_total',
    help: 'Requests refused before processing, by reason: overloaded and shutting_down (503), rate_limited, merchant_busy and too_many_feeds (429), locked_out (401 during an authentication lockout)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly connectionsRefused = new Counter({
    name: 'gateway_connections_refused_total',
    help: 'Connections closed at once, unread, because GATEWAY_MAX_CONNECTIONS were open',
    registers: [this.registry],
  });

  constructor(store: object) {
    collectDefaultMetrics({ register: this.registry });
    if (hasWriterStats(store)) this.observeWriter(store);
  }

  /** Requests in progress, read when scraped. */
  observeInFlight(read: () => number): void {
    new Gauge({
      name: 'gateway_requests_in_flight',
      help: 'Requests received and not yet answered',
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  private observeWriter(store: StatsSource): void {
    const registers = [this.registry];
    // Totals are counters so that rate() works: average batch size is
    // rate(appends_committed_total) / rate(batches_total), average commit time
    // rate(commit_seconds_total) / rate(batches_total).
    const total = (name: string, help: string, read: (s: SqliteWriterStats) => number) =>
      pulledCounter(this.registry, name, help, () => read(store.stats()));
    const gauge = (name: string, help: string, read: (s: SqliteWriterStats) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(store.stats()));
        },
      });
    total('gateway_event_store_batches_total', 'Group commits', (s) => s.batches);
    total(
      'gateway_event_store_appends_committed_total',
      'Appends committed',
      (s) => s.appendsCommitted,
    );
    total(
      'gateway_event_store_events_committed_total',
      'Events committed',
      (s) => s.eventsCommitted,
    );
    total(
      'gateway_event_store_appends_rejected_total',
      'Appends refused by the revision or duplicate-id checks',
      (s) => s.appendsRejected,
    );
    total(
      'gateway_event_store_commit_seconds_total',
      'Time spent in group-commit transactions, fsync included',
      (s) => (s.avgCommitMs * s.batches) / 1000,
    );
    gauge(
      'gateway_event_store_last_batch_appends',
      'Appends in the last group commit',
      (s) => s.lastBatchAppends,
    );
    gauge(
      'gateway_event_store_max_batch_appends',
      'Largest group commit so far, in appends',
      (s) => s.maxBatchAppends,
    );
    gauge(
      'gateway_event_store_last_commit_seconds',
      'Last group commit, fsync included',
      (s) => s.lastCommitMs / 1000,
    );
    gauge(
      'gateway_event_store_max_commit_seconds',
      'Slowest group commit so far',
      (s) => s.maxCommitMs / 1000,
    );
    gauge(
      'gateway_event_store_queued_appends',
      'Appends waiting for the next group commit',
      (s) => s.queued,
    );
    gauge('gateway_event_store_writer_open', '1 while the writer accepts appends', (s) =>
      s.state === 'open' ? 1 : 0,
    );
    const batchSize = new Histogram({
      name: 'gateway_event_store_batch_appends',
      help: 'Appends per group commit',
      buckets: BATCH_BUCKETS,
      registers,
    });
    const commitTime = new Histogram({
      name: 'gateway_event_store_commit_duration_seconds',
      help: 'Group-commit transaction time in the writer thread, fsync included',
      buckets: COMMIT_BUCKETS,
      registers,
    });
    store.observeBatches?.((batch) => {
      batchSize.observe(batch.appends);
      commitTime.observe(batch.commitMs / 1000);
    });
  }
}
