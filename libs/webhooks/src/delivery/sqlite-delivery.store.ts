import Database from 'better-sqlite3';
import type {
  AttemptConsequence,
  DeliveryAttempt,
  DeliveryPage,
  DeliveryQuery,
  DeliveryStatus,
  DeliverySummary,
  DueDelivery,
  NewDelivery,
} from './delivery.types';

interface DeliveryRow {
  seq: number;
  id: string;
  merchant_id: string;
  order_id: string;
  stream_id: string;
  revision: number;
  event_type: string;
  transaction_id: string;
  url: string;
  body: string;
  committed_at: string;
  status: DeliveryStatus;
  attempts: number;
  round_attempts: number;
  next_attempt_at: number | null;
  created_at: number;
  delivered_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS webhook_delivery (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  merchant_id TEXT NOT NULL,
  order_id TEXT NOT NULL,
  stream_id TEXT NOT NULL,
  revision INTEGER NOT NULL,
  event_type TEXT NOT NULL,
  transaction_id TEXT NOT NULL,
  url TEXT NOT NULL,
  body TEXT NOT NULL,
  committed_at TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  round_attempts INTEGER NOT NULL DEFAULT 0,
  -- Set on the oldest pending delivery of each order only; the others wait behind it (NULL).
  next_attempt_at INTEGER,
  created_at INTEGER NOT NULL,
  delivered_at INTEGER,
  last_status_code INTEGER,
  last_error TEXT
);
CREATE INDEX IF NOT EXISTS webhook_delivery_due ON webhook_delivery (status, merchant_id, next_attempt_at);
CREATE INDEX IF NOT EXISTS webhook_delivery_order ON webhook_delivery (stream_id, status, revision);
CREATE INDEX IF NOT EXISTS webhook_delivery_merchant ON webhook_delivery (merchant_id, seq);
CREATE TABLE IF NOT EXISTS webhook_attempt (
  delivery_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  latency_ms REAL NOT NULL,
  status_code INTEGER,
  outcome TEXT NOT NULL,
  error TEXT,
  PRIMARY KEY (delivery_id, attempt)
) WITHOUT ROWID;
`;

/** An earlier pending delivery of the same order holds this one back. */
const EARLIER_PENDING = `EXISTS (SELECT 1 FROM webhook_delivery e
  WHERE e.stream_id = d.stream_id AND e.status = 'PENDING' AND e.revision < d.revision)`;

interface QueuedWrite {
  readonly run: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());

/**
 * Pending deliveries, the delivery log and the dead letters in one SQLite file, durable
 * (WAL, synchronous=FULL) before the consumer acknowledges an event, so a restart loses none.
 * Writes that arrive together are committed in one transaction (one fsync), which keeps up
 * with the gateway's append rate. Other processes (the CLI, a gateway serving the API for a
 * standalone dispatcher) may open the same file: the dispatcher polls it for their redeliveries.
 */
export class SqliteDeliveryStore {
  private readonly db: Database.Database;
  private queued: QueuedWrite[] = [];
  private flushScheduled = false;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(filename: string) {
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
  }

  /** Records a delivery; false when one for this event exists already (a redelivered event). */
  record(delivery: NewDelivery, now: number): Promise<boolean> {
    return this.write(() => {
      const result = this.statement(
        `INSERT OR IGNORE INTO webhook_delivery (id, merchant_id, order_id, stream_id, revision,
             event_type, transaction_id, url, body, committed_at, status, next_attempt_at, created_at)
           SELECT @id, @merchantId, @orderId, @streamId, @revision, @eventType, @transactionId,
             @url, @body, @committedAt, 'PENDING',
             CASE WHEN EXISTS (SELECT 1 FROM webhook_delivery
               WHERE stream_id = @streamId AND status = 'PENDING') THEN NULL ELSE @now END, @now`,
      ).run({ ...delivery, now });
      return result.changes === 1;
    });
  }

  /** Merchants with a delivery due at `now`. */
  merchantsDue(now: number): string[] {
    return this.statement(
      `SELECT DISTINCT merchant_id FROM webhook_delivery
         WHERE status = 'PENDING' AND next_attempt_at <= ?`,
    )
      .pluck()
      .all(now) as string[];
  }

  /** Up to `limit` due deliveries of a merchant, each the oldest pending one of its order. */
  due(merchantId: string, now: number, limit: number): DueDelivery[] {
    const rows = this.statement(
      `SELECT * FROM webhook_delivery d
         WHERE d.status = 'PENDING' AND d.merchant_id = ? AND d.next_attempt_at <= ?
           AND NOT ${EARLIER_PENDING}
         ORDER BY d.next_attempt_at, d.seq LIMIT ?`,
    ).all(merchantId, now, limit) as DeliveryRow[];
    return rows.map((row) => ({
      id: row.id,
      merchantId: row.merchant_id,
      orderId: row.order_id,
      streamId: row.stream_id,
      revision: row.revision,
      eventType: row.event_type,
      transactionId: row.transaction_id,
      url: row.url,
      body: row.body,
      committedAt: row.committed_at,
      attempts: row.attempts,
      roundAttempts: row.round_attempts,
    }));
  }

  /** When the next delivery falls due (epoch ms), if any is pending. */
  nextDueAt(): number | undefined {
    const next = this.statement(
      `SELECT MIN(next_attempt_at) FROM webhook_delivery WHERE status = 'PENDING'`,
    )
      .pluck()
      .get() as number | null;
    return next ?? undefined;
  }

  /** Logs an attempt and moves the delivery on; a delivery leaving PENDING lets the next of its order go. */
  completeAttempt(
    delivery: DueDelivery,
    attempt: DeliveryAttempt,
    consequence: AttemptConsequence,
    now: number,
  ): Promise<void> {
    return this.write(() => {
      this.statement(
        `INSERT OR REPLACE INTO webhook_attempt
             (delivery_id, attempt, started_at, latency_ms, status_code, outcome, error)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        delivery.id,
        attempt.attempt,
        attempt.startedAt,
        attempt.latencyMs,
        attempt.statusCode ?? null,
        attempt.outcome,
        attempt.error ?? null,
      );
      const next = consequence.status === 'PENDING' ? consequence.nextAttemptAt : null;
      this.statement(
        `UPDATE webhook_delivery AS d SET status = @status, attempts = @attempt,
             round_attempts = round_attempts + 1,
             next_attempt_at = CASE WHEN @next IS NULL OR ${EARLIER_PENDING} THEN NULL ELSE @next END,
             delivered_at = CASE WHEN @status = 'DELIVERED' THEN @now ELSE delivered_at END,
             last_status_code = @statusCode, last_error = @error
           WHERE id = @id`,
      ).run({
        id: delivery.id,
        status: consequence.status,
        attempt: attempt.attempt,
        next,
        now,
        statusCode: attempt.statusCode ?? null,
        error: attempt.error ?? null,
      });
      if (consequence.status !== 'PENDING') this.releaseNext(delivery.streamId, now);
    });
  }

  list(query: DeliveryQuery): DeliveryPage {
    const rows = this.statement(
      `SELECT * FROM webhook_delivery
         WHERE (@merchantId IS NULL OR merchant_id = @merchantId)
           AND (@status IS NULL OR status = @status)
           AND (@before IS NULL OR seq < @before)
         ORDER BY seq DESC LIMIT @limit`,
    ).all({
      merchantId: query.merchantId ?? null,
      status: query.status ?? null,
      before: query.before ?? null,
      limit: query.limit + 1,
    }) as DeliveryRow[];
    const page = rows.slice(0, query.limit);
    return {
      deliveries: page.map(summary),
      ...(rows.length > query.limit ? { next: page[page.length - 1].seq } : {}),
    };
  }

  /** One delivery with its attempts; `merchantId` limits it to that merchant's. */
  get(
    id: string,
    merchantId?: string,
  ): (DeliverySummary & { attemptLog: DeliveryAttempt[] }) | undefined {
    const row = this.findRow(id, merchantId);
    if (!row) return undefined;
    const attempts = this.statement(
      `SELECT * FROM webhook_attempt WHERE delivery_id = ? ORDER BY attempt`,
    ).all(id) as Array<{
      attempt: number;
      started_at: string;
      latency_ms: number;
      status_code: number | null;
      outcome: 'DELIVERED' | 'FAILED';
      error: string | null;
    }>;
    return {
      ...summary(row),
      attemptLog: attempts.map((a) => ({
        attempt: a.attempt,
        startedAt: a.started_at,
        latencyMs: Math.round(a.latency_ms * 10) / 10,
        ...(a.status_code !== null ? { statusCode: a.status_code } : {}),
        outcome: a.outcome,
        ...(a.error !== null ? { error: a.error } : {}),
      })),
    };
  }

  /**
   * Sends a delivery again (whatever its status) with a new round of retries, keeping its id.
   * It goes before the order's later pending notifications, which wait for it again.
   */
  redeliver(id: string, now: number, merchantId?: string): Promise<DeliverySummary | undefined> {
    return this.write(() => {
      const row = this.findRow(id, merchantId);
      if (!row) return undefined;
      this.requeue(row, now);
      return summary(this.findRow(id)!);
    });
  }

  /** Redelivers every dead-lettered delivery of a merchant; resolves with how many. */
  redeliverDeadLettered(merchantId: string, now: number): Promise<number> {
    return this.write(() => {
      const rows = this.statement(
        `SELECT * FROM webhook_delivery WHERE merchant_id = ? AND status = 'DEAD_LETTERED' ORDER BY seq`,
      ).all(merchantId) as DeliveryRow[];
      for (const row of rows) this.requeue(row, now);
      return rows.length;
    });
  }

  /** Pending deliveries (all merchants), for the metrics. */
  pendingCount(): number {
    return this.statement(`SELECT COUNT(*) FROM webhook_delivery WHERE status = 'PENDING'`)
      .pluck()
      .get() as number;
  }

  close(): void {
    this.flush();
    this.db.close();
  }

  /** Statements are prepared once: preparing them per call cost more than running them. */
  private statement(sql: string): Database.Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  private findRow(id: string, merchantId?: string): DeliveryRow | undefined {
    return this.statement(
      `SELECT * FROM webhook_delivery
         WHERE id = @id AND (@merchantId IS NULL OR merchant_id = @merchantId)`,
    ).get({ id, merchantId: merchantId ?? null }) as DeliveryRow | undefined;
  }

  private requeue(row: DeliveryRow, now: number): void {
    this.statement(
      `UPDATE webhook_delivery AS d SET status = 'PENDING', round_attempts = 0,
           next_attempt_at = CASE WHEN ${EARLIER_PENDING} THEN NULL ELSE ? END
         WHERE id = ?`,
    ).run(now, row.id);
    this.statement(
      `UPDATE webhook_delivery SET next_attempt_at = NULL
         WHERE stream_id = ? AND status = 'PENDING' AND revision > ?`,
    ).run(row.stream_id, row.revision);
  }

  /** The order's next pending delivery, if it was waiting, may go now. */
  private releaseNext(streamId: string, now: number): void {
    this.statement(
      `UPDATE webhook_delivery SET next_attempt_at = ?
         WHERE seq = (SELECT seq FROM webhook_delivery WHERE stream_id = ? AND status = 'PENDING'
                      ORDER BY revision LIMIT 1)
           AND next_attempt_at IS NULL`,
    ).run(now, streamId);
  }

  /**
   * Runs `change` in the next group transaction (in a savepoint of its own, so a failing change
   * undoes only itself); resolves once that transaction has committed.
   */
  private write<T>(change: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const step = this.db.transaction(change);
      this.queued.push({ run: step, resolve: resolve as (value: unknown) => void, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queued;
    this.queued = [];
    if (!batch.length) return;
    const outcomes: Array<{ ok: boolean; value: unknown }> = [];
    try {
      this.db.transaction(() => {
        for (const { run } of batch) {
          try {
            outcomes.push({ ok: true, value: run() });
          } catch (error) {
            outcomes.push({ ok: false, value: error });
          }
        }
      })();
    } catch (error) {
      batch.forEach((w) => w.reject(error as Error));
      return;
    }
    batch.forEach((w, i) =>
      outcomes[i].ok ? w.resolve(outcomes[i].value) : w.reject(outcomes[i].value as Error),
    );
  }
}

function summary(row: DeliveryRow): DeliverySummary {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    orderId: row.order_id,
    transactionId: row.transaction_id,
    eventType: row.event_type,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    createdAt: iso(row.created_at)!,
    ...(row.status === 'PENDING' && row.next_attempt_at !== null
      ? { nextAttemptAt: iso(row.next_attempt_at) }
      : {}),
    ...(row.delivered_at !== null ? { deliveredAt: iso(row.delivered_at) } : {}),
    ...(row.last_status_code !== null ? { lastStatusCode: row.last_status_code } : {}),
    ...(row.last_error !== null ? { lastError: row.last_error } : {}),
  };
}
