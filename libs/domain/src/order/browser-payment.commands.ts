import type { Thousandths } from '../money';
import type { BrowserPaymentProvider, PayerDecision } from './browser-payment.types';
import type { PayerStepBase, RequestBase } from './order.commands';
import type { RecordedSourceOfFunds } from './order.types';

/** INITIATE_BROWSER_PAYMENT: an AUTHORIZATION or PAYMENT that the payer completes at a provider. */
export interface InitiateBrowserPayment extends RequestBase {
  readonly type: 'INITIATE_BROWSER_PAYMENT';
  readonly operation: 'AUTHORIZE' | 'PAY';
  readonly provider: BrowserPaymentProvider;
  readonly amount: Thousandths;
  readonly currency: string;
  readonly sourceOfFunds: RecordedSourceOfFunds;
  readonly returnUrl: string;
  readonly paymentConfirmation?: 'CONFIRM_AT_MERCHANT' | 'CONFIRM_AT_PROVIDER';
  readonly options?: Readonly<Record<string, unknown>>;
  readonly providerD?: Readonly<Record<string, unknown>>;
}

/** The gateway's answer: the provider page it issued for the payer. */
export interface BrowserPaymentStart {
  readonly redirectUrl: string;
}

/** The payer opened the provider's page. */
export interface RedirectToProvider extends PayerStepBase {
  readonly type: 'PAYER_REDIRECTED_TO_PROVIDER';
}

/** The payer approved, declined or cancelled at the provider and is sent back to the merchant. */
export interface ReturnFromProvider extends PayerStepBase {
  readonly type: 'PAYER_RETURNED_FROM_PROVIDER';
  readonly decision: PayerDecision;
}

/** CONFIRM_BROWSER_PAYMENT: the merchant confirms a CONFIRM_AT_MERCHANT payment (same ids). */
export interface ConfirmBrowserPayment extends RequestBase {
  readonly type: 'CONFIRM_BROWSER_PAYMENT';
  readonly amount?: Thousandths;
  readonly currency?: string;
}
