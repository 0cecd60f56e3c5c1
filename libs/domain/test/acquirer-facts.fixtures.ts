import {
  decideAcquirerFact,
  evolve,
  initialState,
  type AcquirerFact,
  type OpenDispute,
  type OrderEvent,
  type ProcessChargeback,
  type RecordInquiry,
  type SettleTransactions,
} from '@gateway/domain';
import { orderOf } from './decider-spec';
import { at, recorded } from './order.fixtures';

/** Facts of the acquirer and the events they should record; every value is explicit data. */
const ids = { merchantId: 'TESTM', orderId: 'o-1' };

export const inquiry = (
  attempt: number,
  answer: RecordInquiry['answer'],
  c: Partial<RecordInquiry> = {},
): RecordInquiry => ({
  ...ids,
  type: 'RECORD_INQUIRY',
  transactionId: 't1',
  attempt,
  answer,
  last: false,
  details: { inquiry: attempt },
  now: at(attempt),
  ...c,
});
export const dispute = (amount: number, c: Partial<OpenDispute> = {}): OpenDispute => ({
  ...ids,
  type: 'OPEN_DISPUTE',
  disputeId: 'd1',
  targetTransactionId: 'c1',
  amount,
  currency: 'USD',
  now: at(30),
  ...c,
});
export const chargeback = (
  amount: number,
  c: Partial<ProcessChargeback> = {},
): ProcessChargeback => ({
  ...ids,
  type: 'PROCESS_CHARGEBACK',
  transactionId: 'cb-d1',
  targetTransactionId: 'c1',
  amount,
  currency: 'USD',
  disputeId: 'd1',
  now: at(40),
  ...c,
});
export const settle = (
  transactions: SettleTransactions['transactions'],
  batch = 20261122,
): SettleTransactions => ({
  ...ids,
  type: 'SETTLE_TRANSACTIONS',
  batch,
  settlementDate: '2026-11-22',
  transactions,
  now: at(59),
});

export const unknownAuthorization = (id: string, amount: number): OrderEvent => ({
  type: 'AuthorizationProcessed',
  data: recorded('AUTHORIZATION', id, amount, { gatewayCode: 'UNKNOWN' }),
});
export const inquired = (attempt: number, answer: RecordInquiry['answer']): OrderEvent => ({
  type: 'AcquirerInquired',
  data: { transactionId: 't1', attempt, answer, time: at(attempt), details: { inquiry: attempt } },
});
export const learned = (attempt: number, gatewayCode: 'APPROVED' | 'DECLINED'): OrderEvent => ({
  type: 'TransactionOutcomeLearned',
  data: {
    transactionId: 't1',
    time: at(attempt),
    gatewayCode,
    requestHash: 'h-t1',
    processor: { acquirerCode: '00', inquiry: attempt },
  },
});
export const disputeOpened = (amount: number, disputeId = 'd1', target = 'c1'): OrderEvent => ({
  type: 'DisputeOpened',
  data: { disputeId, targetTransactionId: target, amount, currency: 'USD', time: at(30) },
});
export const chargedBack = (amount: number, id = 'cb-d1', disputeId?: string): OrderEvent => ({
  type: 'ChargebackProcessed',
  data: {
    ...recorded('CHARGEBACK', id, amount, {
      targetTransactionId: 'c1',
      processor: {},
      requestHash: '',
      timeOfRecord: at(40),
    }),
    ...(disputeId ? { disputeId } : {}),
  },
});
export const settled = (
  transactions: SettleTransactions['transactions'],
  batch = 20261122,
): OrderEvent => ({
  type: 'TransactionsSettled',
  data: { batch, settlementDate: '2026-11-22', time: at(59), transactions },
});

/** An order after `created` that meets every fact: an UNKNOWN outcome learnt, a dispute, a chargeback, a settlement. */
export const acquirerFactsHistory = (created: OrderEvent): OrderEvent[] => [
  created,
  unknownAuthorization('t1', 10_000),
  inquired(1, 'UNKNOWN'),
  inquired(2, 'APPROVED'),
  learned(2, 'APPROVED'),
  { type: 'CaptureProcessed', data: recorded('CAPTURE', 'c1', 10_000) },
  disputeOpened(4_000),
  chargedBack(4_000, 'cb-d1', 'd1'),
  settled([{ transactionId: 'c1', settledAmount: 10_000, fee: 250 }]),
];

/**
 * Data-only specs for the acquirer's facts:
 *   givenOrder([created, captured]).when(dispute(500)).thenRecords([disputeOpened(500)])
 */
export function givenOrder(history: readonly OrderEvent[]) {
  const state = history.reduce(evolve, initialState());
  return {
    when(fact: AcquirerFact) {
      const decision = decideAcquirerFact(fact, state);
      return {
        thenRecords(expected: readonly OrderEvent[]) {
          expect(decision).toEqual({ kind: 'record', events: expected });
          // What the order then is, for further assertions.
          return orderOf(expected.reduce(evolve, state));
        },
        thenAlreadyRecorded() {
          expect(decision).toEqual({ kind: 'already-recorded' });
        },
        thenRefuses(field: string, explanation?: RegExp) {
          expect(decision.kind).toBe('refused');
          if (decision.kind !== 'refused') return;
          expect(decision.rejection.field).toBe(field);
          if (explanation) expect(decision.rejection.explanation).toMatch(explanation);
        },
      };
    },
  };
}
