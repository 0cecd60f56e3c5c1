import Database from 'better-sqlite3';
import type {
  AttemptConsequence,
  DeliveryAttempt,
  DeliveryDetail,
  DeliveryLog,
  DeliveryPage,
  DeliveryQueue,
  DeliveryQuery,
  DeliveryReader,
  DeliveryStatus,
  DeliverySummary,
  DueDelivery,
  NewDelivery,
} from './delivery.types';
import { DeliveryWriter, type Writes } from './delivery-writer';
import { EARLIER_PENDING } from './delivery-writer.source';

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

const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());

/**
 * Pending deliveries, the delivery log and the dead letters in one SQLite file, durable
 * (WAL, synchronous=FULL) before the consumer acknowledges an event, so a restart loses none.
 * Every write goes to a worker thread (delivery-writer.ts) that commits those arriving together
 * in one transaction (one fsync, off the event loop), which keeps up with the gateway's append
 * rate; this thread only reads. Other processes (the CLI, a gateway serving the API for a
 * standalone dispatcher) may open the same file: the dispatcher polls it for their redeliveries.
 */
export class SqliteDeliveryStore implements DeliveryQueue, DeliveryLog {
  private readonly db: Database.Database;
  private readonly writer: DeliveryWriter | undefined;
  private readonly statements = new Map<string, Database.Statement>();

  /**
   * `options.cache`: a file rebuilt from the event store at every start (cluster/), not fsynced.
   * `options.readOnly`: another process's file, only read (the console): no writer, no schema.
   */
  constructor(
    filename: string,
    options: { readonly cache?: boolean; readonly readOnly?: boolean } = {},
  ) {
    if (options.readOnly) {
      this.db = new Database(filename, { readonly: true, fileMustExist: true });
      this.db.pragma('busy_timeout = 5000');
      return;
    }
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    this.writer = new DeliveryWriter(filename, options.cache);
  }

  /** The delivery log of a file another process writes, read-only (WAL: beside its writer). */
  static openReadOnly(filename: string): DeliveryReader {
    return new SqliteDeliveryStore(filename, { readOnly: true });
  }

  /** Records a delivery; false when one for this event exists already (a redelivered event). */
  record(delivery: NewDelivery, now: number): Promise<boolean> {
    return this.write('record', { delivery, now });
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

  /**
   * Up to `limit` due deliveries of a merchant, each the oldest pending one of its order, leaving
   * out the orders (stream ids) in `excluding`.
   */
  due(
    merchantId: string,
    now: number,
    limit: number,
    excluding: Iterable<string> = [],
  ): DueDelivery[] {
    const rows = this.statement(
      `SELECT * FROM webhook_delivery d
         WHERE d.status = 'PENDING' AND d.merchant_id = ? AND d.next_attempt_at <= ?
           AND NOT ${EARLIER_PENDING}
           AND d.stream_id NOT IN (SELECT value FROM json_each(?))
         ORDER BY d.next_attempt_at, d.seq LIMIT ?`,
    ).all(merchantId, now, JSON.stringify([...excluding]), limit) as DeliveryRow[];
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
    delivery: Pick<DueDelivery, 'id' | 'streamId'>,
    attempt: DeliveryAttempt,
    consequence: AttemptConsequence,
    now: number,
  ): Promise<void> {
    const { id, streamId } = delivery;
    return this.write('completeAttempt', {
      delivery: { id, streamId },
      attempt,
      consequence,
      now,
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

  /** An order's deliveries in the order of its events (its stream's index: bounded by the order). */
  ofOrder(streamId: string): DeliverySummary[] {
    const rows = this.statement(
      `SELECT * FROM webhook_delivery WHERE stream_id = ? ORDER BY revision, seq`,
    ).all(streamId) as DeliveryRow[];
    return rows.map(summary);
  }

  /** One delivery with its attempts; `merchantId` limits it to that merchant's. */
  get(id: string, merchantId?: string): DeliveryDetail | undefined {
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
  async redeliver(
    id: string,
    now: number,
    merchantId?: string,
  ): Promise<DeliverySummary | undefined> {
    if (!(await this.write('redeliver', { id, now, merchantId }))) return undefined;
    const row = this.findRow(id);
    return row && summary(row);
  }

  /** Redelivers every dead-lettered delivery of a merchant; resolves with how many. */
  redeliverDeadLettered(merchantId: string, now: number): Promise<number> {
    return this.write('redeliverDeadLettered', { merchantId, now });
  }

  /** Deletes deliveries and their attempts (a cache dropping a partition it no longer owns). */
  forget(ids: readonly string[]): Promise<void> {
    return this.write('forget', { ids });
  }

  /** Pending deliveries (all merchants), for the metrics. */
  pendingCount(): number {
    return this.statement(`SELECT COUNT(*) FROM webhook_delivery WHERE status = 'PENDING'`)
      .pluck()
      .get() as number;
  }

  /** Commits the writes queued, then closes both connections. */
  async close(): Promise<void> {
    await this.writer?.close();
    this.db.close();
  }

  private write<K extends keyof Writes>(op: K, args: Writes[K][0]): Promise<Writes[K][1]> {
    if (!this.writer) return Promise.reject(new Error('the delivery store was opened read-only'));
    return this.writer.write(op, args);
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
