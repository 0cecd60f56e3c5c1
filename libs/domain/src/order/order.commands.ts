import type { Thousandths } from '../money';
import type {
  AuthenticatePayer,
  CompleteChallenge,
  InitiateAuthentication,
  PayerAuthenticationAnswer,
  AuthenticationLookup,
  ChallengeAnswer,
} from './authentication.commands';
import type {
  BrowserPaymentStart,
  ConfirmBrowserPayment,
  InitiateBrowserPayment,
  RedirectToProvider,
  ReturnFromProvider,
} from './browser-payment.commands';
import type { RequestEcho } from './order.events';
import type { ProcessorOutcome, RecordedSourceOfFunds } from './order.types';

/** What every operation request carries: the ids, time and version are passed in, never read. */
export interface RequestBase {
  readonly merchantId: string;
  readonly orderId: string;
  readonly transactionId: string;
  readonly now: string;
  readonly apiVersion: number;
  readonly requestHash: string;
  readonly echo: RequestEcho;
  readonly notificationUrl?: string;
  /** Fields present in the request that are accepted only on the order's first transaction. */
  readonly firstTransactionOnly?: readonly string[];
}

/** Operations that open or top up funds on a card: AUTHORIZE, PAY, VERIFY. */
interface FundingRequest extends RequestBase {
  readonly amount: Thousandths;
  readonly currency: string;
  readonly sourceOfFunds: RecordedSourceOfFunds;
}

/** AUTHORIZE and PAY may cite the 3-D Secure authentication whose proof they carry. */
interface PaymentRequest extends FundingRequest {
  readonly authenticationTransactionId?: string;
  /** `3DSecureId`: must name a 3-D Secure record of the order; nothing else is taken from it. */
  readonly threeDSecureId?: string;
  /** transaction.reference, when sent. */
  readonly reference?: string;
}

export interface Authorize extends PaymentRequest {
  readonly type: 'AUTHORIZE';
}
export interface Pay extends PaymentRequest {
  readonly type: 'PAY';
}
export interface Verify extends FundingRequest {
  readonly type: 'VERIFY';
}
export interface Capture extends RequestBase {
  readonly type: 'CAPTURE';
  readonly amount: Thousandths;
  readonly currency: string;
  readonly reference?: string;
}
/** UPDATE_AUTHORIZATION: the order's new total authorized amount, higher or lower. */
export interface UpdateAuthorization extends RequestBase {
  readonly type: 'UPDATE_AUTHORIZATION';
  readonly amount: Thousandths;
  readonly currency: string;
  readonly reference?: string;
}
export interface Refund extends RequestBase {
  readonly type: 'REFUND';
  readonly amount: Thousandths;
  readonly currency: string;
  readonly reference?: string;
  readonly targetTransactionId?: string;
  /** Present only on a standalone refund (a new order). */
  readonly sourceOfFunds?: RecordedSourceOfFunds;
}
export interface Void extends RequestBase {
  readonly type: 'VOID';
  readonly targetTransactionId: string;
  readonly reference?: string;
}

/** The ids and time of a step the payer takes on one of the gateway's pages. */
export interface PayerStepBase {
  readonly merchantId: string;
  readonly orderId: string;
  readonly transactionId: string;
  readonly now: string;
}

/** A request as the merchant (or the payer, on the gateway's pages) made it, before any answer. */
export type OrderRequest =
  | Authorize
  | Pay
  | Verify
  | Capture
  | UpdateAuthorization
  | Refund
  | Void
  | InitiateAuthentication
  | AuthenticatePayer
  | CompleteChallenge
  | InitiateBrowserPayment
  | RedirectToProvider
  | ReturnFromProvider
  | ConfirmBrowserPayment;

/** The payment operations the acquirer answers, with its answer. */
export type OrderCommand = (
  Authorize | Pay | Verify | Capture | UpdateAuthorization | Refund | Void
) & {
  readonly outcome: ProcessorOutcome;
};

/** The 3-D Secure steps with the authentication server's answer. */
export type AuthenticationCommand =
  | (InitiateAuthentication & { readonly outcome: AuthenticationLookup })
  | (AuthenticatePayer & { readonly outcome: PayerAuthenticationAnswer })
  | (CompleteChallenge & { readonly outcome: ChallengeAnswer });

/** The browser payment steps; the provider answers the payer's return and the merchant's confirmation. */
export type BrowserPaymentCommand =
  | (InitiateBrowserPayment & { readonly outcome: BrowserPaymentStart })
  | RedirectToProvider
  | (ReturnFromProvider & { readonly outcome: ProcessorOutcome })
  | (ConfirmBrowserPayment & { readonly outcome: ProcessorOutcome });

/** Every request together with its answer: the decider's input. */
export type DeciderCommand = OrderCommand | AuthenticationCommand | BrowserPaymentCommand;
