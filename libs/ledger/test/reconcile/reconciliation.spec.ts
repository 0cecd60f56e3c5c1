import type { StoredEvent } from '@gateway/event-store';
import { ReconcileWorkspace } from '../../src/reconcile/reconcile-workspace';
import {
  exceptionsOf,
  notSettled,
  type ReconcileException,
} from '../../src/reconcile/reconciliation';
import type { SettledLine } from '../../src/reconcile/settlement-file-reader';

const BATCH = 20261126;
let position = 0n;

/** An order event as the gateway records it (only what reconciliation reads). */
function event(merchant: string, order: string, type: string, data: object): StoredEvent {
  position++;
  return {
    eventId: String(position),
    streamId: `order:${merchant}:${order}`,
    revision: 0,
    position,
    recordedAt: '2026-11-26T10:00:00.000Z',
    type,
    data,
    metadata: {} as StoredEvent['metadata'],
  };
}

const acquirer = (batch = BATCH) => ({ transaction: { acquirer: { batch } } });
const card = (fundingMethod: string) => ({ provided: { card: { fundingMethod } } });

function tx(id: string, type: string, amount: number, more: object = {}) {
  return {
    id,
    type,
    amount,
    currency: 'USD',
    gatewayCode: 'APPROVED',
    processor: acquirer(),
    ...more,
  };
}

function line(
  orderId: string,
  transactionId: string,
  gross: number,
  fee: number,
  more: Partial<SettledLine> = {},
): SettledLine {
  const type = gross < 0 ? 'REFUND' : 'CAPTURE';
  return {
    file: 'f.csv',
    lineNo: 2,
    batch: BATCH,
    orderId,
    transactionId,
    type,
    currency: 'USD',
    gross,
    fee,
    ...more,
  };
}

/** The gateway's events and the files' lines in; every exception out, in report order. */
function reconcile(events: StoredEvent[], lines: SettledLine[]): ReconcileException[] {
  const work = new ReconcileWorkspace();
  try {
    work.addEvents(events);
    work.addLines(lines);
    const found = [...work.linesWithTransactions()].flatMap(exceptionsOf);
    return [...found, ...[...work.unsettled()].map(notSettled)];
  } finally {
    work.close();
  }
}

/** An order authorised on a CREDIT card and captured (fee 1.5 % + 0.10: 60.00 → 1.00). */
const captured = (merchant: string, order: string, more: object = {}) => [
  event(
    merchant,
    order,
    'AuthorizationProcessed',
    tx('auth', 'AUTHORIZATION', 100_000, { sourceOfFunds: card('CREDIT') }),
  ),
  event(merchant, order, 'CaptureProcessed', tx('cap', 'CAPTURE', 60_000, more)),
];

