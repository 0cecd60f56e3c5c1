import type { OrderEvent } from '@gateway/domain';
import {
  chargeback,
  chargedBack,
  dispute,
  disputeOpened,
  givenOrder,
  inquired,
  inquiry,
  learned,
  settle,
  settled,
  unknownAuthorization,
} from './acquirer-facts.fixtures';
import { given } from './decider-spec';
import {
  at,
  authorize,
  authorized,
  capture,
  captured,
  created,
  declinedAuthorization,
  paid,
  recorded,
  refund,
  refunded,
  T0,
  voided,
  voidTx,
} from './order.fixtures';

const unknownOrder = [created(), unknownAuthorization('t1', 10_000)];
const capturedOrder = [created(), authorized('a1', 10_000), captured('c1', 10_000)];
const reversedUnknown: OrderEvent = {
  type: 'AuthorizationReversed',
  data: { transactionId: 't1', reason: 'UNKNOWN_OUTCOME', time: at(4) },
};

/** Behaviour notes, "What the acquirer tells the gateway later", UNKNOWN outcomes. */
describe('RECORD_INQUIRY', () => {
  it('records an answer still UNKNOWN, and the order stays as it was', () => {
    const order = givenOrder(unknownOrder)
      .when(inquiry(1, 'UNKNOWN'))
      .thenRecords([inquired(1, 'UNKNOWN')]);
    expect(order).toMatchObject({ status: 'FAILED', lastUpdatedTime: T0 });
    expect(order.transactions[0]).toMatchObject({ gatewayCode: 'UNKNOWN', inquiries: 1 });
  });

  it('an APPROVED outcome revises the transaction: money moves, the UNKNOWN answer stays in the history', () => {
    const order = givenOrder(unknownOrder)
      .when(inquiry(2, 'APPROVED'))
      .thenRecords([inquired(2, 'APPROVED'), learned(2, 'APPROVED')]);
    expect(order).toMatchObject({
      status: 'AUTHORIZED',
      amount: 10_000,
      totals: { authorized: 10_000, captured: 0, refunded: 0 },
      lastUpdatedTime: at(2),
    });
    const [tx] = order.transactions;
    expect(tx).toMatchObject({ gatewayCode: 'APPROVED', timeOfRecord: at(2) });
    expect(tx.orderAfter.status).toBe('AUTHORIZED');
    // The merchant's retry of the AUTHORIZE finds its first answer (the oldest version with its hash).
    expect(tx.earlier?.map((v) => [v.gatewayCode, v.requestHash, v.orderAfter.status])).toEqual([
      ['UNKNOWN', 'h-t1', 'FAILED'],
    ]);
  });

  it('a DECLINED outcome: the order stays FAILED, nothing moves', () => {
    const order = givenOrder(unknownOrder)
      .when(inquiry(1, 'DECLINED'))
      .thenRecords([inquired(1, 'DECLINED'), learned(1, 'DECLINED')]);
    expect(order).toMatchObject({ status: 'FAILED', totals: { authorized: 0 } });
  });

  it('the last inquiry still UNKNOWN declines and reverses the transaction', () => {
    const order = givenOrder(unknownOrder)
      .when(inquiry(4, 'UNKNOWN', { last: true }))
      .thenRecords([inquired(4, 'UNKNOWN'), learned(4, 'DECLINED'), reversedUnknown]);
    expect(order.transactions[0]).toMatchObject({ gatewayCode: 'DECLINED', reversedAt: at(4) });
  });

  it('an UNKNOWN payment learnt APPROVED is captured', () => {
    const unknownPayment: OrderEvent = {
      type: 'PaymentProcessed',
      data: recorded('PAYMENT', 't1', 5_000, { gatewayCode: 'UNKNOWN' }),
    };
    const order = givenOrder([created(), unknownPayment])
      .when(inquiry(1, 'APPROVED'))
      .thenRecords([inquired(1, 'APPROVED'), learned(1, 'APPROVED')]);
    expect(order).toMatchObject({
      status: 'CAPTURED',
      totals: { authorized: 5_000, captured: 5_000 },
    });
  });

  it('an UNKNOWN verification is declined without a reversal: it held no funds', () => {
    const unknownVerification: OrderEvent = {
      type: 'VerificationProcessed',
      data: recorded('VERIFICATION', 't1', 0, { gatewayCode: 'UNKNOWN' }),
    };
    givenOrder([created(), unknownVerification])
      .when(inquiry(4, 'UNKNOWN', { last: true }))
      .thenRecords([inquired(4, 'UNKNOWN'), learned(4, 'DECLINED')]);
  });

  describe('records nothing new for', () => {
    it('an attempt already recorded (a run killed after recording it, run again)', () =>
      givenOrder([...unknownOrder, inquired(1, 'UNKNOWN')])
        .when(inquiry(1, 'UNKNOWN'))
        .thenAlreadyRecorded());

    it('an inquiry once the outcome is known (another node’s, a late one)', () =>
      givenOrder([...unknownOrder, inquired(2, 'APPROVED'), learned(2, 'APPROVED')])
        .when(inquiry(3, 'APPROVED'))
        .thenAlreadyRecorded());
  });

  describe('refuses', () => {
    it('a transaction that never was UNKNOWN', () =>
      givenOrder([created(), authorized('t1', 10_000)])
        .when(inquiry(1, 'APPROVED'))
        .thenRefuses('transaction.id', /no UNKNOWN outcome/));

    it('a transaction the order does not hold', () =>
      givenOrder(unknownOrder)
        .when(inquiry(1, 'APPROVED', { transactionId: 't9' }))
        .thenRefuses('transaction.id'));

    it('an order that does not exist', () =>
      givenOrder([])
        .when(inquiry(1, 'APPROVED'))
        .thenRefuses('order.id', /does not exist/));

    it('an attempt below 1', () =>
      givenOrder(unknownOrder).when(inquiry(0, 'APPROVED')).thenRefuses('attempt'));
  });
});

