import type { ErrorCause, ValidationType } from '../api-error';
import { ref, type JsonSchema } from './json-schema';

/**
 * Response schemas. The contract describes requests only, so these follow the spec's response
 * tables and the behaviour notes. Responses may carry more than is listed (acquirer details,
 * echoed groups), hence no `additionalProperties: false` here.
 */

export const text = (min: number, max: number, description: string): JsonSchema => ({
  type: 'string',
  description,
  minLength: min,
  maxLength: max,
});

export const oneOfValues = (values: readonly string[], description: string): JsonSchema => ({
  type: 'string',
  description,
  enum: [...values],
});

/** Response decimals are JSON numbers: at least 0, at most 1,000,000,000,000, thousandths. */
export const amount = (description: string): JsonSchema => ({
  type: 'number',
  description,
  minimum: 0,
  maximum: 1_000_000_000_000,
  multipleOf: 0.001,
});

export const currency = (description: string): JsonSchema => ({
  type: 'string',
  description,
  pattern: '^[A-Z]{3}$',
});

export const dateTime = (description: string): JsonSchema => ({
  type: 'string',
  format: 'date-time',
  description,
});

export const object = (
  description: string,
  properties: Record<string, JsonSchema>,
  required: readonly string[] = [],
): JsonSchema => ({
  type: 'object',
  description,
  properties,
  ...(required.length > 0 ? { required: [...required] } : {}),
});

/** Spec, response.gatewayCode. */
export const GATEWAY_CODES = [
  'ABORTED',
  'ACQUIRER_SYSTEM_ERROR',
  'APPROVED',
  'APPROVED_PENDING_SETTLEMENT',
  'AUTHENTICATION_FAILED',
  'BLOCKED',
  'CANCELLED',
  'DECLINED',
  'DECLINED_AVS',
  'DECLINED_AVS_CSC',
  'DECLINED_CSC',
  'DECLINED_DO_NOT_CONTACT',
  'DEFERRED_TRANSACTION_RECEIVED',
  'DUPLICATE_BATCH',
  'EXCEEDED_RETRY_LIMIT',
  'EXPIRED_CARD',
  'INSUFFICIENT_FUNDS',
  'INVALID_CSC',
  'LOCK_FAILURE',
  'NOT_ENROLLED_3D_SECURE',
  'NOT_SUPPORTED',
  'PARTIALLY_APPROVED',
  'PENDING',
  'REFERRED',
  'SYSTEM_ERROR',
  'TIMED_OUT',
  'UNKNOWN',
  'UNSPECIFIED_FAILURE',
] as const;

/** Spec, order.status (its list stops after PARTIALLY_REFUNDED), plus REFUNDED and VERIFIED from the lifecycle notes. */
export const ORDER_STATUSES = [
  'AUTHENTICATED',
  'AUTHENTICATION_INITIATED',
  'AUTHENTICATION_NOT_NEEDED',
  'AUTHENTICATION_UNSUCCESSFUL',
  'AUTHORIZED',
  'CANCELLED',
  'CAPTURED',
  'CHARGEBACK_PROCESSED',
  'DISPUTED',
  'EXCESSIVELY_REFUNDED',
  'FAILED',
  'FUNDING',
  'INITIATED',
  'PARTIALLY_CAPTURED',
  'PARTIALLY_REFUNDED',
  'REFUNDED',
  'VERIFIED',
] as const;

/**
 * Spec, transaction.type, plus AUTHENTICATION: the 3-D Secure transaction the gateway family
 * records, and CHARGEBACK: money the acquirer took back (behaviour notes, disputes and chargebacks).
 */
export const TRANSACTION_TYPES = [
  'AUTHENTICATION',
  'AUTHORIZATION',
  'AUTHORIZATION_UPDATE',
  'CAPTURE',
  'CHARGEBACK',
  'PAYMENT',
  'REFUND',
  'REFUND_REQUEST',
  'VERIFICATION',
  'VOID_AUTHORIZATION',
  'VOID_CAPTURE',
  'VOID_PAYMENT',
  'VOID_REFUND',
] as const;

