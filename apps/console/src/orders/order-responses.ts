import type { Order, TransactionState } from '@gateway/domain';
import { renderOrder, renderTransaction, type ResponseView } from '@gateway/order-view';

type Json = Record<string, unknown>;

/** Retrieve Order's answer in two parts: the order's own fields, and some of its transactions. */
export interface OrderResponses {
  readonly fields: Json;
  readonly transactions: readonly Json[];
}

/**
 * What Retrieve Order answers for the order (libs/order-view's renderOrder, nothing copied), but
 * only the transactions asked for, in the order's order: each response is the one renderOrder
 * gives, without rendering the others (a 1,000-transaction order's whole answer is ~2.5 MB).
 */
export function orderResponses(
  order: Order,
  view: ResponseView,
  ids: ReadonlySet<string>,
): OrderResponses {
  // The order's fields read two transactions: the first (its echoed order fields) and the
  // latest with a source of funds (the card shown). Given only those, renderOrder writes the same.
  const first = order.transactions[0];
  const funding = order.transactions.findLast((tx) => tx.sourceOfFunds !== undefined);
  const read = [first, funding].filter(
    (tx, i, all): tx is TransactionState => tx !== undefined && all.indexOf(tx) === i,
  );
  const { transaction: _few, ...fields } = renderOrder({ ...order, transactions: read }, view);
  const transactions = order.transactions
    .filter((tx) => ids.has(tx.id))
    .map((tx) => renderTransaction(order, tx, undefined, view));
  return { fields, transactions };
}