describe('reconciliation: settlement lines against the gateway events', () => {
  it('a capture settled for its amount with the contract fee (the card of the order) matches', () => {
    expect(reconcile(captured('M', 'o1'), [line('o1', 'cap', 60_000, 1_000)])).toEqual([]);
  });

  it('a refund settles negative, without a fee; a DEBIT payment with its own card', () => {
    const events = [
      ...captured('M', 'o1'),
      event('M', 'o1', 'RefundProcessed', tx('ref', 'REFUND', 10_000)),
      event(
        'M',
        'o2',
        'PaymentProcessed',
        tx('pay', 'PAYMENT', 20_000, { sourceOfFunds: card('DEBIT') }),
      ),
    ];
    const lines = [
      line('o1', 'cap', 60_000, 1_000),
      line('o1', 'ref', -10_000, 0),
      line('o2', 'pay', 20_000, 150, { type: 'PAYMENT' }),
    ];
    expect(reconcile(events, lines)).toEqual([]);
  });

  it('finds each kind, with order and transaction ids', () => {
    const events = [
      ...captured('M', 'missing'),
      ...captured('M', 'short'),
      ...captured('M', 'twice'),
      ...captured('M', 'fee'),
      ...captured('M', 'eur'),
    ];
    const lines = [
      line('short', 'cap', 59_990, 1_000),
      line('twice', 'cap', 60_000, 1_000),
      line('twice', 'cap', 60_000, 1_000, { lineNo: 9 }),
      line('fee', 'cap', 60_000, 1_100),
      line('eur', 'cap', 60_000, 1_000, { currency: 'EUR' }),
      line('nobody', 'cap', 5_000, 0),
    ];
    expect(
      reconcile(events, lines).map((e) => [e.kind, e.merchantId, e.orderId, e.transactionId]),
    ).toEqual([
      ['AMOUNT_DIFFERS', 'M', 'short', 'cap'],
      ['SETTLED_TWICE', 'M', 'twice', 'cap'],
      ['FEE_DIFFERS', 'M', 'fee', 'cap'],
      ['CURRENCY_DIFFERS', 'M', 'eur', 'cap'],
      ['UNKNOWN_TO_GATEWAY', undefined, 'nobody', 'cap'],
      ['NOT_SETTLED', 'M', 'missing', 'cap'],
    ]);
  });

  it('a short settlement differs in amount only: its fee is the contract on what settled', () => {
    const [found] = reconcile(captured('M', 'o1'), [line('o1', 'cap', 59_990, 1_000)]);
    expect(found).toMatchObject({
      kind: 'AMOUNT_DIFFERS',
      detail: "settled 59.99, the gateway's 60.00 USD",
      at: 'f.csv:2',
    });
  });

  it('a settled transaction the gateway voided, declined or never approved is not one it knows', () => {
    const events = [
      ...captured('M', 'voided'),
      event(
        'M',
        'voided',
        'VoidProcessed',
        tx('v', 'VOID_CAPTURE', 60_000, { targetTransactionId: 'cap' }),
      ),
      ...captured('M', 'declined', { gatewayCode: 'DECLINED' }),
    ];
    const lines = [line('voided', 'cap', 60_000, 1_000), line('declined', 'cap', 60_000, 1_000)];
    expect(reconcile(events, lines).map((e) => [e.kind, e.orderId, e.detail])).toEqual([
      ['UNKNOWN_TO_GATEWAY', 'voided', 'CAPTURE 60.00 USD: the gateway has it voided'],
      ['UNKNOWN_TO_GATEWAY', 'declined', 'CAPTURE 60.00 USD: the gateway has it not approved'],
    ]);
  });

  it('an UNKNOWN outcome learnt approved is settled like any; one still UNKNOWN is not expected', () => {
    const events = [
      event(
        'M',
        'learnt',
        'PaymentProcessed',
        tx('pay', 'PAYMENT', 20_000, { gatewayCode: 'UNKNOWN', sourceOfFunds: card('CHARGE') }),
      ),
      event('M', 'learnt', 'TransactionOutcomeLearned', {
        transactionId: 'pay',
        gatewayCode: 'APPROVED',
        processor: acquirer(),
      }),
      event(
        'M',
        'open',
        'PaymentProcessed',
        tx('pay', 'PAYMENT', 20_000, { gatewayCode: 'UNKNOWN' }),
      ),
      ...captured('M', 'o1'),
    ];
    expect(
      reconcile(events, [
        line('learnt', 'pay', 20_000, 500, { type: 'PAYMENT' }),
        line('o1', 'cap', 60_000, 1_000),
      ]),
    ).toEqual([]);
  });

  it('expects only the batches and merchants the files settle: another day or merchant is not missing', () => {
    const events = [
      ...captured('M', 'o1'),
      ...captured('M', 'tomorrow', { processor: acquirer(BATCH + 1) }),
      ...captured('OTHER', 'o9'),
    ];
    expect(reconcile(events, [line('o1', 'cap', 60_000, 1_000)])).toEqual([]);
  });

  it('a transaction recorded after its batch closed (by log position, whatever its time) is said to be', () => {
    const events = [...captured('M', 'o1'), ...captured('M', 'early'), ...captured('M', 'late')];
    const work = new ReconcileWorkspace();
    try {
      work.addEvents(events);
      work.addLines([line('o1', 'cap', 60_000, 1_000)]);
      // The batch closed as of the 'early' order's capture: the 'late' one came after.
      const closedAsOf = Number(events[3].position);
      expect([...work.unsettled()].map((tx) => notSettled(tx, closedAsOf).detail)).toEqual([
        'CAPTURE 60.00 USD of batch 20261126: in no file',
        `CAPTURE 60.00 USD of batch 20261126: recorded after the batch closed (position ${closedAsOf + 2}, the batch's is ${closedAsOf})`,
      ]);
    } finally {
      work.close();
    }
  });

  it("two merchants' order ids alike: the line is the one of its batch", () => {
    const events = [
      ...captured('A', 'o1', { processor: acquirer(BATCH - 1) }),
      ...captured('B', 'o1'),
    ];
    const [found] = reconcile(events, [line('o1', 'cap', 59_000, 1_000)]);
    expect(found).toMatchObject({ kind: 'AMOUNT_DIFFERS', merchantId: 'B' });
  });
});