/** Behaviour notes, "Disputes and chargebacks". */
describe('OPEN_DISPUTE', () => {
  it('makes the order DISPUTED; the disputed capture shows it, its first answer is kept', () => {
    const order = givenOrder(capturedOrder)
      .when(dispute(4_000))
      .thenRecords([disputeOpened(4_000)]);
    expect(order).toMatchObject({ status: 'DISPUTED', lastUpdatedTime: at(30) });
    const capture1 = order.transactions[1];
    expect(capture1.disputes).toEqual([{ disputeId: 'd1', amount: 4_000, openedAt: at(30) }]);
    expect(capture1.orderAfter).toMatchObject({ status: 'DISPUTED', lastUpdatedTime: at(30) });
    expect(capture1.earlier?.map((v) => v.orderAfter.status)).toEqual(['CAPTURED']);
  });

  it('a dispute on a payment', () => {
    givenOrder([created(), paid('p1', 5_000)])
      .when(dispute(5_000, { targetTransactionId: 'p1' }))
      .thenRecords([disputeOpened(5_000, 'd1', 'p1')]);
  });

  it('records nothing new for the same dispute again', () =>
    givenOrder([...capturedOrder, disputeOpened(4_000)])
      .when(dispute(4_000))
      .thenAlreadyRecorded());

  describe('refuses', () => {
    it('an order with nothing captured', () =>
      givenOrder([created(), authorized('a1', 10_000)])
        .when(dispute(1_000))
        .thenRefuses('order.id', /nothing captured/));

    it('a target that is no capture or payment', () =>
      givenOrder(capturedOrder)
        .when(dispute(1_000, { targetTransactionId: 'a1' }))
        .thenRefuses('transaction.targetTransactionId'));

    it('a voided capture', () =>
      givenOrder([
        created(),
        authorized('a1', 10_000),
        captured('c1', 4_000),
        captured('c2', 1_000),
        voided('v1', 'VOID_CAPTURE', 4_000, 'c1'),
      ])
        .when(dispute(1_000))
        .thenRefuses('transaction.targetTransactionId'));

    it('more than the capture has left net of refunds and open disputes', () =>
      givenOrder([...capturedOrder, refunded('r1', 3_000, 'c1'), disputeOpened(4_000)])
        .when(dispute(3_001, { disputeId: 'd2' }))
        .thenRefuses(
          'transaction.amount',
          /exceeds the 3 captured by transaction 'c1' and not yet refunded, charged back or disputed/,
        ));

    it('an amount of zero', () =>
      givenOrder(capturedOrder).when(dispute(0)).thenRefuses('transaction.amount'));

    it('another currency than the order’s', () =>
      givenOrder(capturedOrder)
        .when(dispute(1_000, { currency: 'EUR' }))
        .thenRefuses('transaction.currency'));
  });
});

