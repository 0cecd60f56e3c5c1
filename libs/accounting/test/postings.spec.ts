import { imbalanceOf } from '@gateway/accounting';
import type { OrderEvent } from '@gateway/domain';
import {
  at,
  authorize,
  capture,
  created,
  linesOf,
  pay,
  postingsAfter,
  refund,
  transaction,
} from './postings.fixtures';

/** One rule per row of docs/ledger.md's "Posting rules": given the order's events, when one more, then its entries. */
interface Case {
  readonly rule: string;
  readonly given: readonly OrderEvent[];
  readonly when: OrderEvent;
  readonly then: readonly (readonly string[])[];
}

const authorized = [created, authorize('a1', 100_000)];
const captured = [...authorized, capture('c1', 60_000)];
const unknownPayment = [created, pay('p1', 50_000, { gatewayCode: 'UNKNOWN' })];
const learned = (gatewayCode: 'APPROVED' | 'DECLINED'): OrderEvent => ({
  type: 'TransactionOutcomeLearned',
  data: { transactionId: 'p1', time: at(5), gatewayCode, requestHash: 'hash-p1' },
});

const CASES: readonly Case[] = [
  { rule: 'order created: nothing', given: [], when: created, then: [] },
  {
    rule: 'authorization approved: a pending hold',
    given: [created],
    when: authorize('a1', 100_000),
    then: [['payer_holds 100000', 'holds_pending -100000']],
  },
  {
    rule: 'authorization declined: nothing',
    given: [created],
    when: authorize('a1', 100_000, { gatewayCode: 'DECLINED' }),
    then: [],
  },
  {
    rule: 'authorization UNKNOWN: held apart',
    given: [created],
    when: authorize('a1', 100_000, { gatewayCode: 'UNKNOWN' }),
    then: [['unknown_held 100000', 'unknown_pending -100000']],
  },
  {
    rule: 'partial capture: the hold released by its amount, the capture posted',
    given: authorized,
    when: capture('c1', 60_000),
    then: [
      [
        'payer_holds -60000',
        'holds_pending 60000',
        'acquirer_receivable 60000',
        'merchant_payable -60000',
      ],
    ],
  },
  {
    rule: 'void of the authorization: the rest of the hold released',
    given: captured,
    when: transaction('VoidProcessed', 'VOID_AUTHORIZATION', 'v1', 100_000, {
      targetTransactionId: 'a1',
    }),
    then: [['payer_holds -40000', 'holds_pending 40000']],
  },
  {
    rule: 'authorization update: the hold follows the new total',
    given: authorized,
    when: transaction('AuthorizationUpdateProcessed', 'AUTHORIZATION_UPDATE', 'u1', 150_000),
    then: [['payer_holds 50000', 'holds_pending -50000']],
  },
  {
    rule: 'payment: captured at once, no hold',
    given: [created],
    when: pay('p1', 50_000),
    then: [['acquirer_receivable 50000', 'merchant_payable -50000']],
  },
  {
    rule: 'refund: the capture given back',
    given: captured,
    when: refund('r1', 10_000),
    then: [['merchant_payable 10000', 'acquirer_receivable -10000']],
  },
  {
    rule: 'void of a capture: the capture undone, the hold back',
    given: captured,
    when: transaction('VoidProcessed', 'VOID_CAPTURE', 'v1', 60_000, { targetTransactionId: 'c1' }),
    then: [
      [
        'payer_holds 60000',
        'holds_pending -60000',
        'acquirer_receivable -60000',
        'merchant_payable 60000',
      ],
    ],
  },
  {
    rule: 'UNKNOWN payment learnt APPROVED: released, and captured',
    given: unknownPayment,
    when: learned('APPROVED'),
    then: [
      [
        'unknown_held -50000',
        'unknown_pending 50000',
        'acquirer_receivable 50000',
        'merchant_payable -50000',
      ],
    ],
  },
  {
    rule: 'UNKNOWN payment learnt DECLINED: released only',
    given: unknownPayment,
    when: learned('DECLINED'),
    then: [['unknown_held -50000', 'unknown_pending 50000']],
  },
  {
    rule: 'dispute opened: nothing moves until the chargeback',
    given: captured,
    when: {
      type: 'DisputeOpened',
      data: {
        disputeId: 'd1',
        targetTransactionId: 'c1',
        amount: 20_000,
        currency: 'USD',
        time: at(6),
      },
    },
    then: [],
  },
  {
    rule: 'chargeback: the acquirer takes it back from the receivable',
    given: captured,
    when: transaction('ChargebackProcessed', 'CHARGEBACK', 'cb1', 20_000, {
      targetTransactionId: 'c1',
    }),
    then: [['chargebacks 20000', 'acquirer_receivable -20000']],
  },
  {
    rule: 'settlement: cash less the fee, the fee, per transaction; a refund pays out',
    given: [...captured, refund('r1', 10_000)],
    when: {
      type: 'TransactionsSettled',
      data: {
        batch: 20261126,
        settlementDate: '2026-11-26',
        time: at(8),
        transactions: [
          { transactionId: 'c1', settledAmount: 59_990, fee: 1_000 },
          { transactionId: 'r1', settledAmount: 10_000, fee: 0 },
        ],
      },
    },
    then: [
      [
        'settled_cash 58990',
        'acquirer_receivable -58990',
        'fees 1000',
        'acquirer_receivable -1000',
      ],
      ['settled_cash -10000', 'acquirer_receivable 10000'],
    ],
  },
  {
    rule: 'authorization reversed (audit only): nothing',
    given: [created, authorize('a1', 100_000, { gatewayCode: 'TIMED_OUT' })],
    when: {
      type: 'AuthorizationReversed',
      data: { transactionId: 'a1', reason: 'TIMED_OUT', time: at(2) },
    },
    then: [],
  },
];

describe('posting rules (docs/ledger.md)', () => {
  it.each(CASES)('$rule', ({ given, when, then }) => {
    const entries = postingsAfter(given, when);
    expect(linesOf(entries)).toEqual(then);
    for (const entry of entries) expect(imbalanceOf(entry.lines)).toBe(0);
  });

  it("names each entry by the event position and its index, with the order and transaction, dated by the fact's time", () => {
    const late = { targetTransactionId: 'c1', timeOfRecord: at(9) };
    const entries = postingsAfter(
      captured,
      transaction('RefundProcessed', 'REFUND', 'r1', 10_000, late),
    );
    expect(entries.map(({ lines: _l, ...entry }) => entry)).toEqual([
      {
        entryId: '7/0',
        time: at(9),
        merchantId: 'M1',
        currency: 'USD',
        orderId: 'o-1',
        transactionId: 'r1',
        eventType: 'RefundProcessed',
      },
    ]);
  });
});
