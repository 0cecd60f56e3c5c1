import { ApiError } from '@gateway/contract';
import { findTransaction, transactionCountOf, type OrderState } from '@gateway/domain';

/**
 * The most transactions one order may hold (GATEWAY_MAX_TRANSACTIONS_PER_ORDER). Reading or
 * changing an order costs in proportion to its transactions, so an unbounded order would let
 * one merchant buy event-loop time from every other. Retries and later steps of a transaction the
 * order already holds are never refused: only a new transaction id is.
 */
export class OrderSizeLimit {
  constructor(readonly maxTransactions: number) {}

  /** INVALID_REQUEST on `order.id` for a new transaction on a full order; nothing is recorded. */
  refuseIfFull(state: OrderState, orderId: string, transactionId: string): void {
    if (state.kind !== 'Order' || transactionCountOf(state) < this.maxTransactions) return;
    if (findTransaction(state, transactionId)) return;
    throw ApiError.invalid(
      `Value '${orderId}' is invalid. The order holds ${transactionCountOf(state)} transactions, ` +
        `and an order may hold at most ${this.maxTransactions}: use a new order`,
      'order.id',
    );
  }
}