const AUTHENTICATION_STATUSES = [
  'AUTHENTICATION_ATTEMPTED',
  'AUTHENTICATION_AVAILABLE',
  'AUTHENTICATION_EXEMPT',
  'AUTHENTICATION_FAILED',
  'AUTHENTICATION_NOT_IN_EFFECT',
  'AUTHENTICATION_NOT_SUPPORTED',
  'AUTHENTICATION_PENDING',
  'AUTHENTICATION_REJECTED',
  'AUTHENTICATION_REQUIRED',
  'AUTHENTICATION_SUCCESSFUL',
  'AUTHENTICATION_UNAVAILABLE',
];

const AVS_CODES = [
  'ADDRESS_MATCH',
  'ADDRESS_ZIP_MATCH',
  'NAME_ADDRESS_MATCH',
  'NAME_MATCH',
  'NAME_ZIP_MATCH',
  'NOT_AVAILABLE',
  'NOT_REQUESTED',
  'NOT_VERIFIED',
  'NO_MATCH',
  'SERVICE_NOT_AVAILABLE_RETRY',
  'SERVICE_NOT_SUPPORTED',
  'ZIP_MATCH',
];

const order = object(
  'The order as it stands after the operation',
  {
    id: text(1, 40, 'The {orderId} of the path'),
    amount: amount('Total amount of the order; zero when no funds are transferred'),
    currency: currency('Currency of the order, ISO 4217'),
    status: oneOfValues(ORDER_STATUSES, 'Status of the order'),
    authenticationStatus: oneOfValues(AUTHENTICATION_STATUSES, '3-D Secure status of the order'),
    creationTime: dateTime('When the order was created'),
    lastUpdatedTime: dateTime('When the order last changed'),
    totalAuthorizedAmount: amount('Amount authorized and not voided'),
    totalCapturedAmount: amount('Amount captured and not voided'),
    totalRefundedAmount: amount('Amount refunded and not voided'),
    totalChargebackAmount: amount(
      'Amount the acquirer took back (CHARGEBACK transactions); present once it took any',
    ),
    notificationUrl: {
      type: 'string',
      format: 'uri',
      description: 'Target of webhook notifications',
    },
    reference: text(1, 200, "The merchant's reference for the order"),
  },
  ['id'],
);

const transaction = object(
  'The transaction the operation created',
  {
    id: text(1, 40, 'The {transactionId} of the path'),
    type: oneOfValues(TRANSACTION_TYPES, 'Kind of transaction'),
    amount: amount('Amount of the transaction (the approved amount when partially approved)'),
    currency: currency('Currency of the transaction, ISO 4217'),
    requestedAmount: amount(
      'The amount asked for, when response.gatewayCode is PARTIALLY_APPROVED',
    ),
    reference: text(1, 40, "The merchant's reference for the transaction"),
    source: oneOfValues(
      [
        'CALL_CENTRE',
        'CARD_PRESENT',
        'INTERNET',
        'MAIL_ORDER',
        'MOTO',
        'TELEPHONE_ORDER',
        'VOICE_RESPONSE',
      ],
      'How the transaction was initiated',
    ),
    targetTransactionId: text(1, 40, 'The transaction voided, refunded or charged back'),
    disputes: {
      type: 'array',
      description: "Captures and payments: the acquirer's disputes of it, oldest first",
      items: object(
        'A dispute the acquirer opened',
        {
          id: text(1, 100, "The acquirer's dispute id"),
          amount: amount('Amount disputed'),
          status: oneOfValues(['OPEN', 'CHARGEBACK_PROCESSED'], 'Open, or ended by a chargeback'),
          openedTime: dateTime('When the gateway learnt of it'),
          chargebackTransactionId: text(1, 40, 'The CHARGEBACK transaction that ended it'),
        },
        ['id', 'amount', 'status', 'openedTime'],
      ),
    },
    acquirer: object("The acquirer's batch", {
      batch: { type: 'integer', description: 'The settlement batch, yyyymmdd' },
      settlementDate: { type: 'string', format: 'date', description: 'The day it settles' },
      settlement: object(
        'Present once the acquirer settled it',
        {
          amount: amount('Amount settled (the transaction amount, unless settled short)'),
          fee: amount("The acquirer's fee"),
          time: dateTime('When the gateway learnt of it'),
        },
        ['amount', 'fee', 'time'],
      ),
    }),
    authorizationCode: text(1, 100, 'Authorization code from the acquirer'),
    receipt: text(1, 100, 'Receipt number from the acquirer'),
  },
  ['id'],
);

