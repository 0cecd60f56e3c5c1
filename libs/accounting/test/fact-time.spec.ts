import { factTimeOf } from '@gateway/accounting';
import type { OrderEvent } from '@gateway/domain';
import { at, authorize, created, transaction } from './postings.fixtures';

/** Each kind of event, with the time the gateway's clock gave it (the fixtures' default is at(1)). */
const DATED: readonly [string, OrderEvent, string][] = [
  ['an order: its creationTime', created, at(0)],
  ['a transaction: its timeOfRecord', authorize('a1', 1_000, { timeOfRecord: at(3) }), at(3)],
  [
    'a chargeback: its timeOfRecord',
    transaction('ChargebackProcessed', 'CHARGEBACK', 'cb1', 1_000, { timeOfRecord: at(4) }),
    at(4),
  ],
  [
    'a learnt outcome: when it was learnt, not the transaction it revises',
    {
      type: 'TransactionOutcomeLearned',
      data: { transactionId: 'a1', time: at(5), gatewayCode: 'APPROVED' },
    },
    at(5),
  ],
  [
    "a payer's step: the revision's time",
    {
      type: 'BrowserPaymentConfirmed',
      data: { transactionId: 'p1', time: at(6), gatewayCode: 'APPROVED' },
    },
    at(6),
  ],
  [
    'a dispute: when the gateway learnt of it',
    {
      type: 'DisputeOpened',
      data: { disputeId: 'd1', targetTransactionId: 'c1', amount: 1, currency: 'USD', time: at(7) },
    },
    at(7),
  ],
  [
    "a settlement: its batch's close",
    {
      type: 'TransactionsSettled',
      data: { batch: 20261126, settlementDate: '2026-11-26', time: at(8), transactions: [] },
    },
    at(8),
  ],
];

describe('factTimeOf: the time the books go by', () => {
  it.each(DATED)('%s', (_, event, time) => {
    expect(factTimeOf(event)).toBe(time);
  });
});
