import type { GlobalPosition } from '@gateway/event-store';
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { OrderSummary } from '../order-summary/order-summary';
import { OrderSearches } from './order-search';
import { fromRow, type Row } from './order-summary-row';
import { WalCheckpointer } from './wal-checkpointer';
import type {
  OrderSummaryPage,
  OrderSummaryQuery,
  OrderSummaryReadModel,
  UnknownInCurrency,
} from '../order-summary/order-summary.read-model';

/**
 * 2: total_chargeback, unknown_count, total_unknown (issue 18), added last so a version 1 file
 * migrates in place (its orders predate chargebacks; UNKNOWN ones it had are not counted).
 * 3: amount, reference, card_last_four and the console's search indexes (issue 20). Its rows are
 * dropped with the checkpoint, so the projector folds every order again and fills them.
 */
const SCHEMA_VERSION = 3;
const UNKNOWN_INDEX = `
  CREATE INDEX order_summary_unknown ON order_summary (currency) WHERE unknown_count > 0;`;
/**
 * The console's searches (libs/projections/src/sqlite/order-search.ts): each filter of one
 * merchant's orders is an equality before the list order, so a page reads only its own rows; the
 * last three serve every merchant's orders (finance) by order id, time or status.
 */
const SEARCH_INDEXES = `
  CREATE INDEX order_summary_by_reference ON order_summary (merchant_id, reference, creation_time, order_id) WHERE reference IS NOT NULL;
  CREATE INDEX order_summary_by_card ON order_summary (merchant_id, card_last_four, creation_time, order_id) WHERE card_last_four IS NOT NULL;
  CREATE INDEX order_summary_by_amount ON order_summary (merchant_id, amount, creation_time, order_id);
  CREATE INDEX order_summary_unknown_orders ON order_summary (merchant_id, creation_time, order_id) WHERE unknown_count > 0;
  CREATE INDEX order_summary_by_order_id ON order_summary (order_id, creation_time);
  CREATE INDEX order_summary_recent ON order_summary (creation_time, order_id);
  CREATE INDEX order_summary_recent_by_status ON order_summary (status, creation_time, order_id);`;
const MIGRATIONS: Readonly<Record<number, string>> = {
  1: `ALTER TABLE order_summary ADD COLUMN total_chargeback INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE order_summary ADD COLUMN unknown_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE order_summary ADD COLUMN total_unknown INTEGER NOT NULL DEFAULT 0;
    ${UNKNOWN_INDEX}`,
  2: `ALTER TABLE order_summary ADD COLUMN amount INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE order_summary ADD COLUMN reference TEXT;
    ALTER TABLE order_summary ADD COLUMN card_last_four TEXT;
    DELETE FROM order_summary;
    DELETE FROM checkpoint;
    ${SEARCH_INDEXES}`,
};
const TABLES = `
  CREATE TABLE order_summary (
    merchant_id       TEXT    NOT NULL,
    order_id          TEXT    NOT NULL,
    status            TEXT    NOT NULL,
    currency          TEXT    NOT NULL,
    total_authorized  INTEGER NOT NULL,
    total_captured    INTEGER NOT NULL,
    total_refunded    INTEGER NOT NULL,
    creation_time     TEXT    NOT NULL,
    last_updated_time TEXT    NOT NULL,
    transaction_count INTEGER NOT NULL,
    stream_revision   INTEGER NOT NULL,
    total_chargeback  INTEGER NOT NULL,
    unknown_count     INTEGER NOT NULL,
    total_unknown     INTEGER NOT NULL,
    amount            INTEGER NOT NULL,
    reference         TEXT,
    card_last_four    TEXT,
    PRIMARY KEY (merchant_id, order_id)
  ) STRICT, WITHOUT ROWID;
  -- Positions as decimal text: KurrentDB commit positions exceed SQLite's 64-bit integers' safe use in JS.
  CREATE TABLE checkpoint (projection TEXT PRIMARY KEY, position TEXT NOT NULL) STRICT;`;
const INDEXES = `
  CREATE INDEX order_summary_listing ON order_summary (merchant_id, creation_time, order_id);
  CREATE INDEX order_summary_by_status ON order_summary (merchant_id, status, creation_time, order_id);
  ${UNKNOWN_INDEX}
  ${SEARCH_INDEXES}`;

const PROJECTION = 'order_summary';

