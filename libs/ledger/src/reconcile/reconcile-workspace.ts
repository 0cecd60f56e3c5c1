import {
  isApproved,
  parseOrderStreamId,
  type GatewayCode,
  type Thousandths,
} from '@gateway/domain';
import type { StoredEvent } from '@gateway/event-store';
import Database from 'better-sqlite3';
import type { TransactionFields } from '../transaction-fields';
import type { SettledLine } from './settlement-file-reader';

/** What the acquirer settles (docs/settlement.md): other types never appear in a file. */
const SETTLED_TYPES = new Set(['CAPTURE', 'PAYMENT', 'REFUND']);

type Recorded = TransactionFields &
  Partial<{
    targetTransactionId: string;
    sourceOfFunds: { provided?: { card?: { fundingMethod?: string } } };
    processor: { transaction?: { acquirer?: { batch?: unknown } } };
  }>;

/** A settlement line beside the gateway's transaction it names (absent: unknown to it). */
export interface LineAndTransaction {
  readonly line: SettledLine;
  readonly duplicates: number;
  readonly transaction?: GatewayTransaction;
}

export interface GatewayTransaction {
  readonly merchantId: string;
  readonly orderId: string;
  readonly transactionId: string;
  readonly type: string;
  readonly currency: string;
  readonly amount: Thousandths;
  readonly approved: boolean;
  readonly voided: boolean;
  readonly batch: number | null;
  /** The log position of the event that last recorded it (its approval, a learnt outcome): in its batch only if the batch closed after it. */
  readonly position: number;
  /** The card's funding method: the transaction's own card, else the latest before it on the order. */
  readonly fundingMethod: string | null;
}

/**
 * Reconciliation's working set, in a temporary SQLite database (on disk, deleted on close), so
 * neither a 100,000-line settlement file nor a million events is ever held in memory: the files'
 * lines, and the gateway's captures, payments and refunds folded from the order events.
 */
export class ReconcileWorkspace {
  private readonly db = new Database('');
  private readonly insertLine;
  private readonly upsertTx;
  private readonly reviseTx;
  private readonly voidTx;
  private readonly setFunding;
  private readonly fundingOf;

  constructor() {
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec(`
      CREATE TABLE line (file TEXT, lineNo INTEGER, batch INTEGER, orderId TEXT, transactionId TEXT,
        type TEXT, currency TEXT, gross INTEGER, fee INTEGER);
      CREATE INDEX line_tx ON line (orderId, transactionId);
      CREATE TABLE tx (merchantId TEXT, orderId TEXT, transactionId TEXT, type TEXT, currency TEXT,
        amount INTEGER, gatewayCode TEXT, voided INTEGER, batch INTEGER, fundingMethod TEXT,
        position INTEGER, PRIMARY KEY (orderId, transactionId, merchantId)) WITHOUT ROWID;
      CREATE INDEX tx_batch ON tx (merchantId, batch);
      CREATE TABLE funding (stream TEXT PRIMARY KEY, method TEXT) WITHOUT ROWID;`);
    this.insertLine = this.db.prepare(
      `INSERT INTO line VALUES (@file, @lineNo, @batch, @orderId, @transactionId, @type, @currency,
        @gross, @fee)`,
    );
    this.upsertTx = this.db.prepare(
      `INSERT OR REPLACE INTO tx VALUES (@merchantId, @orderId, @transactionId, @type, @currency,
        @amount, @gatewayCode, 0, @batch, @fundingMethod, @position)`,
    );
    this.reviseTx = this.db.prepare(
      `UPDATE tx SET gatewayCode = @gatewayCode, amount = coalesce(@amount, amount),
        batch = coalesce(@batch, batch), position = @position
        WHERE merchantId = @merchantId AND orderId = @orderId AND transactionId = @transactionId`,
    );
    this.voidTx = this.db.prepare(
      `UPDATE tx SET voided = 1
        WHERE merchantId = @merchantId AND orderId = @orderId AND transactionId = @transactionId`,
    );
    this.setFunding = this.db.prepare('INSERT OR REPLACE INTO funding VALUES (?, ?)');
    this.fundingOf = this.db.prepare('SELECT method FROM funding WHERE stream = ?').pluck();
  }

  addLines(lines: readonly SettledLine[]): void {
    this.db.transaction(() => lines.forEach((line) => this.insertLine.run(line)))();
  }

  /** Folds a page of order events: what each capture, payment and refund became. */
  addEvents(events: readonly StoredEvent[]): void {
    this.db.transaction(() => events.forEach((event) => this.fold(event)))();
  }

