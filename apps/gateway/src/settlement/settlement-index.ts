import { ORDER_STREAM_PREFIX } from '@gateway/domain';
import type { EventReader, GlobalPosition, StoredEvent } from '@gateway/event-store';
import Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { acquirerOf } from './simulated-settlement';

/** Events read per step of a catch-up. */
const PAGE = 500;

export interface BatchKey {
  readonly merchantId: string;
  readonly batch: number;
}

/**
 * Which orders each batch (merchant, day) holds transactions of, so that closing a batch loads
 * those orders only, not every order: a projection of the order events (any transaction the
 * acquirer gave a `transaction.acquirer.batch`), checkpointed in its own SQLite file beside the
 * events (a file per node on KurrentDB, like read-model.db). The consumers thread keeps it up to
 * date as events commit (SettlementIndexFollower), off the request thread; closing a batch
 * catches it up first (`catchUp`), so it never answers behind the store. Also remembers the
 * batches whose run completed.
 */
export class SettlementIndex {
  private readonly db: Database.Database;
  private readonly insertOrder: Database.Statement;
  private readonly readCheckpoint: Database.Statement;
  private readonly writeCheckpoint: Database.Statement;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    filename: string,
    private readonly store: Pick<EventReader, 'readAll'>,
  ) {
    this.db = new Database(filename);
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('journal_mode = WAL');
    // Lost to a power cut, a checkpoint only means events are indexed again (inserts are idempotent).
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS batch_order (merchant_id TEXT NOT NULL, batch INTEGER NOT NULL,
        order_id TEXT NOT NULL, PRIMARY KEY (merchant_id, batch, order_id)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS batch_done (merchant_id TEXT NOT NULL, batch INTEGER NOT NULL,
        PRIMARY KEY (merchant_id, batch)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS checkpoint (name TEXT PRIMARY KEY, position TEXT NOT NULL);
    `);
    this.insertOrder = this.db.prepare('INSERT OR IGNORE INTO batch_order VALUES (?, ?, ?)');
    this.readCheckpoint = this.db
      .prepare("SELECT position FROM checkpoint WHERE name = 'orders'")
      .pluck();
    this.writeCheckpoint = this.db.prepare(
      "INSERT INTO checkpoint VALUES ('orders', ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position",
    );
  }

  /**
   * Indexes every order event committed before the call. Catch-ups run one after the other, so
   * one that started earlier cannot end before what this caller needs is read.
   */
  catchUp(): Promise<void> {
    const next = this.queue.then(() => this.readOn());
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The orders with transactions in the batch, by order id. */
  ordersOf({ merchantId, batch }: BatchKey): string[] {
    return this.db
      .prepare(
        'SELECT order_id FROM batch_order WHERE merchant_id = ? AND batch = ? ORDER BY order_id',
      )
      .pluck()
      .all(merchantId, batch) as string[];
  }

  /** Batches up to `latest` holding transactions whose run has not completed, oldest first. */
  due(latest: number): BatchKey[] {
    return this.db
      .prepare(
        `SELECT DISTINCT o.merchant_id AS merchantId, o.batch FROM batch_order o
         WHERE o.batch <= ? AND NOT EXISTS (SELECT 1 FROM batch_done d
           WHERE d.merchant_id = o.merchant_id AND d.batch = o.batch)
         ORDER BY o.batch, o.merchant_id`,
      )
      .all(latest) as BatchKey[];
  }

  markDone({ merchantId, batch }: BatchKey): void {
    this.db.prepare('INSERT OR IGNORE INTO batch_done VALUES (?, ?)').run(merchantId, batch);
  }

  close(): void {
    this.db.close();
  }

  /** The position of the last order event indexed. */
  checkpoint(): GlobalPosition | undefined {
    const saved = this.readCheckpoint.get() as string | undefined;
    return saved === undefined ? undefined : BigInt(saved);
  }

  /**
   * Indexes committed order events, in commit order, and moves the checkpoint to the last: never
   * back, when another reader of the same file (the consumers thread, the request thread) is ahead.
   */
  apply(events: readonly Pick<StoredEvent, 'streamId' | 'data' | 'position'>[]): void {
    if (events.length === 0) return;
    this.db.transaction(() => {
      for (const event of events) this.index(event);
      const last = events[events.length - 1].position;
      const current = this.checkpoint();
      if (current === undefined || last > current) this.writeCheckpoint.run(last.toString());
    })();
  }

  private async readOn(): Promise<void> {
    for (;;) {
      const after = this.checkpoint();
      const events = await this.store.readAll({
        ...(after !== undefined ? { after } : {}),
        maxCount: PAGE,
        streamPrefix: ORDER_STREAM_PREFIX,
      });
      this.apply(events);
      if (events.length < PAGE) return;
      // The embedded store reads synchronously: requests are served between pages.
      await nextTurn();
    }
  }

  private index(event: Pick<StoredEvent, 'streamId' | 'data'>): void {
    const { processor } = event.data as { processor?: Readonly<Record<string, unknown>> };
    const batch = processor && acquirerOf(processor)?.batch;
    if (typeof batch !== 'number') return;
    const rest = event.streamId.slice(ORDER_STREAM_PREFIX.length);
    const colon = rest.indexOf(':');
    this.insertOrder.run(rest.slice(0, colon), batch, rest.slice(colon + 1));
  }
}
