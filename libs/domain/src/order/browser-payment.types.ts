/** Spec, browserPayment group: the browser payment providers this gateway simulates. */
export const BROWSER_PAYMENT_PROVIDERS = [
  'PROVIDER_A',
  'PROVIDER_B',
  'PROVIDER_C',
  'PROVIDER_D',
  'PROVIDER_E',
] as const;
export type BrowserPaymentProvider = (typeof BROWSER_PAYMENT_PROVIDERS)[number];

export type InteractionStatus =
  'INITIATED' | 'REDIRECTED_TO_PROVIDER' | 'RETURNED_TO_MERCHANT' | 'COMPLETED';

/** browserPayment.interaction: where the payer is, with the time of each step reached. */
export interface Interaction {
  readonly status: InteractionStatus;
  readonly timeInitiated: string;
  readonly timeRedirected?: string;
  readonly timeReturned?: string;
  readonly timeCompleted?: string;
}

/** What the payer did on the provider's page. */
export type PayerDecision = 'APPROVED' | 'DECLINED' | 'CANCELLED';

/** The browser payment side of an AUTHORIZATION or PAYMENT started by INITIATE_BROWSER_PAYMENT. */
export interface BrowserPaymentRecord {
  readonly operation: 'AUTHORIZE' | 'PAY';
  readonly provider: BrowserPaymentProvider;
  readonly returnUrl: string;
  /** The gateway's page of the provider, where the merchant sends the payer. */
  readonly redirectUrl: string;
  /** Provider A: CONFIRM_AT_MERCHANT waits for CONFIRM_BROWSER_PAYMENT. */
  readonly paymentConfirmation?: 'CONFIRM_AT_MERCHANT' | 'CONFIRM_AT_PROVIDER';
  /** Provider-specific request options, echoed as sent (providerA shipping address options). */
  readonly options?: Readonly<Record<string, unknown>>;
  /** transaction.providerD: payment reference, due date and reason. */
  readonly providerD?: Readonly<Record<string, unknown>>;
  readonly interaction: Interaction;
  readonly payerDecision?: PayerDecision;
}

/** The payer approved at the provider and the merchant has yet to confirm. */
export function awaitsConfirmation(record: BrowserPaymentRecord): boolean {
  return (
    record.interaction.status === 'RETURNED_TO_MERCHANT' &&
    record.paymentConfirmation === 'CONFIRM_AT_MERCHANT' &&
    record.payerDecision === 'APPROVED'
  );
}