/**
 * The read model in its own SQLite file beside the event log (never contending for the event
 * writer's lock). Rows and checkpoint change in one transaction, so after a crash both are as of
 * the same event. synchronous=NORMAL: a power cut may roll back the last commits, rows and
 * checkpoint together, and the projector then applies those events again.
 */
export class SqliteOrderSummaryReadModel implements OrderSummaryReadModel {
  private readonly statements: ReturnType<typeof prepare>;
  private readonly searches: OrderSearches;

  private constructor(
    private readonly db: Database.Database,
    private readonly checkpointer?: WalCheckpointer,
  ) {
    this.statements = prepare(db);
    this.searches = new OrderSearches(db);
  }

  /**
   * Opens (creating if needed) the read model for the projector. Its WAL checkpoints, the only
   * fsyncs of synchronous=NORMAL, run on a thread of their own (WalCheckpointer), not in commits.
   */
  static open(filename: string): SqliteOrderSummaryReadModel {
    return SqliteOrderSummaryReadModel.openCreating(filename, true);
  }

  /**
   * Opens (creating if needed) the read model to list orders beside a projector that runs on
   * another thread and checkpoints: this connection commits nothing, so it needs no checkpointer.
   */
  static openToList(filename: string): SqliteOrderSummaryReadModel {
    return SqliteOrderSummaryReadModel.openCreating(filename, false);
  }

