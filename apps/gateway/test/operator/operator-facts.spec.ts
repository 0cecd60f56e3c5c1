import {
  decideAcquirerFact,
  evolveAll,
  initialState,
  OrderRejection,
  type AcquirerFact,
  type OrderEvent,
  type OrderState,
} from '@gateway/domain';
import { operatorChargeback, operatorDispute } from '../../src/operator/operator-facts';
import {
  authorized,
  captured,
  created,
  paid,
  refunded,
  voided,
} from '../../../../libs/domain/test/order.fixtures';

const NOW = '2026-11-23T09:00:00.000Z';

type Placed = Extract<OrderState, { kind: 'Order' }>;

function placed(state: OrderState): Placed {
  if (state.kind !== 'Order') throw new Error('no order');
  return state;
}

const orderOf = (events: readonly OrderEvent[]) => placed(evolveAll(initialState(), events));

/** The fact through the decider and the fold, as the recorder does: the order after it. */
function recordedOn(order: Placed, fact: AcquirerFact | OrderRejection): Placed {
  if (fact instanceof OrderRejection) throw fact;
  const decision = decideAcquirerFact(fact, order);
  if (decision.kind !== 'record') throw new Error(`not recorded: ${JSON.stringify(decision)}`);
  return placed(evolveAll(order, decision.events));
}

describe("an operator's dispute and chargeback", () => {
  const twoCaptures = () =>
    orderOf([created(), authorized('a', 100_000), captured('c1', 30_000), captured('c2', 50_000)]);

  it('disputes all the latest capture has left, by default', () => {
    expect(operatorDispute(twoCaptures(), undefined, NOW)).toEqual({
      type: 'OPEN_DISPUTE',
      merchantId: 'TESTM',
      orderId: 'o-1',
      now: NOW,
      disputeId: 'ops-dispute-1',
      targetTransactionId: 'c2',
      amount: 50_000,
      currency: 'USD',
    });
  });

  it('leaves out what is refunded or already disputed, and names each dispute anew', () => {
    let order = recordedOn(twoCaptures(), operatorDispute(twoCaptures(), 40_000, NOW));
    expect(order.status).toBe('DISPUTED');
    // c2 has 10 left undisputed: 20 goes to c1, which has room for it.
    const second = operatorDispute(order, 20_000, NOW) as AcquirerFact;
    expect(second).toMatchObject({ disputeId: 'ops-dispute-2', targetTransactionId: 'c1' });
    order = recordedOn(order, second);
    expect(operatorDispute(order, undefined, NOW)).toMatchObject({
      targetTransactionId: 'c2',
      amount: 10_000,
    });
    const refundedOrder = orderOf([created(), paid('p', 80_000), refunded('r', 80_000, 'p')]);
    expect(operatorDispute(refundedOrder, undefined, NOW)).toMatchObject({
      field: 'orderId',
      explanation: "Nothing of the 80 USD captured on order 'o-1' is left to be disputed",
    });
  });

  it('charges the open dispute back, of its amount, then what is left without one', () => {
    const disputed = recordedOn(twoCaptures(), operatorDispute(twoCaptures(), 40_000, NOW));
    const ending = operatorChargeback(disputed, undefined, NOW);
    expect(ending).toEqual({
      type: 'PROCESS_CHARGEBACK',
      merchantId: 'TESTM',
      orderId: 'o-1',
      now: NOW,
      transactionId: 'ops-chargeback-1',
      targetTransactionId: 'c2',
      amount: 40_000,
      currency: 'USD',
      disputeId: 'ops-dispute-1',
    });
    const charged = recordedOn(disputed, ending);
    expect(charged.status).toBe('CHARGEBACK_PROCESSED');
    expect(operatorChargeback(charged, undefined, NOW)).toEqual({
      type: 'PROCESS_CHARGEBACK',
      merchantId: 'TESTM',
      orderId: 'o-1',
      now: NOW,
      transactionId: 'ops-chargeback-2',
      targetTransactionId: 'c2',
      amount: 10_000,
      currency: 'USD',
    });
  });

  it('refuses when nothing was captured, or nothing is left, naming the order', () => {
    const authorizedOnly = orderOf([created(), authorized('a', 100_000)]);
    const nothing = operatorDispute(authorizedOnly, undefined, NOW) as OrderRejection;
    expect(nothing).toMatchObject({
      field: 'orderId',
      explanation: "Order 'o-1' has nothing captured that could be disputed",
    });
    const voidedCapture = orderOf([
      created(),
      authorized('a', 100_000),
      captured('c', 30_000),
      voided('v', 'VOID_CAPTURE', 30_000, 'c'),
    ]);
    expect(operatorChargeback(voidedCapture, 1_000, NOW)).toBeInstanceOf(OrderRejection);
    let all = recordedOn(twoCaptures(), operatorChargeback(twoCaptures(), undefined, NOW));
    all = recordedOn(all, operatorChargeback(all, undefined, NOW));
    expect(operatorChargeback(all, undefined, NOW)).toMatchObject({
      field: 'orderId',
      explanation: "Nothing of the 80 USD captured on order 'o-1' is left to be charged back",
    });
  });

  it('leaves an amount above what is left to the decider, which refuses it', () => {
    const order = twoCaptures();
    const fact = operatorChargeback(order, 60_000, NOW) as AcquirerFact;
    expect(fact).toMatchObject({ targetTransactionId: 'c2', amount: 60_000 });
    expect(decideAcquirerFact(fact, order)).toMatchObject({
      kind: 'refused',
      rejection: { field: 'transaction.amount' },
    });
  });
});
