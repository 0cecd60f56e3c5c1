import type {
  BrowserPaymentCommand,
  BrowserPaymentRecord,
  OrderEvent,
  ProcessorOutcome,
} from '@gateway/domain';
import { at, T0 } from './order.fixtures';

/** Builders for browser payments; every value is explicit data. */
const ids = { merchantId: 'TESTM', orderId: 'o-1', transactionId: 'b1' };
export const providerA = {
  type: 'PROVIDER_A',
  provided: { providerA: { accountEmail: 'p@x.io' } },
};
export const redirectUrl = 'https://gw.example/payer/provider/tok';

export const initiateBrowserPayment = (
  extra: Partial<Extract<BrowserPaymentCommand, { type: 'INITIATE_BROWSER_PAYMENT' }>> = {},
): BrowserPaymentCommand => ({
  ...ids,
  apiVersion: 100,
  echo: {},
  type: 'INITIATE_BROWSER_PAYMENT',
  operation: 'PAY',
  provider: 'PROVIDER_A',
  amount: 30_000,
  currency: 'USD',
  sourceOfFunds: providerA,
  returnUrl: 'https://shop.example/back',
  paymentConfirmation: 'CONFIRM_AT_PROVIDER',
  now: T0,
  requestHash: 'h-b1',
  outcome: { redirectUrl },
  ...extra,
});

export const redirect = (): BrowserPaymentCommand => ({
  ...ids,
  type: 'PAYER_REDIRECTED_TO_PROVIDER',
  now: at(1),
});

export const providerAnswer = (
  gatewayCode: ProcessorOutcome['gatewayCode'],
  amount = 30_000,
): ProcessorOutcome => ({
  gatewayCode,
  approvedAmount: gatewayCode === 'APPROVED' ? amount : 0,
  details: { response: { acquirerCode: gatewayCode } },
});

export const returnFromProvider = (
  decision: 'APPROVED' | 'DECLINED' | 'CANCELLED',
  gatewayCode: ProcessorOutcome['gatewayCode'],
): BrowserPaymentCommand => ({
  ...ids,
  type: 'PAYER_RETURNED_FROM_PROVIDER',
  decision,
  now: at(2),
  outcome: providerAnswer(gatewayCode),
});

export const confirm = (
  extra: Partial<Extract<BrowserPaymentCommand, { type: 'CONFIRM_BROWSER_PAYMENT' }>> = {},
): BrowserPaymentCommand => ({
  ...ids,
  apiVersion: 100,
  echo: {},
  type: 'CONFIRM_BROWSER_PAYMENT',
  now: at(3),
  requestHash: 'h-b1-confirm',
  outcome: providerAnswer('APPROVED'),
  ...extra,
});

export const initiatedRecord = (
  extra: Partial<BrowserPaymentRecord> = {},
): BrowserPaymentRecord => ({
  operation: 'PAY',
  provider: 'PROVIDER_A',
  returnUrl: 'https://shop.example/back',
  redirectUrl,
  paymentConfirmation: 'CONFIRM_AT_PROVIDER',
  interaction: { status: 'INITIATED', timeInitiated: T0 },
  ...extra,
});

export const browserInitiated = (
  record: BrowserPaymentRecord = initiatedRecord(),
  type: 'PAYMENT' | 'AUTHORIZATION' = 'PAYMENT',
): OrderEvent => ({
  type: 'BrowserPaymentInitiated',
  data: {
    id: 'b1',
    type,
    amount: 30_000,
    currency: 'USD',
    gatewayCode: 'PENDING',
    processor: {},
    echo: {},
    timeOfRecord: T0,
    apiVersion: 100,
    requestHash: 'h-b1',
    sourceOfFunds: providerA,
    browserPayment: record,
  },
});

export const redirectedRecord = (base: BrowserPaymentRecord = initiatedRecord()) => ({
  ...base,
  interaction: {
    ...base.interaction,
    status: 'REDIRECTED_TO_PROVIDER' as const,
    timeRedirected: at(1),
  },
});

export const redirected = (base?: BrowserPaymentRecord): OrderEvent => ({
  type: 'BrowserPaymentRedirected',
  data: {
    transactionId: 'b1',
    time: at(1),
    gatewayCode: 'PENDING',
    browserPayment: redirectedRecord(base),
  },
});

export const returnedRecord = (
  decision: 'APPROVED' | 'DECLINED' | 'CANCELLED',
  base?: BrowserPaymentRecord,
): BrowserPaymentRecord => {
  const before = redirectedRecord(base);
  return {
    ...before,
    payerDecision: decision,
    interaction: { ...before.interaction, status: 'RETURNED_TO_MERCHANT', timeReturned: at(2) },
  };
};

export const returned = (
  decision: 'APPROVED' | 'DECLINED' | 'CANCELLED',
  base?: BrowserPaymentRecord,
): OrderEvent => ({
  type: 'BrowserPaymentReturned',
  data: {
    transactionId: 'b1',
    time: at(2),
    gatewayCode: 'PENDING',
    browserPayment: returnedRecord(decision, base),
  },
});
