import { toDecimal, type Thousandths } from '../../money';
import type { OrderRequest } from '../order.commands';
import { OrderRejection } from '../order.rejection';
import { acceptsNewPayment } from '../order.rules';
import { unknownOutcomesOf, type OrderState } from '../order.state';

/** AUTHORIZE, PAY, VERIFY and the initiations need an order that takes a new payment. */
export function openOrderRejection(
  request: OrderRequest,
  state: OrderState,
): OrderRejection | undefined {
  if (state.kind !== 'Order') return undefined;
  if (!acceptsNewPayment(state))
    return new OrderRejection(
      'apiOperation',
      `Order '${request.orderId}' already has status ${state.status}; use a new order id`,
    );
  // Decided here: the acquirer may still approve it (issue 18), and then both would hold funds.
  return unknownOutcomesOf(state).count > 0
    ? new OrderRejection(
        'apiOperation',
        `Order '${request.orderId}' has a transaction whose outcome is UNKNOWN; use a new order id`,
      )
    : undefined;
}

export function noSuchOrder(request: OrderRequest): OrderRejection {
  return new OrderRejection('order.id', `Order '${request.orderId}' does not exist`);
}

/** transaction.amount must be positive and at most what the order (or transaction) has left. */
export function exceeds(
  amount: Thousandths,
  available: Thousandths,
  what: string,
): OrderRejection | undefined {
  if (amount <= 0) {
    return new OrderRejection(
      'transaction.amount',
      `Value '${toDecimal(amount)}' is invalid. Amount must be greater than zero`,
    );
  }
  if (amount > available) {
    return new OrderRejection(
      'transaction.amount',
      `Value '${toDecimal(amount)}' is invalid. Amount exceeds the ${toDecimal(available)} ${what} on the order`,
    );
  }
  return undefined;
}
