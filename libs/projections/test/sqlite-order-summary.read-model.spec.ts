import { SqliteOrderSummaryReadModel, type OrderSummary } from '@gateway/projections';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const row = (
  orderId: string,
  streamRevision: number,
  extra: Partial<OrderSummary> = {},
): OrderSummary => ({
  merchantId: 'M',
  orderId,
  status: 'AUTHORIZED',
  currency: 'USD',
  totalAuthorized: 1000,
  totalCaptured: 0,
  totalRefunded: 0,
  totalChargeback: 0,
  unknownTransactions: 0,
  totalUnknown: 0,
  creationTime: `2026-11-22T10:00:0${orderId.slice(-1)}.000Z`,
  lastUpdatedTime: '2026-11-22T10:00:00.000Z',
  transactionCount: 1,
  streamRevision,
  amount: 1000,
  ...extra,
});

describe('SqliteOrderSummaryReadModel', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'read-model-'));
    file = join(dir, 'read-model.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('moves rows and checkpoint together, only from the checkpoint it expects', () => {
    const a = SqliteOrderSummaryReadModel.open(file);
    const b = SqliteOrderSummaryReadModel.open(file); // another gateway process on the same data dir
    expect(a.commit([row('o1', 1)], undefined, 5n)).toBe(true);
    // b still believes nothing was applied: its batch is refused whole.
    expect(b.commit([row('o2', 1)], undefined, 5n)).toBe(false);
    expect(b.checkpoint()).toBe(5n);
    expect([...b.rows()].map((r) => r.orderId)).toEqual(['o1']);
    a.close();
    b.close();
  });

  it('copies the WAL into the database file on a thread of its own, not in commits', async () => {
    const model = SqliteOrderSummaryReadModel.open(file);
    const opened = statSync(file).size;
    const rows = Array.from({ length: 2000 }, (_, i) => row(`o${i}`, 1));
    model.commit(rows, undefined, 1n);
    expect(statSync(file).size).toBe(opened); // the commit wrote the WAL only
    const deadline = Date.now() + 5000;
    while (statSync(file).size === opened && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(statSync(file).size).toBeGreaterThan(opened);
    model.close();
  });

  it('opens a version 1 file: its rows and checkpoint go (version 3), to be folded again', () => {
    const v1 = new Database(file);
    v1.exec(`CREATE TABLE order_summary (merchant_id TEXT NOT NULL, order_id TEXT NOT NULL,
      status TEXT NOT NULL, currency TEXT NOT NULL, total_authorized INTEGER NOT NULL,
      total_captured INTEGER NOT NULL, total_refunded INTEGER NOT NULL, creation_time TEXT NOT NULL,
      last_updated_time TEXT NOT NULL, transaction_count INTEGER NOT NULL,
      stream_revision INTEGER NOT NULL, PRIMARY KEY (merchant_id, order_id)) STRICT, WITHOUT ROWID;
      CREATE TABLE checkpoint (projection TEXT PRIMARY KEY, position TEXT NOT NULL) STRICT;
      INSERT INTO order_summary VALUES ('M', 'o1', 'AUTHORIZED', 'USD', 1000, 0, 0,
        '2026-11-22T10:00:01.000Z', '2026-11-22T10:00:00.000Z', 1, 1);
      INSERT INTO checkpoint VALUES ('order_summary', '7');`);
    v1.pragma('user_version = 1');
    v1.close();
    const model = SqliteOrderSummaryReadModel.open(file);
    expect(model.checkpoint()).toBeUndefined();
    expect([...model.rows()]).toEqual([]);
    const charged = { status: 'CHARGEBACK_PROCESSED' as const, totalChargeback: 400 };
    const searched = { reference: 'ref-2', cardLastFour: '0008' };
    model.commit([row('o2', 4, charged), row('o3', 1, searched)], undefined, 9n);
    expect([...model.rows()]).toEqual([row('o2', 4, charged), row('o3', 1, searched)]);
    model.close();
    expect(() => SqliteOrderSummaryReadModel.openReadOnly(file).close()).not.toThrow();
  });

  it('sums the money whose outcome is UNKNOWN per currency', () => {
    const model = SqliteOrderSummaryReadModel.open(file);
    const unknown = (count: number, amount: number, currency = 'USD') => ({
      unknownTransactions: count,
      totalUnknown: amount,
      currency,
    });
    model.commit(
      [
        row('o1', 1, unknown(1, 10_777)),
        row('o2', 1, unknown(2, 3_000)),
        row('o3', 1, unknown(1, 500, 'EUR')),
        row('o4', 1),
      ],
      undefined,
      1n,
    );
    model.commit([row('o2', 2, unknown(1, 1_000))], 1n, 2n); // one of o2's outcomes learnt
    expect(model.unknownByCurrency()).toEqual([
      { currency: 'EUR', transactions: 1, amount: 500 },
      { currency: 'USD', transactions: 2, amount: 11_777 },
    ]);
    model.close();
  });

  it("changes a row's search fields with a later revision only", () => {
    const model = SqliteOrderSummaryReadModel.open(file);
    const first = { cardLastFour: '1111', amount: 0, status: 'FAILED' as const };
    model.commit([row('o1', 1, first)], undefined, 1n);
    const second = { cardLastFour: '2222', amount: 5000, reference: 'r-2' };
    model.commit([row('o1', 2, second)], 1n, 2n);
    model.commit([row('o1', 1, first)], 2n, 3n); // applied again: changes nothing
    expect([...model.rows()]).toEqual([row('o1', 2, second)]);
    model.close();
  });

  it('keeps the later revision of a row when an older one is written again', () => {
    const model = SqliteOrderSummaryReadModel.open(file);
    model.commit([row('o1', 3, { status: 'CAPTURED' })], undefined, 3n);
    model.commit([row('o1', 2, { status: 'AUTHORIZED' })], 3n, 4n);
    expect([...model.rows()]).toEqual([row('o1', 3, { status: 'CAPTURED' })]);
    model.close();
  });

  it('lists newest first with keyset pages that neither skip nor repeat', () => {
    const model = SqliteOrderSummaryReadModel.open(file);
    model.commit(
      ['o1', 'o2', 'o3', 'o4', 'o5'].map((id) => row(id, 1)),
      undefined,
      1n,
    );
    const first = model.list({ merchantId: 'M', limit: 2 });
    expect(first.rows.map((r) => r.orderId)).toEqual(['o5', 'o4']);
    const second = model.list({ merchantId: 'M', limit: 2, after: first.next });
    expect(second.rows.map((r) => r.orderId)).toEqual(['o3', 'o2']);
    const third = model.list({ merchantId: 'M', limit: 2, after: second.next });
    expect(third).toEqual({ rows: [row('o1', 1)] });
    expect(model.list({ merchantId: 'OTHER', limit: 10 }).rows).toEqual([]);
    model.close();
  });
});
