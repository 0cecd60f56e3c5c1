import type { Refund } from '../order.commands';
import { OrderRejection } from '../order.rejection';
import { findTransaction, type Order, type OrderState } from '../order.state';
import { isRefundable, openDisputeAmount, refundableLeft } from '../transaction-log';
import type { OpensTransaction } from './operation-decider';
import { processedRecord } from './processed';
import { exceeds } from './rejections';

function refundRejection(request: Refund, state: OrderState): OrderRejection | undefined {
  if (state.kind === 'NoOrder') {
    return request.sourceOfFunds
      ? exceeds(request.amount, Number.MAX_SAFE_INTEGER, '')
      : new OrderRejection(
          'sourceOfFunds',
          'A standalone refund (a new order) requires sourceOfFunds',
          'MISSING',
        );
  }
  if (request.sourceOfFunds) {
    return new OrderRejection(
      'sourceOfFunds',
      'sourceOfFunds must not be supplied on a refund of an existing order',
    );
  }
  if (request.targetTransactionId !== undefined) {
    const target = findTransaction(state, request.targetTransactionId);
    if (!target || !isRefundable(target)) {
      return new OrderRejection(
        'transaction.targetTransactionId',
        `Value '${request.targetTransactionId}' is invalid. It must name an approved, unvoided capture or payment of the order`,
      );
    }
    return exceeds(
      request.amount,
      refundableLeft(target),
      'captured and not yet refunded (nor charged back or disputed) by that transaction',
    );
  }
  return exceeds(
    request.amount,
    state.totals.captured - state.totals.refunded - heldByAcquirer(state),
    'captured and not yet refunded (nor charged back or disputed)',
  );
}

/** What the acquirer took back or holds in an open dispute: not the merchant's to refund. */
function heldByAcquirer(order: Order): number {
  const disputed =
    order.status === 'DISPUTED'
      ? order.transactions.reduce((sum, t) => sum + openDisputeAmount(t), 0)
      : 0;
  return (order.totals.chargedBack ?? 0) + disputed;
}

/** Refunds without a named target go against the latest capture or payment that can take them. */
function refundTarget(request: Refund, order: Order): string | undefined {
  if (request.targetTransactionId !== undefined) return request.targetTransactionId;
  // The latest one with enough left, else the latest with anything left: evolve spreads the rest.
  const candidates = order.transactions.filter(isRefundable).reverse();
  const left = refundableLeft;
  return (candidates.find((t) => left(t) >= request.amount) ?? candidates.find((t) => left(t) > 0))
    ?.id;
}

/** REFUND: captured money back, or a standalone refund to a card on a new order. */
export const refundDecider: OpensTransaction<'REFUND'> = {
  opens: 'transaction',
  currencyField: 'transaction.currency',
  rejection: refundRejection,
  event(command, state, common) {
    const targetTransactionId = state.kind === 'Order' ? refundTarget(command, state) : undefined;
    return {
      type: 'RefundProcessed',
      data: processedRecord(command, common, 'REFUND', {
        amount: command.amount,
        ...(targetTransactionId ? { targetTransactionId } : {}),
        ...(command.sourceOfFunds ? { sourceOfFunds: command.sourceOfFunds } : {}),
      }),
    };
  },
};
