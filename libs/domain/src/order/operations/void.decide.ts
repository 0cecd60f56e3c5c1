import type { Thousandths } from '../../money';
import type { Void } from '../order.commands';
import { OrderRejection } from '../order.rejection';
import { findTransaction, type Order, type TransactionState } from '../order.state';
import { isApproved, type TransactionType } from '../order.types';
import type { OpensTransaction } from './operation-decider';
import { processedRecord } from './processed';
import { noSuchOrder } from './rejections';

const VOID_OF: Partial<Record<TransactionType, TransactionType>> = {
  AUTHORIZATION: 'VOID_AUTHORIZATION',
  CAPTURE: 'VOID_CAPTURE',
  PAYMENT: 'VOID_PAYMENT',
  REFUND: 'VOID_REFUND',
};

/** An authorization with live captures, or a capture or payment with refunds, cannot be voided. */
function hasDependants(order: Order, target: TransactionState): boolean {
  if (target.type === 'AUTHORIZATION') {
    return order.transactions.some(
      (t) => t.type === 'CAPTURE' && isApproved(t.gatewayCode) && !t.voided,
    );
  }
  return target.refundedAmount > 0;
}

function voidRejection(request: Void, order: Order): OrderRejection | undefined {
  const target = findTransaction(order, request.targetTransactionId);
  const invalid = (why: string) =>
    new OrderRejection(
      'transaction.targetTransactionId',
      `Value '${request.targetTransactionId}' is invalid. ${why}`,
    );
  if (!target) return invalid('No such transaction on the order');
  if (!(target.type in VOID_OF)) return invalid(`A ${target.type} transaction cannot be voided`);
  if (!isApproved(target.gatewayCode)) return invalid('Only an approved transaction can be voided');
  if (target.voided) return invalid('The transaction has already been voided');
  if (hasDependants(order, target))
    return invalid('Later transactions depend on it; void those first');
  // Decided here: once the acquirer settled, disputed or charged it back, only a refund undoes it.
  if (target.settlement) return invalid('The acquirer has settled it; refund it instead');
  if (target.disputes?.length || target.chargedBackAmount)
    return invalid('The acquirer has disputed or charged it back; it can no longer be voided');
  return undefined;
}

/**
 * What a VOID releases, asked of the acquirer and recorded: the target's amount, or for an
 * authorization the order's total authorized amount, however updates have changed it.
 */
export function voidedAmount(order: Order, target: TransactionState): Thousandths {
  return target.type === 'AUTHORIZATION' ? order.totals.authorized : target.amount;
}

/** VOID: cancels an approved, undepended-on transaction of the order, for its whole amount. */
export const voidDecider: OpensTransaction<'VOID'> = {
  opens: 'transaction',
  rejection: (request, state) =>
    state.kind === 'NoOrder' ? noSuchOrder(request) : voidRejection(request, state),
  event(command, state, common) {
    const order = state as Order;
    const target = findTransaction(order, command.targetTransactionId) as TransactionState;
    return {
      type: 'VoidProcessed',
      data: processedRecord(command, common, VOID_OF[target.type] as TransactionType, {
        amount: voidedAmount(order, target),
        targetTransactionId: target.id,
      }),
    };
  },
};
