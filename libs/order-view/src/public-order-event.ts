import type { Order, OrderEventType, TransactionState, TransactionsSettled } from '@gateway/domain';
import type { StoredEvent } from '@gateway/event-store';
import { ORDER_EVENT_SPEC_VERSION, type PublicOrderEvent } from '@gateway/order-events';
import type { ResponseView } from './response-view';
import { renderOrderStatus, renderTransaction } from './transaction.response';

interface OrderEventTypeEntry {
  /** Where the stored event names the transaction it recorded or changed. */
  readonly transactionId?: 'id' | 'transactionId' | 'targetTransactionId';
  /** Whether it sends a webhook notification (docs/webhooks.md, "What is sent"). */
  readonly notifies: boolean;
  readonly description: string;
}

/**
 * Every order event type as consumers see it. A complete record, so a new domain event type must
 * be placed here: the builder, the webhook dispatcher and the AsyncAPI document all read it.
 * OrderCreated and AuthorizationReversed are committed together with the transaction they belong
 * to, whose notification already shows the order as they left it.
 */
export const ORDER_EVENT_TYPES: Readonly<Record<OrderEventType, OrderEventTypeEntry>> = {
  OrderCreated: {
    notifies: false,
    description: "The order's first transaction created it (committed with that transaction)",
  },
  AuthorizationProcessed: { transactionId: 'id', notifies: true, description: 'AUTHORIZE' },
  PaymentProcessed: { transactionId: 'id', notifies: true, description: 'PAY' },
  CaptureProcessed: { transactionId: 'id', notifies: true, description: 'CAPTURE' },
  AuthorizationUpdateProcessed: {
    transactionId: 'id',
    notifies: true,
    description: 'UPDATE_AUTHORIZATION',
  },
  RefundProcessed: { transactionId: 'id', notifies: true, description: 'REFUND' },
  VoidProcessed: { transactionId: 'id', notifies: true, description: 'VOID' },
  VerificationProcessed: { transactionId: 'id', notifies: true, description: 'VERIFY' },
  AuthenticationInitiated: {
    transactionId: 'id',
    notifies: true,
    description: 'INITIATE_AUTHENTICATION',
  },
  BrowserPaymentInitiated: {
    transactionId: 'id',
    notifies: true,
    description: 'INITIATE_BROWSER_PAYMENT',
  },
  PayerAuthenticationStarted: {
    transactionId: 'transactionId',
    notifies: true,
    description: 'AUTHENTICATE_PAYER answered with a challenge',
  },
  PayerAuthenticated: {
    transactionId: 'transactionId',
    notifies: true,
    description: "The authentication's result, frictionless or after the challenge",
  },
  BrowserPaymentRedirected: {
    transactionId: 'transactionId',
    notifies: true,
    description: "The payer reached the provider's page",
  },
  BrowserPaymentReturned: {
    transactionId: 'transactionId',
    notifies: true,
    description: 'The payer came back from the provider',
  },
  BrowserPaymentCompleted: {
    transactionId: 'transactionId',
    notifies: true,
    description: 'The provider settled the payment when the payer returned',
  },
  BrowserPaymentConfirmed: {
    transactionId: 'transactionId',
    notifies: true,
    description: 'CONFIRM_BROWSER_PAYMENT',
  },
  AuthorizationReversed: {
    transactionId: 'transactionId',
    notifies: false,
    description:
      'The gateway reversed a TIMED_OUT authorization (committed with it), or one whose outcome the last inquiry still did not learn (committed with its TransactionOutcomeLearned)',
  },
  AcquirerInquired: {
    transactionId: 'transactionId',
    notifies: false,
    description:
      'The gateway asked the acquirer about an UNKNOWN transaction (each inquiry, whatever the answer)',
  },
  TransactionOutcomeLearned: {
    transactionId: 'transactionId',
    notifies: true,
    description:
      "An UNKNOWN transaction's outcome, learnt from the acquirer (DECLINED when the last inquiry learnt none): response.gatewayCode, result, the order's totals and status change",
  },
  DisputeOpened: {
    transactionId: 'targetTransactionId',
    notifies: true,
    description:
      'The acquirer opened a dispute on a capture or payment (the transaction shown, with its disputes): the order is DISPUTED',
  },
  ChargebackProcessed: {
    transactionId: 'id',
    notifies: true,
    description:
      'The acquirer took money back: a CHARGEBACK transaction; the order is CHARGEBACK_PROCESSED',
  },
  TransactionsSettled: {
    notifies: false,
    description:
      "The acquirer settled some of the order's transactions in a batch (settledTransactions, each with transaction.acquirer.settlement)",
  },
};

export function isOrderEventType(type: string): type is OrderEventType {
  return Object.hasOwn(ORDER_EVENT_TYPES, type);
}

/**
 * The public event of one stored order event: `order` is the order as the event left it, `view`
 * the card mask of the credentials it is shown to (never UNMASK: an event is not the answer to a
 * request that asked for it). Kafka and webhooks, which have no credentials, get what a
 * Basic-authenticated GET shows. Pure, so the same inputs give the same bytes on every
 * redelivery; the relay builds it once per event and the feed once per event and mask.
 */
export function buildPublicOrderEvent(
  order: Order,
  event: StoredEvent,
  view: Pick<ResponseView, 'cardMask'>,
): PublicOrderEvent {
  if (!isOrderEventType(event.type))
    throw new Error(`Event ${event.eventId} of ${event.streamId} has an unknown type`);
  const field = ORDER_EVENT_TYPES[event.type].transactionId;
  const transactionId = field && (event.data as Record<string, unknown>)[field];
  const tx = field && order.transactions.find((t) => t.id === transactionId);
  if (field && !tx)
    throw new Error(
      `Event ${event.eventId} of ${event.streamId} names no transaction of its order`,
    );
  const settled = event.type === 'TransactionsSettled' ? settledOf(order, event) : undefined;
  const render = (t: TransactionState) =>
    renderTransaction(order, t, undefined, { cardMask: view.cardMask });
  return {
    specVersion: ORDER_EVENT_SPEC_VERSION,
    eventId: event.eventId,
    type: event.type,
    merchantId: order.merchantId,
    orderId: order.orderId,
    revision: event.revision,
    position: event.position.toString(),
    recordedAt: event.recordedAt,
    order: renderOrderStatus(order, order),
    ...(tx ? { transaction: render(tx) } : {}),
    ...(settled ? { settledTransactions: settled.map(render) } : {}),
  };
}

/** The transactions a TransactionsSettled event settled, in the order's order. */
function settledOf(order: Order, event: StoredEvent): TransactionState[] {
  const { transactions } = event.data as TransactionsSettled['data'];
  const ids = new Set(transactions.map((t) => t.transactionId));
  return order.transactions.filter((t) => ids.has(t.id));
}
