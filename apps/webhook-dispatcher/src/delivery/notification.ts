import {
  evolveAll,
  initialState,
  type FoldedOrderCache,
  type Order,
  type OrderEvent,
  type OrderEventType,
  type OrderState,
} from '@gateway/domain';
import type { EventStore } from '@gateway/event-store';
import type { OrderEventEnvelope } from '@gateway/order-events';
import { renderTransaction } from '../../../gateway/src/transaction/transaction.response';

/**
 * The events that notify, and where each names its transaction: every event that records a
 * transaction or a later step of one (the order was created or updated by it). OrderCreated and
 * AuthorizationReversed are committed with the transaction they belong to, whose notification
 * already shows the order as they left it. A complete record, so a new event type must be placed.
 */
const TRANSACTION_ID_FIELD: Record<OrderEventType, 'id' | 'transactionId' | undefined> = {
  OrderCreated: undefined,
  AuthorizationReversed: undefined,
  AuthorizationProcessed: 'id',
  PaymentProcessed: 'id',
  CaptureProcessed: 'id',
  RefundProcessed: 'id',
  VoidProcessed: 'id',
  VerificationProcessed: 'id',
  AuthenticationInitiated: 'id',
  BrowserPaymentInitiated: 'id',
  PayerAuthenticationStarted: 'transactionId',
  PayerAuthenticated: 'transactionId',
  BrowserPaymentRedirected: 'transactionId',
  BrowserPaymentReturned: 'transactionId',
  BrowserPaymentCompleted: 'transactionId',
  BrowserPaymentConfirmed: 'transactionId',
};

/** The transaction an event recorded, or undefined when the event does not notify. */
export function notifiedTransactionId(envelope: OrderEventEnvelope): string | undefined {
  const field = TRANSACTION_ID_FIELD[envelope.type as OrderEventType];
  const id = field && (envelope.data as Record<string, unknown> | null)?.[field];
  return typeof id === 'string' ? id : undefined;
}

/** Spec: the URL must be https and longer than 11 characters. */
export function isNotificationUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url.length <= 11) return false;
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

export interface Notification {
  readonly url: string;
  readonly transactionId: string;
  /** The Retrieve Transaction response, as sent (and signed) on every attempt. */
  readonly body: string;
}

/**
 * The notification an order event calls for, if any: the Retrieve Transaction response of the
 * transaction the event recorded, as it stood at that event (the order's stream folded up to the
 * envelope's revision), in the API version of the request that made it. With `folds`, an order's
 * events arrive in order, so each is folded onto the last: reading and folding cost what one
 * event costs, not the order's length.
 */
export async function notificationFor(
  store: EventStore,
  envelope: OrderEventEnvelope,
  folds?: FoldedOrderCache,
): Promise<Notification | undefined> {
  const transactionId = notifiedTransactionId(envelope);
  if (transactionId === undefined) return undefined;
  const state = await foldedAt(store, envelope.streamId, envelope.revision, folds);
  if (state.kind !== 'Order' || !isNotificationUrl(state.notificationUrl)) return undefined;
  const tx = state.transactions.find((t) => t.id === transactionId);
  if (!tx) return undefined;
  return {
    url: state.notificationUrl,
    transactionId,
    body: JSON.stringify(renderTransaction(state as Order, tx)),
  };
}

/** The order as it stood at `revision`, folded on from the latest fold at or before it. */
async function foldedAt(
  store: EventStore,
  streamId: string,
  revision: number,
  folds: FoldedOrderCache | undefined,
): Promise<OrderState> {
  const cached = folds?.get(streamId);
  const from = cached && cached.revision <= revision ? cached : undefined;
  const events = await store.readStream(streamId, {
    fromRevision: from ? from.revision + 1 : 0,
  });
  const upTo = events.filter((e) => e.revision <= revision) as unknown as OrderEvent[];
  const state = evolveAll(from?.state ?? initialState(), upTo);
  folds?.remember(streamId, { state, revision });
  return state;
}