const response = object(
  'The outcome reported by the gateway and the acquirer',
  {
    gatewayCode: oneOfValues(GATEWAY_CODES, 'Summary of the outcome'),
    gatewayRecommendation: oneOfValues(
      ['DO_NOT_PROCEED', 'PROCEED'],
      'After 3-D Secure: whether to go on with the payment',
    ),
    acquirerCode: text(1, 100, "The acquirer's response code"),
    acquirerMessage: text(1, 255, "The acquirer's response message"),
    cardSecurityCode: object('Card security code check', {
      acquirerCode: text(1, 100, "The acquirer's code"),
      gatewayCode: oneOfValues(
        ['MATCH', 'NOT_PRESENT', 'NOT_PROCESSED', 'NOT_SUPPORTED', 'NO_MATCH'],
        'Outcome of the check',
      ),
    }),
    cardholderVerification: object('Cardholder verification', {
      avs: object('Address verification', {
        acquirerCode: text(1, 100, "The acquirer's code"),
        gatewayCode: oneOfValues(AVS_CODES, 'Outcome of the address verification'),
      }),
    }),
  },
  ['gatewayCode'],
);

const sourceOfFunds = object('The payment instrument, never with a full card number', {
  type: { type: 'string', description: 'Kind of payment instrument' },
  token: { type: 'string', description: 'The card token the card came from, when one was sent' },
  provided: object('Payment details', {
    card: object('The card, masked', {
      number: {
        type: 'string',
        description: 'Card number with all but the first six and last four digits masked as x',
        pattern: '^[0-9x]{9,19}$',
      },
      expiry: object('Card expiry', {
        month: text(1, 2, 'Expiry month'),
        year: text(2, 2, 'Expiry year, 2000 plus this value'),
      }),
      brand: { type: 'string', description: 'Card brand' },
      scheme: { type: 'string', description: 'Card scheme' },
      fundingMethod: oneOfValues(
        ['CHARGE', 'CREDIT', 'DEBIT', 'UNKNOWN'],
        'How the card is funded',
      ),
    }),
  }),
});

/** Spec, currency conversion group (responses): numbers, and no requestId. */
const currencyConversion = object(
  'Dynamic currency conversion, as sent or as quoted by Payment Options Inquiry when taken up',
  {
    exchangeRateTime: dateTime('When the exchange rate was published'),
    marginPercentage: { type: 'number', description: 'Margin included in the rate, percent' },
    payerAmount: { type: 'number', description: 'The amount in the payer currency' },
    payerCurrency: text(3, 3, 'The payer currency, ISO 4217'),
    payerExchangeRate: {
      type: 'number',
      description: 'Payer currency per unit of the order currency, margin included',
    },
    provider: oneOfValues(['DCC_PROVIDER_A', 'DCC_PROVIDER_B'], 'Currency conversion provider'),
    providerReceipt: text(1, 100, "The provider's receipt"),
    uptake: oneOfValues(
      ['ACCEPTED', 'DECLINED', 'NOT_AVAILABLE', 'NOT_REQUIRED'],
      "The payer's choice",
    ),
  },
  ['uptake'],
);

const RESULT = oneOfValues(
  ['FAILURE', 'PENDING', 'SUCCESS', 'UNKNOWN'],
  'SUCCESS for APPROVED, APPROVED_PENDING_SETTLEMENT and PARTIALLY_APPROVED, PENDING and UNKNOWN alike, FAILURE otherwise',
);