  private static openCreating(filename: string, checkpoints: boolean): SqliteOrderSummaryReadModel {
    mkdirSync(dirname(filename), { recursive: true });
    const db = new Database(filename);
    try {
      db.pragma('busy_timeout = 5000');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('wal_autocheckpoint = 0');
      db.transaction(() => {
        const version = db.pragma('user_version', { simple: true }) as number;
        if (version === 0) db.exec(TABLES + INDEXES);
        // A file of an older version: its rows were folded before what the migration adds existed.
        else for (let v = version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]);
        if (version !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
      }).immediate();
      return new SqliteOrderSummaryReadModel(
        db,
        checkpoints ? new WalCheckpointer(filename) : undefined,
      );
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Creates a read model to rebuild from the first event: no journal and no fsync (a crash leaves
   * a file to delete, never one that opens: its version is set by finishRebuild), and the list
   * indexes built once at the end, by a sort, rather than row by row.
   */
  static createForRebuild(filename: string): SqliteOrderSummaryReadModel {
    if (existsSync(filename)) throw new Error(`${filename} already exists`);
    mkdirSync(dirname(filename), { recursive: true });
    const db = new Database(filename);
    try {
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      db.pragma('cache_size = -32768'); // 32 MiB, whatever the number of events
      db.exec(TABLES);
      return new SqliteOrderSummaryReadModel(db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Completes a createForRebuild file: its indexes, its version, and WAL as the gateway runs it. */
  finishRebuild(): void {
    this.db.exec(INDEXES);
    this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
    this.db.pragma('journal_mode = WAL');
  }

  /** Opens an existing read model for reading only (the audit CLI, beside a running gateway). */
  static openReadOnly(filename: string): SqliteOrderSummaryReadModel {
    return new SqliteOrderSummaryReadModel(openReadOnlyFile(filename));
  }

  checkpoint(): GlobalPosition | undefined {
    const position = this.statements.checkpoint.get(PROJECTION) as string | undefined;
    return position === undefined ? undefined : BigInt(position);
  }

  commit(
    rows: readonly OrderSummary[],
    expected: GlobalPosition | undefined,
    next: GlobalPosition,
  ): boolean {
    return this.db
      .transaction(() => {
        if (this.checkpoint() !== expected) return false;
        this.upsert(rows);
        this.statements.setCheckpoint.run(PROJECTION, next.toString());
        return true;
      })
      .immediate();
  }

  /**
   * Writes rows in one transaction, the checkpoint left as it is: a rebuild split over threads
   * commits its checkpoint once every part is in.
   */
  writeRows(rows: readonly OrderSummary[]): void {
    this.db.transaction(() => this.upsert(rows)).immediate();
  }

  private upsert(rows: readonly OrderSummary[]): void {
    for (const row of rows) {
      if (this.statements.upsert.run(columnsOf(row)).changes === 0) continue; // an older revision
      this.statements.searchFields.run({
        merchant: row.merchantId,
        order: row.orderId,
        revision: row.streamRevision,
        amount: row.amount,
        reference: row.reference ?? null,
        card: row.cardLastFour ?? null,
      });
    }
  }

  /** The order list's page: the console's searches, by one merchant (OrderSearches). */
  list(query: OrderSummaryQuery): OrderSummaryPage {
    return this.searches.page(query);
  }

  unknownByCurrency(): UnknownInCurrency[] {
    return this.statements.unknown.all() as UnknownInCurrency[];
  }

  *rows(): IterableIterator<OrderSummary> {
    for (const row of this.statements.all.iterate() as IterableIterator<Row>) yield fromRow(row);
  }

  /**
   * Runs `work` on one snapshot of the file, even across awaits, so a checkpoint and the rows
   * read after it agree while the gateway keeps projecting (WAL keeps the snapshot).
   */
  async onSnapshot<T>(work: () => Promise<T>): Promise<T> {
    this.db.exec('BEGIN');
    try {
      this.checkpoint(); // the first read fixes the snapshot
      return await work();
    } finally {
      this.db.exec('COMMIT');
    }
  }

  close(): void {
    this.checkpointer?.close();
    this.db.close();
  }
}

/** An existing read model, read-only; throws when it is missing or of another version. */
export function openReadOnlyFile(filename: string): Database.Database {
  const db = new Database(filename, { readonly: true, fileMustExist: true });
  if (db.pragma('user_version', { simple: true }) !== SCHEMA_VERSION) {
    db.close();
    throw new Error(`${filename} is not an order-summary read model of this version (yet)`);
  }
  return db;
}

function prepare(db: Database.Database) {
  return {
    checkpoint: db.prepare('SELECT position FROM checkpoint WHERE projection = ?').pluck(),
    setCheckpoint: db.prepare(
      'INSERT INTO checkpoint (projection, position) VALUES (?, ?) ON CONFLICT (projection) DO UPDATE SET position = excluded.position',
    ),
    // Only a later revision replaces a row: re-applying an event is a no-op. Positional
    // parameters in COLUMN order bind faster than named ones (a rebuild writes every order).
    // SQLite rewrites the indexes of every column an UPDATE sets, changed or not, so the upsert
    // sets only what an order's events keep changing: currency and creation time never change
    // (OrderCreated's), and the search fields, which seldom do, go through searchFields.
    upsert: db.prepare(
      `INSERT INTO order_summary VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (merchant_id, order_id) DO UPDATE SET
         status = excluded.status,
         total_authorized = excluded.total_authorized, total_captured = excluded.total_captured,
         total_refunded = excluded.total_refunded,
         last_updated_time = excluded.last_updated_time, transaction_count = excluded.transaction_count,
         stream_revision = excluded.stream_revision, total_chargeback = excluded.total_chargeback,
         unknown_count = excluded.unknown_count, total_unknown = excluded.total_unknown
       WHERE excluded.stream_revision > order_summary.stream_revision`,
    ),
    // The row the upsert just wrote (its revision), only when a search field differs: a lookup by
    // key, and the search indexes written only then.
    searchFields: db.prepare(
      `UPDATE order_summary SET amount = @amount, reference = @reference, card_last_four = @card
       WHERE merchant_id = @merchant AND order_id = @order AND stream_revision = @revision
         AND (amount IS NOT @amount OR reference IS NOT @reference OR card_last_four IS NOT @card)`,
    ),
    all: db.prepare('SELECT * FROM order_summary ORDER BY merchant_id, order_id'),
    // The partial index holds only orders with an UNKNOWN transaction: a scrape reads just those.
    unknown: db.prepare(
      `SELECT currency, SUM(unknown_count) AS transactions, SUM(total_unknown) AS amount
       FROM order_summary WHERE unknown_count > 0 GROUP BY currency ORDER BY currency`,
    ),
  };
}

/** The row's values in the table's column order. */
function columnsOf(summary: OrderSummary): (string | number | null)[] {
  return [
    summary.merchantId,
    summary.orderId,
    summary.status,
    summary.currency,
    summary.totalAuthorized,
    summary.totalCaptured,
    summary.totalRefunded,
    summary.creationTime,
    summary.lastUpdatedTime,
    summary.transactionCount,
    summary.streamRevision,
    summary.totalChargeback,
    summary.unknownTransactions,
    summary.totalUnknown,
    summary.amount,
    summary.reference ?? null,
    summary.cardLastFour ?? null,
  ];
}