  private fold(event: StoredEvent): void {
    const order = parseOrderStreamId(event.streamId);
    const data = (event.data ?? {}) as Recorded;
    if (!order || data.gatewayCode === undefined) return;
    const key = { merchantId: order.merchantId, orderId: order.orderId };
    const { position } = event;
    const batch = batchOf(data.processor);
    if (data.id === undefined) {
      // A later step or a learnt outcome of a transaction already recorded.
      const transactionId = data.transactionId;
      const revision = { ...key, transactionId, gatewayCode: data.gatewayCode };
      this.reviseTx.run({
        ...revision,
        amount: data.amount ?? null,
        batch: batch ?? null,
        position,
      });
      return;
    }
    const own = data.sourceOfFunds?.provided?.card?.fundingMethod;
    if (own !== undefined) this.setFunding.run(event.streamId, own);
    if (data.type?.startsWith('VOID_') && isApproved(data.gatewayCode) && data.targetTransactionId)
      this.voidTx.run({ ...key, transactionId: data.targetTransactionId });
    if (!SETTLED_TYPES.has(data.type ?? '')) return;
    this.upsertTx.run({
      ...key,
      transactionId: data.id,
      type: data.type,
      currency: data.currency,
      amount: data.amount,
      gatewayCode: data.gatewayCode,
      batch: batch ?? null,
      fundingMethod: own ?? this.fundingOf.get(event.streamId) ?? null,
      position,
    });
  }

  /**
   * Each settled transaction once (its first line, with how many lines settled it), beside the
   * gateway's transaction of that order and id (of the line's batch, should two merchants share
   * order and transaction ids), read lazily.
   */
  *linesWithTransactions(): Generator<LineAndTransaction> {
    const rows = this.db.prepare(`
      SELECT l.*, count(*) OVER (PARTITION BY l.orderId, l.transactionId) AS lines,
        row_number() OVER (PARTITION BY l.orderId, l.transactionId ORDER BY l.rowid) AS nth,
        (SELECT json_object('merchantId', t.merchantId, 'type', t.type, 'currency', t.currency,
            'amount', t.amount, 'gatewayCode', t.gatewayCode, 'voided', t.voided,
            'batch', t.batch, 'fundingMethod', t.fundingMethod, 'position', t.position)
          FROM tx t WHERE t.orderId = l.orderId AND t.transactionId = l.transactionId
          ORDER BY t.batch IS l.batch DESC LIMIT 1) AS tx
      FROM line l ORDER BY l.rowid`);
    for (const row of rows.iterate() as Iterable<SettledLine & Row>) {
      if (row.nth > 1) continue;
      const { lines, nth: _nth, tx, ...line } = row;
      yield { line, duplicates: lines - 1, transaction: tx ? transactionOf(line, tx) : undefined };
    }
  }

  /**
   * The gateway's approved, not voided captures, payments and refunds of the batches the files
   * settle (merchant and day, as the lines' own transactions name them) that no line settles.
   */
  *unsettled(): Generator<GatewayTransaction> {
    const rows = this.db.prepare(`
      WITH covered AS (
        SELECT DISTINCT t.merchantId, l.batch FROM line l
          JOIN tx t ON t.orderId = l.orderId AND t.transactionId = l.transactionId
            AND t.batch = l.batch)
      SELECT t.* FROM tx t JOIN covered c ON c.merchantId = t.merchantId AND c.batch = t.batch
      WHERE t.voided = 0 AND NOT EXISTS (
        SELECT 1 FROM line l WHERE l.orderId = t.orderId AND l.transactionId = t.transactionId)
      ORDER BY t.merchantId, t.orderId, t.transactionId`);
    for (const row of rows.iterate() as Iterable<GatewayTransaction & { gatewayCode: string }>)
      if (isApproved(row.gatewayCode as GatewayCode)) yield toTransaction(row);
  }

  close(): void {
    this.db.close();
  }
}

interface Row {
  readonly lines: number;
  readonly nth: number;
  readonly tx: string | null;
}

function transactionOf(line: SettledLine, json: string): GatewayTransaction {
  const row = JSON.parse(json) as GatewayTransaction & { gatewayCode: string };
  return toTransaction({ ...row, orderId: line.orderId, transactionId: line.transactionId });
}

function toTransaction(
  row: Omit<GatewayTransaction, 'approved' | 'voided'> & { gatewayCode: string; voided: unknown },
): GatewayTransaction {
  const { gatewayCode, voided, ...rest } = row;
  return { ...rest, approved: isApproved(gatewayCode as GatewayCode), voided: Boolean(voided) };
}

/** transaction.acquirer.batch, as the acquirer answered it (yyyymmdd). */
function batchOf(processor: Recorded['processor']): number | undefined {
  const batch = processor?.transaction?.acquirer?.batch;
  return typeof batch === 'number' ? batch : undefined;
}
