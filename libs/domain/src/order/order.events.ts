import type { Thousandths } from '../money';
import type { GatewayCode, RecordedSourceOfFunds, TransactionType } from './order.types';

/** Non-sensitive request data echoed in responses (billing, customer, order description, …). */
export type RequestEcho = Readonly<Record<string, unknown>>;

/** One transaction as recorded, whatever its outcome: approved, declined and pending alike. */
export interface TransactionRecord {
  readonly id: string;
  readonly type: TransactionType;
  readonly amount: Thousandths;
  readonly currency: string;
  readonly gatewayCode: GatewayCode;
  /** Set when the processor approved less than was asked (PARTIALLY_APPROVED). */
  readonly requestedAmount?: Thousandths;
  readonly targetTransactionId?: string;
  readonly reference?: string;
  readonly sourceOfFunds?: RecordedSourceOfFunds;
  readonly processor: Readonly<Record<string, unknown>>;
  readonly echo: RequestEcho;
  readonly timeOfRecord: string;
  readonly apiVersion: number;
  /** Hash of the request that created it, so a retry with the same body is recognised. */
  readonly requestHash: string;
}

export interface OrderCreated {
  readonly type: 'OrderCreated';
  readonly data: {
    readonly merchantId: string;
    readonly orderId: string;
    readonly currency: string;
    readonly creationTime: string;
    readonly notificationUrl?: string;
  };
}

/**
 * Behaviour notes: TIMED_OUT is a decline for which the gateway records a reversal, so nothing
 * the acquirer may have held stays held. Recorded as a fact of its own for the audit trail.
 */
export interface AuthorizationReversed {
  readonly type: 'AuthorizationReversed';
  readonly data: {
    readonly transactionId: string;
    readonly reason: 'TIMED_OUT';
    readonly time: string;
  };
}

type TransactionEvent<T extends string> = { readonly type: T; readonly data: TransactionRecord };

export type AuthorizationProcessed = TransactionEvent<'AuthorizationProcessed'>;
export type PaymentProcessed = TransactionEvent<'PaymentProcessed'>;
export type CaptureProcessed = TransactionEvent<'CaptureProcessed'>;
export type RefundProcessed = TransactionEvent<'RefundProcessed'>;
export type VoidProcessed = TransactionEvent<'VoidProcessed'>;
export type VerificationProcessed = TransactionEvent<'VerificationProcessed'>;

export type TransactionProcessed =
  | AuthorizationProcessed
  | PaymentProcessed
  | CaptureProcessed
  | RefundProcessed
  | VoidProcessed
  | VerificationProcessed;

export type OrderEvent = OrderCreated | TransactionProcessed | AuthorizationReversed;
export type OrderEventType = OrderEvent['type'];
