import {
  decideAcquirerFact,
  foldOrder,
  orderStreamId,
  type AcquirerFact,
  type OrderEvent,
} from '@gateway/domain';
import { SqliteEventStore } from '@gateway/event-store';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  authorizeBody,
  makeDataDir,
  merchantClient,
  projectionCaughtUp,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { runLedgerCli } from '../support/ledger-process';

const M = 'TESTMERCHANT';
const NOW = '2026-11-26T12:00:00.000Z';

/**
 * What the acquirer's facts look like over HTTP. The facts are recorded as AcquirerFactRecorder
 * records them (fold the stream, decideAcquirerFact, append at its revision, causedBy acquirer)
 * into the data directory of a stopped gateway; the restarted gateway then shows them.
 */
async function record(dataDir: string, facts: readonly AcquirerFact[]): Promise<string[]> {
  const store = await SqliteEventStore.open({ filename: join(dataDir, 'events.db') });
  const kinds: string[] = [];
  try {
    for (const fact of facts) {
      const streamId = orderStreamId(fact.merchantId, fact.orderId);
      const stored = await store.readStream(streamId);
      const decision = decideAcquirerFact(fact, foldOrder(stored as unknown as OrderEvent[]));
      kinds.push(decision.kind);
      if (decision.kind !== 'record') continue;
      const metadata = {
        merchantId: fact.merchantId,
        causedBy: 'acquirer',
        acquirerFact: fact.type,
      };
      const events = decision.events.map((e) => ({ eventId: randomUUID(), ...e, metadata }));
      await store.appendToStream(streamId, events, stored.length - 1);
    }
  } finally {
    await store.close();
  }
  return kinds;
}

describe('the acquirer’s facts on retrieval and in the order list', () => {
  let dataDir: string;
  let gateway: RunningGateway;
  let unknownAnswer: string;

  beforeAll(async () => {
    dataDir = await makeDataDir();
    const first = await startGateway(dataDir);
    const api = merchantClient(first);
    const unknownBody = authorizeBody('10.002', { month: '5', year: '37' });
    const unknown = await api.put('/order/u-1/transaction/t1', unknownBody);
    expect(unknown.body.result).toBe('UNKNOWN');
    unknownAnswer = unknown.text;
    const pay = { ...authorizeBody('10.666'), apiOperation: 'PAY' };
    expect((await api.put('/order/d-1/transaction/p1', pay)).status).toBe(201);
    expect(await first.stop('SIGTERM')).toBe(0);

    const ids = { merchantId: M, now: NOW };
    const money = { amount: 5_000, currency: 'USD', targetTransactionId: 'p1' };
    const facts: AcquirerFact[] = [
      { ...ids, orderId: 'u-1', type: 'RECORD_INQUIRY', transactionId: 't1', attempt: 1, answer: 'APPROVED', last: false, details: {} },
      { ...ids, orderId: 'd-1', type: 'OPEN_DISPUTE', disputeId: 'D-9', ...money },
      { ...ids, orderId: 'd-1', type: 'OPEN_DISPUTE', disputeId: 'D-9', ...money },
      { ...ids, orderId: 'd-1', type: 'PROCESS_CHARGEBACK', transactionId: 'cb-D-9', disputeId: 'D-9', ...money },
      { ...ids, orderId: 'd-1', type: 'PROCESS_CHARGEBACK', transactionId: 'cb-x', ...money, amount: 5_667 },
      { ...ids, orderId: 'd-1', type: 'SETTLE_TRANSACTIONS', batch: 20261126, settlementDate: '2026-11-26', transactions: [{ transactionId: 'p1', settledAmount: 10_666, fee: 260 }] },
    ]; // prettier-ignore
    expect(await record(dataDir, facts)).toEqual([
      'record',
      'record',
      'already-recorded',
      'record',
      'refused', // 5.667 is more than the 5.666 left of the payment
      'record',
    ]);
    gateway = await startGateway(dataDir);
  });
  afterAll(() => gateway?.stop());

  it('an UNKNOWN authorization learnt APPROVED: AUTHORIZED, and a retry still gets the first answer', async () => {
    const api = merchantClient(gateway);
    const { body } = await api.get('/order/u-1');
    expect(body).toMatchObject({ status: 'AUTHORIZED', totalAuthorizedAmount: 10.002 });
    expect(body.transaction[0]).toMatchObject({ result: 'SUCCESS', timeOfRecord: NOW });
    const retried = await api.put(
      '/order/u-1/transaction/t1',
      authorizeBody('10.002', { month: '5', year: '37' }),
    );
    expect(retried.text).toBe(unknownAnswer);
  });

  it('a disputed payment charged back: CHARGEBACK_PROCESSED, the CHARGEBACK transaction, the total', async () => {
    const api = merchantClient(gateway);
    const { body } = await api.get('/order/d-1');
    expect(body).toMatchObject({
      status: 'CHARGEBACK_PROCESSED',
      totalCapturedAmount: 10.666,
      totalChargebackAmount: 5,
    });
    expect(body.transaction.map((t: any) => [t.transaction.id, t.transaction.type])).toEqual([
      ['p1', 'PAYMENT'],
      ['cb-D-9', 'CHARGEBACK'],
    ]);
    const payment = (await api.get('/order/d-1/transaction/p1')).body;
    expect(payment.transaction).toMatchObject({
      disputes: [
        { id: 'D-9', amount: 5, status: 'CHARGEBACK_PROCESSED', chargebackTransactionId: 'cb-D-9' },
      ],
      acquirer: {
        batch: 20261126,
        settlementDate: '2026-11-26',
        settlement: { amount: 10.666, fee: 0.26 },
      },
    });
    // A settled payment is refunded, not voided; money taken back is not refunded again.
    const voided = await api.put('/order/d-1/transaction/v1', {
      apiOperation: 'VOID',
      transaction: { targetTransactionId: 'p1' },
    });
    expect([voided.status, voided.body.error?.field]).toEqual([
      400,
      'transaction.targetTransactionId',
    ]);
    const tooMuch = { apiOperation: 'REFUND', transaction: { amount: '5.667', currency: 'USD' } };
    expect((await api.put('/order/d-1/transaction/r1', tooMuch)).status).toBe(400);
  });

  it('the order list filters by CHARGEBACK_PROCESSED; the ledger finds no UNKNOWN money left and shows the chargeback', async () => {
    await projectionCaughtUp(gateway);
    const list = await merchantClient(gateway).get('/order?status=CHARGEBACK_PROCESSED');
    expect(list.body.order).toEqual([
      expect.objectContaining({ id: 'd-1', totalChargebackAmount: 5 }),
    ]);
    const ledger = await runLedgerCli(['unknown', '--data-dir', dataDir]);
    expect(ledger.stdout).toBe('currency  transactions  amount\n');
    const asOf = await runLedgerCli(['as-of', M, 'd-1', '2999-01-01', '--data-dir', dataDir]);
    expect(asOf.stdout).toMatch(/^status +CHARGEBACK_PROCESSED$/m);
    expect(asOf.stdout).toMatch(/^total charged back 5\.00$/m);
    expect(asOf.stdout).toMatch(/^cb-D-9 +CHARGEBACK +5\.00 +APPROVED /m);
  });
});
