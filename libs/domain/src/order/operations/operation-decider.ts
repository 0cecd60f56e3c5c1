import type { DeciderCommand, OrderRequest } from '../order.commands';
import type { OrderEvent, TransactionRecord } from '../order.events';
import type { OrderRejection } from '../order.rejection';
import type { Order, OrderState } from '../order.state';

export type RequestType = OrderRequest['type'];
export type RequestOf<T extends RequestType> = Extract<OrderRequest, { readonly type: T }>;
export type CommandOf<T extends RequestType> = Extract<DeciderCommand, { readonly type: T }>;

/** What every new transaction records, whatever its operation. */
export type TransactionCommon = Pick<
  TransactionRecord,
  'id' | 'currency' | 'echo' | 'timeOfRecord' | 'apiVersion' | 'requestHash' | 'notificationUrl'
>;

/**
 * The decider branch of an operation that opens a new transaction (AUTHORIZE, PAY, VERIFY,
 * CAPTURE, UPDATE_AUTHORIZATION, REFUND, VOID, INITIATE_AUTHENTICATION, INITIATE_BROWSER_PAYMENT).
 * The rules every new transaction shares (unused transaction id, first-transaction-only fields,
 * the order's currency) and the OrderCreated event are order.decide's.
 */
export interface OpensTransaction<T extends RequestType> {
  readonly opens: 'transaction';
  /** Where the request names its currency, when not order.currency. */
  readonly currencyField?: 'transaction.currency';
  /** Why the order's state does not allow this request, or undefined when it does. */
  rejection(request: RequestOf<T>, state: OrderState): OrderRejection | undefined;
  /** The answer the order gives itself, when nobody is to be asked (the issuer said not to pay). */
  answeredWithoutAsking?(request: RequestOf<T>, state: OrderState): CommandOf<T> | undefined;
  /** The new transaction's event. */
  event(command: CommandOf<T>, state: OrderState, common: TransactionCommon): OrderEvent;
}

/**
 * The decider branch of a later step of an existing transaction (AUTHENTICATE_PAYER, the
 * challenge's result, the browser payment's steps, CONFIRM_BROWSER_PAYMENT).
 */
export interface ContinuesTransaction<T extends RequestType> {
  readonly opens: 'step';
  rejection(request: RequestOf<T>, state: OrderState): OrderRejection | undefined;
  decide(command: CommandOf<T>, order: Order): OrderEvent[];
}

export type OperationDecider<T extends RequestType> = OpensTransaction<T> | ContinuesTransaction<T>;

/** One decider branch per request type: order.decide looks the branch up, never switches. */
export type DeciderRegistry = { readonly [T in RequestType]: OperationDecider<T> };
