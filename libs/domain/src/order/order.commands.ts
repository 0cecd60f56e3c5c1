import type { Thousandths } from '../money';
import type { RequestEcho } from './order.events';
import type { ProcessorOutcome, RecordedSourceOfFunds } from './order.types';

/** What every operation request carries: the ids, time and version are passed in, never read. */
interface RequestBase {
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

export interface Authorize extends FundingRequest {
  readonly type: 'Authorize';
}
export interface Pay extends FundingRequest {
  readonly type: 'Pay';
}
export interface Verify extends FundingRequest {
  readonly type: 'Verify';
}
export interface Capture extends RequestBase {
  readonly type: 'Capture';
  readonly amount: Thousandths;
  readonly currency: string;
  readonly reference?: string;
}
export interface Refund extends RequestBase {
  readonly type: 'Refund';
  readonly amount: Thousandths;
  readonly currency: string;
  readonly reference?: string;
  readonly targetTransactionId?: string;
  /** Present only on a standalone refund (a new order). */
  readonly sourceOfFunds?: RecordedSourceOfFunds;
}
export interface Void extends RequestBase {
  readonly type: 'Void';
  readonly targetTransactionId: string;
  readonly reference?: string;
}

/** A request as the merchant made it, before the processor has answered. */
export type OrderRequest = Authorize | Pay | Verify | Capture | Refund | Void;

/** A request together with the processor's answer: the decider's input. */
export type OrderCommand = OrderRequest & { readonly outcome: ProcessorOutcome };
