import type { OrderEvent, OrderEventType } from '@gateway/domain';

type DataOf<T extends OrderEventType> = Extract<OrderEvent, { type: T }>['data'];

/** Which of its times each event type carries: every type named, or this does not compile. */
const TIME_OF: { readonly [T in OrderEventType]: (data: DataOf<T>) => string } = {
  OrderCreated: (data) => data.creationTime,
  // A transaction recorded: its timeOfRecord (a chargeback is one too).
  AuthorizationProcessed: (data) => data.timeOfRecord,
  PaymentProcessed: (data) => data.timeOfRecord,
  CaptureProcessed: (data) => data.timeOfRecord,
  AuthorizationUpdateProcessed: (data) => data.timeOfRecord,
  RefundProcessed: (data) => data.timeOfRecord,
  VoidProcessed: (data) => data.timeOfRecord,
  VerificationProcessed: (data) => data.timeOfRecord,
  AuthenticationInitiated: (data) => data.timeOfRecord,
  BrowserPaymentInitiated: (data) => data.timeOfRecord,
  ChargebackProcessed: (data) => data.timeOfRecord,
  // A later step of a transaction, a learnt outcome: the revision's time.
  PayerAuthenticationStarted: (data) => data.time,
  PayerAuthenticated: (data) => data.time,
  BrowserPaymentRedirected: (data) => data.time,
  BrowserPaymentReturned: (data) => data.time,
  BrowserPaymentCompleted: (data) => data.time,
  BrowserPaymentConfirmed: (data) => data.time,
  TransactionOutcomeLearned: (data) => data.time,
  // The gateway's own reversal and the acquirer's facts; a settlement carries its batch's close.
  AuthorizationReversed: (data) => data.time,
  AcquirerInquired: (data) => data.time,
  DisputeOpened: (data) => data.time,
  TransactionsSettled: (data) => data.time,
};

/**
 * When the gateway recorded the fact, by its own clock (the GatewayClock): the time the books go
 * by (docs/ledger.md, "Posting time"). It is the time Retrieve Order shows and the settlement
 * batches use, and it is inside the event's data, so the hash chain protects it; the store's
 * commit time (`recordedAt`) is not what a manual clock moves.
 */
export function factTimeOf(event: OrderEvent): string {
  return (TIME_OF[event.type] as (data: OrderEvent['data']) => string)(event.data);
}
