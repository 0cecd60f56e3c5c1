import { ApiError } from '@gateway/contract';
import {
  BROWSER_PAYMENT_PROVIDERS,
  type BrowserPaymentProvider,
  type InitiateBrowserPayment,
} from '@gateway/domain';
import { amount, get, requiredString, type Body } from '../../transaction/body-fields';
import { recordedGroup } from '../../transaction/source-of-funds.mapper';
import { requestBase } from '../request-base';
import type { OperationSlice, Parsed, ParseContext } from '../slice';

/** The provider-specific groups a browser payment may carry, recorded as sent (account numbers masked). */
const PROVIDER_GROUPS: Partial<Record<BrowserPaymentProvider, string>> = {
  PROVIDER_A: 'providerA',
  PROVIDER_B: 'providerB',
  PROVIDER_C: 'providerC',
};

function browserPaymentOf(body: Body, ctx: ParseContext): InitiateBrowserPayment {
  const provider = requiredString(body, 'sourceOfFunds.type') as BrowserPaymentProvider;
  if (!BROWSER_PAYMENT_PROVIDERS.includes(provider))
    throw ApiError.invalid(
      `Value '${provider}' is invalid. It is not a browser payment provider`,
      'sourceOfFunds.type',
    );
  const group = PROVIDER_GROUPS[provider];
  const details = group
    ? (get(body, `sourceOfFunds.provided.${group}`) as Body | undefined)
    : undefined;
  const { paymentConfirmation, ...options } = (get(body, 'browserPayment.providerA') ?? {}) as Body;
  const providerD = get(body, 'transaction.providerD') as Body | undefined;
  return {
    ...requestBase(body, ctx),
    type: 'INITIATE_BROWSER_PAYMENT',
    operation: requiredString(body, 'browserPayment.operation') as 'AUTHORIZE' | 'PAY',
    provider,
    amount: amount(body, 'order.amount'),
    currency: requiredString(body, 'order.currency'),
    sourceOfFunds: {
      type: provider,
      ...(details && group ? recordedGroup(group, details, ctx.protect) : {}),
    },
    returnUrl: requiredString(body, 'browserPayment.returnUrl'),
    ...(provider === 'PROVIDER_A'
      ? {
          paymentConfirmation: paymentConfirmation as 'CONFIRM_AT_MERCHANT' | 'CONFIRM_AT_PROVIDER',
        }
      : {}),
    ...(provider === 'PROVIDER_A' && Object.keys(options).length ? { options } : {}),
    ...(providerD ? { providerD } : {}),
  };
}

/** INITIATE_BROWSER_PAYMENT: the gateway issues the provider page the payer is sent to. */
export const initiateBrowserPayment: OperationSlice<Parsed<InitiateBrowserPayment>> = {
  parse: (body, ctx) => ({ request: browserPaymentOf(body, ctx) }),
  ask: ({ request }, { ports }) => ({
    ...request,
    outcome: {
      redirectUrl: ports.links.provider({
        merchantId: request.merchantId,
        orderId: request.orderId,
        transactionId: request.transactionId,
      }),
    },
  }),
};