/** Behaviour notes, "Agreements": a later payment shows the terms its first payment established. */
const agreement = object(
  'The agreement the transaction cites, with the terms its first payment established',
  {
    id: text(1, 100, 'The agreement id'),
    type: oneOfValues(['INSTALLMENT', 'OTHER', 'RECURRING', 'UNSCHEDULED'], 'Kind of agreement'),
    expiryDate: { type: 'string', format: 'date', description: 'Last day a payment may cite it' },
    recurring: object('Recurring payment terms', {
      daysBetweenPayments: {
        type: 'integer',
        minimum: 1,
        maximum: 999,
        description: 'Days between two payments',
      },
    }),
  },
  ['id'],
);

const transactionResponse = object(
  'The response of the operation that created the transaction',
  {
    result: RESULT,
    response,
    order,
    transaction,
    merchant: text(1, 40, 'The {merchantId} of the path'),
    version: { ...text(1, 8, 'The API version of the request'), pattern: '^[0-9]+$' },
    timeOfRecord: dateTime('When the gateway considers the operation to have happened'),
    gatewayEntryPoint: oneOfValues(
      [
        'AUTO',
        'BATCH',
        'CHECKOUT',
        'MERCHANT_ADMINISTRATION',
        'THREE_PARTY',
        'TWO_PARTY',
        'WEB_SERVICES_API',
      ],
      'How the request reached the gateway',
    ),
    correlationId: text(1, 100, 'The correlationId of the request, echoed'),
    agreement,
    currencyConversion,
    sourceOfFunds,
    authorizationResponse: object('Raw authorization data some acquirers return', {}),
    risk: object('Risk assessment outcome', {}),
    billing: object('As sent in the request', {}),
    customer: object('As sent in the request', {}),
    device: object('As sent in the request', {}),
    shipping: object('As sent in the request', {}),
  },
  ['result', 'response', 'order', 'transaction', 'merchant', 'version', 'gatewayEntryPoint'],
);

/** Retrieve Order puts the order's fields at the top level, next to every transaction. */
const orderResponse: JsonSchema = {
  description: 'The order with every transaction, oldest first',
  allOf: [
    ref('ResponseOrder'),
    object(
      'Retrieval envelope',
      {
        result: RESULT,
        merchant: text(1, 40, 'The {merchantId} of the path'),
        transaction: {
          type: 'array',
          description: 'Every transaction of the order, as its creating operation answered',
          items: ref('TransactionResponse'),
        },
      },
      ['result', 'merchant', 'transaction'],
    ),
  ],
};

const CAUSES: Record<ErrorCause, string> = {
  INVALID_REQUEST: 'The request did not conform to the API (HTTP 400, 401 or 404)',
  REQUEST_REJECTED: 'Refused for security reasons (HTTP 403)',
  SERVER_BUSY: 'Not enough resources at the moment; retry later (HTTP 503)',
  SERVER_FAILED: 'Internal failure (HTTP 500)',
};

const VALIDATION_TYPES: Record<ValidationType, string> = {
  INVALID: 'The value failed validation',
  MISSING: 'A required field is absent',
};

const describedValues = (values: Record<string, string>): string =>
  Object.entries(values)
    .map(([value, meaning]) => `${value}: ${meaning}`)
    .join('; ');

const errorResponse = object(
  "The spec's error object; the only body of a refusal",
  {
    result: oneOfValues(['ERROR'], 'Always ERROR'),
    error: object(
      'What went wrong',
      {
        cause: oneOfValues(Object.keys(CAUSES), describedValues(CAUSES)),
        explanation: text(1, 1000, 'For INVALID_REQUEST and SERVER_BUSY: the problem in words'),
        field: text(
          1,
          100,
          'For a field-level INVALID_REQUEST: the field by its full path as sent, indexes in brackets',
        ),
        validationType: oneOfValues(
          Object.keys(VALIDATION_TYPES),
          describedValues(VALIDATION_TYPES),
        ),
        supportCode: text(1, 100, 'For REQUEST_REJECTED and SERVER_FAILED: quote it to support'),
      },
      ['cause'],
    ),
  },
  ['result', 'error'],
);

export function responseSchemas(): Record<string, JsonSchema> {
  return {
    TransactionResponse: transactionResponse,
    ResponseOrder: order,
    OrderResponse: orderResponse,
    ErrorResponse: errorResponse,
  };
}
