import { ApiError } from '@gateway/contract';
import {
  BROWSER_PAYMENT_PROVIDERS,
  maskCardNumber,
  type BrowserPaymentProvider,
  type OrderRequest,
} from '@gateway/domain';
import { amount, get, optionalString, requiredString, type Body } from './body-fields';
import { cardOf, recordedGroup, sourceOf, type Instrument } from './source-of-funds.mapper';
import type { RecordProtection } from './sensitive-data';

/** The ids, time and version of one request: passed in so the mapping stays a pure function. */
export interface RequestContext {
  readonly merchantId: string;
  readonly orderId: string;
  readonly transactionId: string;
  readonly apiVersion: number;
  readonly now: string;
  readonly requestHash: string;
  /** Masks, fingerprints and seals card and bank data as this merchant's order records them. */
  readonly protect: RecordProtection;
}

export interface MappedRequest {
  readonly request: OrderRequest;
  readonly instrument?: Instrument;
}

/** Spec, Limits: DCC and sub-merchant data only on the initial transaction of an order. */
const FIRST_TRANSACTION_ONLY = ['order.subMerchant', 'currencyConversion'];

/** Fields that are not echoed: card data, credentials, and what the transaction itself records. */
const NOT_ECHOED = new Set([
  'apiOperation',
  'correlationId',
  'sourceOfFunds',
  'session',
  'responseControls',
  'transaction',
  '3DSecure',
  'authentication',
  'browserPayment',
  'partnerSolutionId',
]);
const ORDER_NOT_ECHOED = new Set(['amount', 'currency', 'notificationUrl', 'acceptPartialAmount']);

/**
 * authentication.* of AUTHENTICATE_PAYER as recorded. The in-app SDK's JWE and ephemeral key are
 * the directory server's to read and are not kept; the SDK timeout is rounded up to a whole minute
 * (spec, Limits); with no payer present the challenge preference is NO_CHALLENGE whatever was sent.
 */
function authenticationAsRecorded(body: Body): Body {
  const sent = (get(body, 'authentication') ?? {}) as Body;
  const sdk = get(body, 'authentication.3ds2.sdk') as Body | undefined;
  const recordedSdk = sdk
    ? (() => {
        const { encryptedData: _jwe, ephemeralPublicKey: _key, timeout, ...kept } = sdk;
        return typeof timeout === 'number'
          ? { ...kept, timeout: Math.ceil(timeout / 60) * 60 }
          : kept;
      })()
    : undefined;
  return {
    ...sent,
    ...(recordedSdk ? { '3ds2': { sdk: recordedSdk } } : {}),
    ...(sent.channel === 'MERCHANT_REQUESTED' ? { challengePreference: 'NO_CHALLENGE' } : {}),
  };
}

/** The provider-specific groups a browser payment may carry, recorded as sent (account numbers masked). */
const PROVIDER_GROUPS: Partial<Record<BrowserPaymentProvider, string>> = {
  PROVIDER_A: 'providerA',
  PROVIDER_B: 'providerB',
  PROVIDER_C: 'providerC',
};

