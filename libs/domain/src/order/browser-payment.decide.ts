import type {
  ConfirmBrowserPayment,
  RedirectToProvider,
  ReturnFromProvider,
} from './browser-payment.commands';
import type { BrowserPaymentRecord } from './browser-payment.types';
import { OrderRejection } from './order.rejection';
import { findTransaction, type Order, type OrderState, type TransactionState } from './order.state';

type BrowserPaymentStep = RedirectToProvider | ReturnFromProvider | ConfirmBrowserPayment;

/**
 * The browser payment a later step continues: the one INITIATE_BROWSER_PAYMENT opened on the
 * same ids, or why there is none. The payer's steps follow the interaction's order,
 * INITIATED → REDIRECTED_TO_PROVIDER → RETURNED_TO_MERCHANT → COMPLETED.
 */
function initiatedBrowserPayment(
  request: BrowserPaymentStep,
  state: OrderState,
): OrderRejection | { readonly tx: TransactionState; readonly record: BrowserPaymentRecord } {
  if (state.kind === 'NoOrder')
    return new OrderRejection('order.id', `Order '${request.orderId}' does not exist`);
  const tx = findTransaction(state, request.transactionId);
  if (!tx?.browserPayment) {
    return new OrderRejection(
      'transaction.id',
      `No INITIATE_BROWSER_PAYMENT with transaction id '${request.transactionId}' on order '${request.orderId}'`,
    );
  }
  return { tx, record: tx.browserPayment };
}

/** A step's rejection: no browser payment on these ids, or what `allowed` finds of the one there. */
export function browserPaymentStepRejection(
  request: BrowserPaymentStep,
  state: OrderState,
  allowed: (found: {
    tx: TransactionState;
    record: BrowserPaymentRecord;
  }) => OrderRejection | undefined,
): OrderRejection | undefined {
  const found = initiatedBrowserPayment(request, state);
  return found instanceof OrderRejection ? found : allowed(found);
}

/** The browser payment of a step the order's rules have accepted. */
export function acceptedBrowserPayment(order: Order, transactionId: string) {
  const tx = findTransaction(order, transactionId) as TransactionState;
  return { tx, record: tx.browserPayment as BrowserPaymentRecord };
}

/** The step's rejection when the interaction is elsewhere. */
export function notNow(why: string): OrderRejection {
  return new OrderRejection('transaction.id', `The browser payment cannot take this step: ${why}`);
}

export function completedAt(record: BrowserPaymentRecord, now: string): BrowserPaymentRecord {
  return {
    ...record,
    interaction: { ...record.interaction, status: 'COMPLETED', timeCompleted: now },
  };
}
