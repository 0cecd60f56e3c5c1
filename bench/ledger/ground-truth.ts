import { foldOrder, isApproved, type OrderEvent, type Thousandths } from '@gateway/domain';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { SettlementLine } from '../../apps/gateway/src/settlement/settlement-batch';
import { settleOrder } from '../../apps/gateway/src/settlement/simulated-settlement';

/** Per currency, the approved transactions' sums as `daily` names them, and what is owed. */
export interface CurrencyTruth {
  authorised: Thousandths;
  captured: Thousandths;
  refunded: Thousandths;
  /** Captured less refunded over the orders' totals: the acquirer_receivable of an unsettled log. */
  receivable: Thousandths;
}

/** What the store holds, as the domain's own fold says: what the ledger's answers must equal. */
export interface GroundTruth {
  readonly orders: number;
  readonly byCurrency: ReadonlyMap<string, CurrencyTruth>;
  /** What the simulated acquirer would settle, per `merchant batch` (sorted keys). */
  readonly batches: ReadonlyMap<string, SettlementLine[]>;
}

const COUNTS: Readonly<Record<string, readonly (keyof CurrencyTruth)[]>> = {
  AUTHORIZATION: ['authorised'],
  PAYMENT: ['authorised', 'captured'],
  CAPTURE: ['captured'],
  REFUND: ['refunded'],
};

/**
 * Folds every order of DIR/events.db with the domain's foldOrder (not the ledger's code: the
 * answer the ledger is checked against must come another way), one stream at a time in stream
 * order, and asks the gateway's simulated settlement what each order's batches hold.
 */
export function groundTruth(dataDir: string): GroundTruth {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  const rows = db
    .prepare(
      `SELECT stream_id, type, data FROM events WHERE stream_id >= 'order:' AND stream_id < 'order;'
       ORDER BY stream_id, revision`,
    )
    .raw()
    .iterate() as Iterable<[string, string, string]>;
  const byCurrency = new Map<string, CurrencyTruth>();
  const batches = new Map<string, SettlementLine[]>();
  let orders = 0;
  let stream = '';
  let events: OrderEvent[] = [];
  const fold = () => {
    const order = foldOrder(events);
    if (order.kind !== 'Order') return;
    orders++;
    const truth = byCurrency.get(order.currency) ?? {
      authorised: 0,
      captured: 0,
      refunded: 0,
      receivable: 0,
    };
    truth.receivable += order.totals.captured - order.totals.refunded;
    const days = new Set<number>();
    for (const tx of order.transactions) {
      if (isApproved(tx.gatewayCode))
        for (const figure of COUNTS[tx.type] ?? []) truth[figure] += tx.amount;
      const batch = (tx.processor.transaction as { acquirer?: { batch?: number } } | undefined)
        ?.acquirer?.batch;
      if (batch !== undefined) days.add(batch);
    }
    byCurrency.set(order.currency, truth);
    for (const batch of days) {
      const lines = settleOrder(order, batch);
      if (lines.length === 0) continue;
      const key = `${order.merchantId} ${batch}`;
      const held = batches.get(key);
      if (held) held.push(...lines);
      else batches.set(key, lines);
    }
  };
  for (const [streamId, type, data] of rows) {
    if (streamId !== stream && events.length > 0) fold();
    if (streamId !== stream) [stream, events] = [streamId, []];
    events.push({ type, data: JSON.parse(data) } as OrderEvent);
  }
  if (events.length > 0) fold();
  db.close();
  const sorted = new Map([...batches].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { orders, byCurrency, batches: sorted };
}