function browserPaymentOf(body: Body, protect: RecordProtection) {
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
    type: 'InitiateBrowserPayment' as const,
    operation: requiredString(body, 'browserPayment.operation') as 'AUTHORIZE' | 'PAY',
    provider,
    amount: amount(body, 'order.amount'),
    currency: requiredString(body, 'order.currency'),
    sourceOfFunds: {
      type: provider,
      ...(details && group ? recordedGroup(group, details, protect) : {}),
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

function echoOf(body: Body): Body {
  const echo: Body = {};
  for (const [key, value] of Object.entries(body)) {
    if (NOT_ECHOED.has(key)) continue;
    if (key === 'order' && value && typeof value === 'object') {
      const order = Object.fromEntries(
        Object.entries(value).filter(([k]) => !ORDER_NOT_ECHOED.has(k)),
      );
      if (Object.keys(order).length) echo.order = order;
    } else echo[key] = value;
  }
  return echo;
}

/**
 * Turns a validated request body into the domain's request. The contract has already checked every
 * field's form; this reads the fields each operation needs, and checks what only makes sense together.
 */
export function toOrderRequest(operation: string, body: Body, ctx: RequestContext): MappedRequest {
  const firstTransactionOnly = FIRST_TRANSACTION_ONLY.filter(
    (path) => get(body, path) !== undefined,
  );
  const { protect, ...ids } = ctx;
  const base = {
    ...ids,
    echo: echoOf(body),
    ...(firstTransactionOnly.length ? { firstTransactionOnly } : {}),
    ...(optionalString(body, 'order.notificationUrl')
      ? { notificationUrl: optionalString(body, 'order.notificationUrl') }
      : {}),
  };
  const reference = optionalString(body, 'transaction.reference');
  const withReference = reference !== undefined ? { reference } : {};
  const sessionId = optionalString(body, 'session.id');
  const withSession = sessionId !== undefined ? { sessionId } : {};
  switch (operation) {
    case 'AUTHORIZE':
    case 'PAY': {
      const { instrument, recorded } = sourceOf(body, protect);
      const cited = optionalString(body, 'authentication.transactionId');
      const funding = {
        amount: amount(body, 'order.amount'),
        currency: requiredString(body, 'order.currency'),
        sourceOfFunds: recorded,
        ...(cited !== undefined ? { authenticationTransactionId: cited } : {}),
      };
      return {
        request: { ...base, ...funding, type: operation === 'PAY' ? 'Pay' : 'Authorize' },
        instrument,
      };
    }
    case 'INITIATE_AUTHENTICATION': {
      const { card, recorded } = cardOf(body, protect);
      return {
        request: {
          ...base,
          ...withSession,
          type: 'InitiateAuthentication',
          currency: requiredString(body, 'order.currency'),
          sourceOfFunds: recorded,
          authentication: (get(body, 'authentication') ?? {}) as Body,
        },
        instrument: { kind: 'card', card },
      };
    }
    case 'AUTHENTICATE_PAYER': {
      const number = optionalString(body, 'sourceOfFunds.provided.card.number');
      return {
        request: {
          ...base,
          ...withSession,
          type: 'AuthenticatePayer',
          amount: amount(body, 'order.amount'),
          currency: requiredString(body, 'order.currency'),
          ...(number !== undefined
            ? {
                card: {
                  number: maskCardNumber(number, protect.cardMask),
                  fingerprint: protect.fingerprint(number),
                },
              }
            : {}),
          authentication: authenticationAsRecorded(body),
        },
      };
    }
    case 'INITIATE_BROWSER_PAYMENT':
      return { request: { ...base, ...browserPaymentOf(body, protect) } };
    case 'CONFIRM_BROWSER_PAYMENT': {
      const currency = optionalString(body, 'order.currency');
      return {
        request: {
          ...base,
          type: 'ConfirmBrowserPayment',
          ...(get(body, 'order.amount') !== undefined
            ? { amount: amount(body, 'order.amount') }
            : {}),
          ...(currency !== undefined ? { currency } : {}),
        },
      };
    }
    case 'VERIFY': {
      const { instrument, recorded } = sourceOf(body, protect);
      // Version 16 names the currency transaction.currency; 29 names it order.currency.
      const currency =
        optionalString(body, 'transaction.currency') ?? requiredString(body, 'order.currency');
      return {
        request: { ...base, type: 'Verify', amount: 0, currency, sourceOfFunds: recorded },
        instrument,
      };
    }
    case 'CAPTURE':
      return {
        request: {
          ...base,
          ...withReference,
          type: 'Capture',
          amount: amount(body, 'transaction.amount'),
          currency: requiredString(body, 'transaction.currency'),
        },
      };
    case 'REFUND': {
      const target = optionalString(body, 'transaction.targetTransactionId');
      const standalone =
        get(body, 'sourceOfFunds') !== undefined ? sourceOf(body, protect) : undefined;
      return {
        request: {
          ...base,
          ...withReference,
          type: 'Refund',
          amount: amount(body, 'transaction.amount'),
          currency: requiredString(body, 'transaction.currency'),
          ...(target !== undefined ? { targetTransactionId: target } : {}),
          ...(standalone ? { sourceOfFunds: standalone.recorded } : {}),
        },
        ...(standalone ? { instrument: standalone.instrument } : {}),
      };
    }
    case 'VOID':
      return {
        request: {
          ...base,
          ...withReference,
          type: 'Void',
          targetTransactionId: requiredString(body, 'transaction.targetTransactionId'),
        },
      };
    default:
      throw ApiError.invalid(
        `Value '${operation}' is invalid. This gateway does not support it yet`,
        'apiOperation',
      );
  }
}