describe('PROCESS_CHARGEBACK', () => {
  it('a CHARGEBACK transaction ends the dispute: CHARGEBACK_PROCESSED, totalChargeback', () => {
    const order = givenOrder([...capturedOrder, disputeOpened(4_000)])
      .when(chargeback(4_000))
      .thenRecords([chargedBack(4_000, 'cb-d1', 'd1')]);
    expect(order).toMatchObject({
      status: 'CHARGEBACK_PROCESSED',
      totals: { authorized: 10_000, captured: 10_000, refunded: 0, chargedBack: 4_000 },
      lastUpdatedTime: at(40),
    });
    expect(order.transactions[1]).toMatchObject({
      chargedBackAmount: 4_000,
      disputes: [{ disputeId: 'd1', chargebackTransactionId: 'cb-d1' }],
    });
    expect(order.transactions[2]).toMatchObject({
      type: 'CHARGEBACK',
      orderAfter: { status: 'CHARGEBACK_PROCESSED' },
    });
  });

  it('without a dispute (an operator’s chargeback)', () => {
    givenOrder(capturedOrder)
      .when(chargeback(10_000, { disputeId: undefined }))
      .thenRecords([chargedBack(10_000)]);
  });

  it('another dispute still open keeps the order DISPUTED', () => {
    const order = givenOrder([...capturedOrder, disputeOpened(4_000), disputeOpened(1_000, 'd2')])
      .when(chargeback(4_000))
      .thenRecords([chargedBack(4_000, 'cb-d1', 'd1')]);
    expect(order.status).toBe('DISPUTED');
  });

  it('records nothing new for the same chargeback again', () =>
    givenOrder([...capturedOrder, disputeOpened(4_000), chargedBack(4_000, 'cb-d1', 'd1')])
      .when(chargeback(4_000))
      .thenAlreadyRecorded());

  describe('refuses', () => {
    it('more than captured net of refunds and chargebacks', () =>
      givenOrder([...capturedOrder, refunded('r1', 3_000, 'c1'), chargedBack(5_000, 'cb-0')])
        .when(chargeback(2_001, { disputeId: undefined }))
        .thenRefuses(
          'transaction.amount',
          /exceeds the 2 captured by transaction 'c1' and not yet refunded or charged back/,
        ));

    it('an order with nothing captured', () =>
      givenOrder([created(), authorized('a1', 10_000)])
        .when(chargeback(1_000, { disputeId: undefined }))
        .thenRefuses('order.id', /nothing captured/));

    it('a dispute already ended by another chargeback', () =>
      givenOrder([...capturedOrder, disputeOpened(4_000), chargedBack(4_000, 'cb-d1', 'd1')])
        .when(chargeback(1_000, { transactionId: 'cb-x' }))
        .thenRefuses('disputeId', /already ended by chargeback 'cb-d1'/));

    it('a dispute the transaction does not have', () =>
      givenOrder(capturedOrder).when(chargeback(1_000)).thenRefuses('disputeId'));

    it('an id another transaction of the order has', () =>
      givenOrder(capturedOrder)
        .when(chargeback(1_000, { transactionId: 'a1', disputeId: undefined }))
        .thenRefuses('transaction.id'));
  });
});

