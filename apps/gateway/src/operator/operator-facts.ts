import {
  isApproved,
  OrderRejection,
  toDecimal,
  type OpenDispute,
  type Order,
  type ProcessChargeback,
  type Thousandths,
  type TransactionState,
} from '@gateway/domain';

/**
 * What an operator's dispute or chargeback comes to on an order as it stands (docs/acquirer.md):
 * the capture or payment it names, its amount when none was given, and ids that the same
 * command sent twice at once shares (the recorder then records it once). The rules themselves
 * (amount at most what is left, nothing captured) are the decider's: it sees the order again
 * under the order's lock.
 */
export function operatorDispute(
  order: Order,
  amount: Thousandths | undefined,
  now: string,
): OpenDispute | OrderRejection {
  const target = pick(order, amount, disputableLeft);
  if (!target) return nothingLeft(order, 'disputed');
  const disputes = order.transactions.reduce((n, t) => n + (t.disputes?.length ?? 0), 0);
  return {
    type: 'OPEN_DISPUTE',
    ...factOn(order, now),
    disputeId: `ops-dispute-${disputes + 1}`,
    targetTransactionId: target.id,
    amount: amount ?? disputableLeft(target),
    currency: order.currency,
  };
}

/**
 * A chargeback ends the latest open dispute (of its amount, by default), else takes back from
 * the latest capture or payment with money left (all of it, by default).
 */
export function operatorChargeback(
  order: Order,
  amount: Thousandths | undefined,
  now: string,
): ProcessChargeback | OrderRejection {
  const disputed = capturedMoney(order).find((t) => openDisputesOf(t).length > 0);
  const dispute = disputed ? openDisputesOf(disputed).at(-1) : undefined;
  const target = disputed ?? pick(order, amount, chargeableLeft);
  if (!target) return nothingLeft(order, 'charged back');
  const chargebacks = order.transactions.filter((t) => t.type === 'CHARGEBACK').length;
  return {
    type: 'PROCESS_CHARGEBACK',
    ...factOn(order, now),
    transactionId: `ops-chargeback-${chargebacks + 1}`,
    targetTransactionId: target.id,
    amount: amount ?? dispute?.amount ?? chargeableLeft(target),
    currency: order.currency,
    ...(dispute ? { disputeId: dispute.disputeId } : {}),
  };
}

function factOn(order: Order, now: string) {
  return { merchantId: order.merchantId, orderId: order.orderId, now };
}

/** Approved, unvoided captures and payments, the latest first. */
function capturedMoney(order: Order): TransactionState[] {
  return order.transactions
    .filter((t) => (t.type === 'CAPTURE' || t.type === 'PAYMENT') && isApproved(t.gatewayCode))
    .filter((t) => !t.voided)
    .reverse();
}

/**
 * The latest capture or payment with room for `amount`, else the latest with anything left (the
 * decider then names what is left), else the latest at all; none when nothing was captured.
 */
function pick(
  order: Order,
  amount: Thousandths | undefined,
  left: (t: TransactionState) => Thousandths,
): TransactionState | undefined {
  const candidates = capturedMoney(order);
  const roomy = candidates.find((t) => left(t) >= (amount ?? 1) && left(t) > 0);
  const any = candidates.find((t) => left(t) > 0);
  return roomy ?? (amount !== undefined ? (any ?? candidates[0]) : undefined);
}

function chargeableLeft(t: TransactionState): Thousandths {
  return t.amount - t.refundedAmount - (t.chargedBackAmount ?? 0);
}

function disputableLeft(t: TransactionState): Thousandths {
  const open = openDisputesOf(t).reduce((sum, d) => sum + d.amount, 0);
  return chargeableLeft(t) - open;
}

function openDisputesOf(t: TransactionState) {
  return (t.disputes ?? []).filter((d) => d.chargebackTransactionId === undefined);
}

function nothingLeft(order: Order, what: string): OrderRejection {
  const captured = order.totals.captured;
  return new OrderRejection(
    'orderId',
    captured === 0
      ? `Order '${order.orderId}' has nothing captured that could be ${what}`
      : `Nothing of the ${toDecimal(captured)} ${order.currency} captured on order '${order.orderId}' is left to be ${what}`,
  );
}
