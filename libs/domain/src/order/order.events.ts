import type { Thousandths } from '../money';
import type { SettledTransaction } from './acquirer-facts.commands';
import type { AuthenticationProof, AuthenticationRecord } from './authentication.types';
import type { BrowserPaymentRecord } from './browser-payment.types';
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
  /** AUTHENTICATION transactions: the 3-D Secure steps so far. */
  readonly authentication?: AuthenticationRecord;
  /** AUTHORIZATION and PAYMENT citing authentication.transactionId: the proof attached. */
  readonly proof?: AuthenticationProof;
  /** AUTHORIZATION and PAYMENT started by INITIATE_BROWSER_PAYMENT. */
  readonly browserPayment?: BrowserPaymentRecord;
  /**
   * order.notificationUrl given on a later transaction and differing from the order's: the
   * order's from this transaction on (the newest given wins; the first is OrderCreated's).
   */
  readonly notificationUrl?: string;
  /** CHARGEBACK: the acquirer's dispute it ends, when one was opened. */
  readonly disputeId?: string;
}

/**
 * A later step of an existing transaction: AUTHENTICATE_PAYER and the challenge continue an
 * AUTHENTICATION; the provider's page and CONFIRM_BROWSER_PAYMENT continue a browser payment.
 * The members given replace the transaction's; the version before is kept for replays.
 */
export interface TransactionRevision {
  readonly transactionId: string;
  readonly time: string;
  readonly gatewayCode: GatewayCode;
  /** The merchant request that made this step; absent for the payer's steps on the gateway's pages. */
  readonly requestHash?: string;
  readonly apiVersion?: number;
  readonly amount?: Thousandths;
  readonly echo?: RequestEcho;
  readonly processor?: Readonly<Record<string, unknown>>;
  readonly authentication?: AuthenticationRecord;
  readonly browserPayment?: BrowserPaymentRecord;
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
    /** TIMED_OUT at the answer; UNKNOWN_OUTCOME when the last inquiry still found no outcome. */
    readonly reason: 'TIMED_OUT' | 'UNKNOWN_OUTCOME';
    readonly time: string;
  };
}

type TransactionEvent<T extends string> = { readonly type: T; readonly data: TransactionRecord };

export type AuthorizationProcessed = TransactionEvent<'AuthorizationProcessed'>;
export type PaymentProcessed = TransactionEvent<'PaymentProcessed'>;
export type CaptureProcessed = TransactionEvent<'CaptureProcessed'>;
/** UPDATE_AUTHORIZATION: its amount is the order's new total authorized amount once approved. */
export type AuthorizationUpdateProcessed = TransactionEvent<'AuthorizationUpdateProcessed'>;
export type RefundProcessed = TransactionEvent<'RefundProcessed'>;
export type VoidProcessed = TransactionEvent<'VoidProcessed'>;
export type VerificationProcessed = TransactionEvent<'VerificationProcessed'>;
export type AuthenticationInitiated = TransactionEvent<'AuthenticationInitiated'>;
export type BrowserPaymentInitiated = TransactionEvent<'BrowserPaymentInitiated'>;

export type TransactionProcessed =
  | AuthorizationProcessed
  | PaymentProcessed
  | CaptureProcessed
  | AuthorizationUpdateProcessed
  | RefundProcessed
  | VoidProcessed
  | VerificationProcessed
  | AuthenticationInitiated
  | BrowserPaymentInitiated;

type RevisionEvent<T extends string> = { readonly type: T; readonly data: TransactionRevision };

/** AUTHENTICATE_PAYER answered with a challenge: the payer must act on the ACS page. */
export type PayerAuthenticationStarted = RevisionEvent<'PayerAuthenticationStarted'>;
/** The authentication's result, frictionless or after the challenge. */
export type PayerAuthenticated = RevisionEvent<'PayerAuthenticated'>;
export type BrowserPaymentRedirected = RevisionEvent<'BrowserPaymentRedirected'>;
export type BrowserPaymentReturned = RevisionEvent<'BrowserPaymentReturned'>;
/** The provider settled the payment when the payer returned (CONFIRM_AT_PROVIDER, declines, cancels). */
export type BrowserPaymentCompleted = RevisionEvent<'BrowserPaymentCompleted'>;
/** The merchant confirmed a CONFIRM_AT_MERCHANT payment (CONFIRM_BROWSER_PAYMENT). */
export type BrowserPaymentConfirmed = RevisionEvent<'BrowserPaymentConfirmed'>;

export type TransactionRevised =
  | PayerAuthenticationStarted
  | PayerAuthenticated
  | BrowserPaymentRedirected
  | BrowserPaymentReturned
  | BrowserPaymentCompleted
  | BrowserPaymentConfirmed;

/** The acquirer's answer to one inquiry about an UNKNOWN transaction, whatever it was. */
export interface AcquirerInquired {
  readonly type: 'AcquirerInquired';
  readonly data: {
    readonly transactionId: string;
    readonly attempt: number;
    readonly answer: 'APPROVED' | 'DECLINED' | 'UNKNOWN';
    readonly time: string;
    readonly details: Readonly<Record<string, unknown>>;
  };
}

/**
 * An UNKNOWN transaction's outcome, learnt from the acquirer (or DECLINED when the last inquiry
 * learnt none): its gatewayCode changes, money moves if approved; the version before is kept.
 */
export type TransactionOutcomeLearned = RevisionEvent<'TransactionOutcomeLearned'>;

/** The acquirer opened a dispute on a capture or payment: the order is DISPUTED. */
export interface DisputeOpened {
  readonly type: 'DisputeOpened';
  readonly data: {
    readonly disputeId: string;
    readonly targetTransactionId: string;
    readonly amount: Thousandths;
    readonly currency: string;
    readonly time: string;
  };
}

/** The acquirer took money back: a transaction of type CHARGEBACK. */
export type ChargebackProcessed = TransactionEvent<'ChargebackProcessed'>;

/** The acquirer settled some of the order's transactions in a batch. */
export interface TransactionsSettled {
  readonly type: 'TransactionsSettled';
  readonly data: {
    readonly batch: number;
    readonly settlementDate: string;
    readonly time: string;
    readonly transactions: readonly SettledTransaction[];
  };
}

/** Facts the acquirer told the gateway after the answer (metadata.causedBy: 'acquirer'). */
export type AcquirerFactEvent =
  | AcquirerInquired
  | TransactionOutcomeLearned
  | DisputeOpened
  | ChargebackProcessed
  | TransactionsSettled;

export type OrderEvent =
  | OrderCreated
  | TransactionProcessed
  | TransactionRevised
  | AuthorizationReversed
  | AcquirerFactEvent;
export type OrderEventType = OrderEvent['type'];
