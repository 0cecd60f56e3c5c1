import { ApiError } from '@gateway/contract';
import { decide, evolveAll, initialState, type OrderState } from '@gateway/domain';
import { authorize, capture } from '../../../../libs/domain/test/order.fixtures';
import { OrderSizeLimit } from '../../src/order/order-size-limit';

function orderOf(transactions: number): OrderState {
  let state = evolveAll(
    initialState(),
    decide(authorize({ transactionId: 't0', amount: 100_000 }), initialState()),
  );
  for (let i = 1; i < transactions; i++)
    state = evolveAll(state, decide(capture({ transactionId: `t${i}`, amount: 10 }), state));
  return state;
}

describe('OrderSizeLimit', () => {
  const limit = new OrderSizeLimit(3);

  it('refuses a new transaction on a full order with INVALID_REQUEST on order.id', () => {
    let error: unknown;
    try {
      limit.refuseIfFull(orderOf(3), 'o-1', 'new');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).httpStatus).toBe(400);
    expect((error as ApiError).body.error).toEqual({
      cause: 'INVALID_REQUEST',
      field: 'order.id',
      validationType: 'INVALID',
      explanation:
        "Value 'o-1' is invalid. The order holds 3 transactions, and an order may hold at most 3: use a new order",
    });
  });

  it('lets through a transaction the full order already holds, and any below the limit', () => {
    expect(() => limit.refuseIfFull(orderOf(3), 'o-1', 't2')).not.toThrow();
    expect(() => limit.refuseIfFull(orderOf(2), 'o-1', 'new')).not.toThrow();
    expect(() => limit.refuseIfFull(initialState(), 'o-1', 'new')).not.toThrow();
  });
});