/** Decided here: what a merchant may still do once the acquirer has spoken (docs/acquirer-facts.md). */
describe('merchant operations after the acquirer’s facts', () => {
  const disputedOrder = [...capturedOrder, disputeOpened(4_000)];

  it('a refund on a DISPUTED order: the disputed amount is held', () => {
    given(disputedOrder)
      .when(refund({ transactionId: 'r1', amount: 6_001 }))
      .thenRejects('transaction.amount');
    given(disputedOrder)
      .when(refund({ transactionId: 'r1', amount: 6_000 }))
      .then([refunded('r1', 6_000, 'c1')]);
  });

  it('no refund of money the acquirer took back', () =>
    given([...capturedOrder, chargedBack(10_000)])
      .when(refund({ transactionId: 'r1', amount: 1 }))
      .thenRejects('transaction.amount'));

  it('a disputed or charged-back capture cannot be voided', () => {
    const partly = [created(), authorized('a1', 10_000), captured('c1', 4_000)];
    given([...partly, disputeOpened(1_000)])
      .when(voidTx({ transactionId: 'v1', targetTransactionId: 'c1' }))
      .thenRejects('transaction.targetTransactionId');
    given([...partly, chargedBack(1_000)])
      .when(voidTx({ transactionId: 'v1', targetTransactionId: 'c1' }))
      .thenRejects('transaction.targetTransactionId');
  });

  it('a settled capture cannot be voided (refund it instead)', () =>
    given([...capturedOrder, settled([{ transactionId: 'c1', settledAmount: 10_000, fee: 250 }])])
      .when(voidTx({ transactionId: 'v1', targetTransactionId: 'c1' }))
      .thenRejects('transaction.targetTransactionId'));

  it('a DISPUTED order takes no new payment', () =>
    given(disputedOrder)
      .when(authorize({ transactionId: 'a2', amount: 1_000 }))
      .thenRejects('apiOperation'));

  it('no new payment while an outcome is UNKNOWN (both could hold funds); once declined, one may follow', () => {
    given(unknownOrder)
      .when(authorize({ transactionId: 'a2', amount: 1_000 }))
      .thenRejects('apiOperation');
    given([...unknownOrder, inquired(1, 'DECLINED'), learned(1, 'DECLINED')])
      .when(authorize({ transactionId: 'a2', amount: 1_000 }))
      .then([authorized('a2', 1_000)]);
  });

  it('capturing the rest of a disputed order leaves it DISPUTED', () => {
    const partly = [
      created(),
      authorized('a1', 10_000),
      captured('c1', 4_000),
      disputeOpened(4_000),
    ];
    given(partly)
      .when(capture({ transactionId: 'c2', amount: 6_000 }))
      .then([captured('c2', 6_000)]);
  });
});

describe('SETTLE_TRANSACTIONS', () => {
  const withRefund = [...capturedOrder, refunded('r1', 3_000, 'c1')];
  const lines = [
    { transactionId: 'c1', settledAmount: 10_000, fee: 250 },
    { transactionId: 'r1', settledAmount: 3_000, fee: 0 },
  ];

  it('settles captures and refunds: each shows its batch, the order does not change', () => {
    const order = givenOrder(withRefund)
      .when(settle(lines))
      .thenRecords([settled(lines)]);
    expect(order).toMatchObject({ status: 'PARTIALLY_REFUNDED', lastUpdatedTime: T0 });
    expect(order.transactions[1].settlement).toEqual({
      batch: 20261122,
      settlementDate: '2026-11-22',
      settledAmount: 10_000,
      fee: 250,
      time: at(59),
    });
    expect(order.transactions[1].earlier?.[0].settlement).toBeUndefined();
    expect(order.transactions[2].settlement?.fee).toBe(0);
  });

  it('records nothing new for the same batch again', () =>
    givenOrder([...withRefund, settled(lines)])
      .when(settle(lines))
      .thenAlreadyRecorded());

  it('records only what a run killed halfway did not', () => {
    givenOrder([...withRefund, settled(lines.slice(0, 1))])
      .when(settle(lines))
      .thenRecords([settled(lines.slice(1))]);
  });

  describe('refuses', () => {
    it('a transaction settled in another batch', () =>
      givenOrder([...withRefund, settled(lines, 20261121)])
        .when(settle(lines))
        .thenRefuses('transaction.id', /already settled in batch 20261121/));

    it.each([
      ['an authorization', 'a1', capturedOrder],
      ['a declined transaction', 'a1', [created(), declinedAuthorization('a1', 1_000)]],
      ['a transaction the order does not hold', 'x9', capturedOrder],
    ])('%s', (_name, transactionId, history) =>
      givenOrder(history)
        .when(settle([{ transactionId, settledAmount: 1_000, fee: 0 }]))
        .thenRefuses('transaction.id'),
    );

    it('nothing to settle', () =>
      givenOrder(capturedOrder).when(settle([])).thenRefuses('transactions'));
  });
});
