import { browserPaymentProviders } from '../payment-options/payment-options-inquiry.contract';
import { API_OPERATIONS } from '../operations/registry';
import { ref, type JsonSchema } from './json-schema';
import { tokenResponseSchemas } from './token-paths';
import {
  amount,
  currency,
  dateTime,
  object,
  oneOfValues,
  ORDER_STATUSES,
  text,
} from './response-schemas';

/**
 * Response schemas of the merchant paths beside the operations: payment sessions, the order list,
 * the webhook delivery log, Check Gateway and Payment Options Inquiry. They follow what the
 * gateway renders (apps/gateway: session.response.ts, list-orders.query.ts, the delivery store,
 * payment-options.ts); the end-to-end generated-client test reads real answers through them.
 */

const array = (description: string, items: JsonSchema): JsonSchema => ({
  type: 'array',
  description,
  items,
});
const integer = (description: string): JsonSchema => ({ type: 'integer', description });
const merchant = text(1, 40, 'The {merchantId} of the path');
const success = oneOfValues(['SUCCESS'], 'Always SUCCESS');

/** libs/webhooks DELIVERY_STATUSES (a test keeps them equal: the contract does not load SQLite). */
export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'DEAD_LETTERED'];

const checkGateway = object(
  'The gateway answers',
  {
    status: oneOfValues(['OPERATING'], 'OPERATING: the gateway can process transactions'),
    gatewayVersion: text(1, 50, 'Version of the gateway software'),
  },
  ['status', 'gatewayVersion'],
);

const session = object(
  'A payment session: the fields stored in it (card number masked, never the security code) beside these',
  {
    correlationId: text(1, 100, 'The correlationId of the request, echoed'),
    merchant,
    result: success,
    session: object(
      'The session',
      {
        aes256Key: {
          type: 'string',
          contentEncoding: 'base64',
          description: 'Key of encryptedData for this session: shown once, by Create Session',
        },
        id: text(31, 35, 'The session id, to cite as session.id'),
        updateStatus: oneOfValues(['NO_UPDATE', 'SUCCESS'], 'SUCCESS after an update'),
        version: text(10, 10, 'Changes with every update; send it as session.version to lock'),
      },
      ['id', 'updateStatus', 'version'],
    ),
    successIndicator: text(
      16,
      40,
      "A checkout session's only: the resultIndicator the payment page returns with after a successful payment. Keep it on the server",
    ),
  },
  ['merchant', 'result', 'session'],
);

const orderSummary = object(
  'One order of the list',
  {
    id: text(1, 40, 'The order id'),
    status: oneOfValues(ORDER_STATUSES, 'Status of the order'),
    currency: currency('Currency of the order, ISO 4217'),
    totalAuthorizedAmount: amount('Amount authorized and not voided'),
    totalCapturedAmount: amount('Amount captured and not voided'),
    totalRefundedAmount: amount('Amount refunded and not voided'),
    totalChargebackAmount: amount('Amount the acquirer took back; present once it took any'),
    creationTime: dateTime('When the order was created'),
    lastUpdatedTime: dateTime('When the order last changed'),
    transactionCount: integer('Transactions of the order'),
  },
  ['id', 'status', 'creationTime', 'lastUpdatedTime', 'transactionCount'],
);

const orderList = object(
  "The merchant's orders, newest first",
  {
    merchant,
    order: array('One page of orders', ref('OrderSummary')),
    nextCursor: {
      type: 'string',
      description: 'Pass as cursor for the next page; absent on the last',
    },
  },
  ['merchant', 'order'],
);

const delivery = object(
  'A webhook notification and how its delivery went',
  {
    id: text(1, 100, 'The X-Notification-Id and webhook-id, stable across attempts'),
    merchantId: merchant,
    orderId: text(1, 40, 'The order the notification is about'),
    transactionId: text(1, 40, 'The transaction that changed the order'),
    eventType: { type: 'string', description: 'The order event' },
    url: { type: 'string', format: 'uri', description: 'Where it is sent: order.notificationUrl' },
    status: oneOfValues(DELIVERY_STATUSES, 'PENDING until delivered or dead-lettered'),
    attempts: integer('Attempts made'),
    createdAt: dateTime('When the notification was recorded'),
    nextAttemptAt: dateTime('When a PENDING delivery is tried next'),
    deliveredAt: dateTime('When a 2xx answer arrived'),
    lastStatusCode: integer("The receiver's last HTTP status"),
    lastError: { type: 'string', description: 'Why the last attempt failed' },
  },
  [
    'id',
    'merchantId',
    'orderId',
    'transactionId',
    'eventType',
    'url',
    'status',
    'attempts',
    'createdAt',
  ],
);

const deliveryDetail: JsonSchema = {
  description: 'A delivery with every attempt',
  allOf: [
    ref('WebhookDelivery'),
    object(
      'Its attempts',
      {
        attemptLog: array(
          'Every attempt, first first',
          object(
            'One attempt',
            {
              attempt: integer('1, 2, …: the X-Notification-Attempt sent'),
              startedAt: dateTime('When it was sent'),
              latencyMs: { type: 'number', description: 'Until the answer, in milliseconds' },
              statusCode: integer("The receiver's HTTP status"),
              outcome: oneOfValues(['DELIVERED', 'FAILED'], 'DELIVERED on a 2xx within 15 s'),
              error: { type: 'string', description: 'Why it failed' },
            },
            ['attempt', 'startedAt', 'latencyMs', 'outcome'],
          ),
        ),
      },
      ['attemptLog'],
    ),
  ],
};

const deliveryPage = object(
  'Deliveries, newest first',
  {
    deliveries: array('One page', ref('WebhookDelivery')),
    next: { type: 'string', description: 'Pass as before for the next page; absent on the last' },
  },
  ['deliveries'],
);

const redelivered = object(
  'Dead-lettered deliveries queued again',
  { redelivered: integer('How many') },
  ['redelivered'],
);

const conversionOffer = object(
  'Dynamic currency conversion offered to the payer: cite requestId with uptake ACCEPTED to take it',
  {
    exchangeRateTime: dateTime('When the exchange rate was published'),
    marginPercentage: { type: 'number', description: 'Margin included in the rate, percent' },
    payerAmount: amount('The amount in the payer currency'),
    payerCurrency: currency("The card's currency, ISO 4217"),
    payerExchangeRate: {
      type: 'number',
      description: 'Payer currency per unit of the order currency, margin included',
    },
    provider: oneOfValues(['DCC_PROVIDER_A', 'DCC_PROVIDER_B'], 'Currency conversion provider'),
    requestId: text(1, 100, 'The quote: currencyConversion.requestId'),
  },
  [
    'exchangeRateTime',
    'marginPercentage',
    'payerAmount',
    'payerCurrency',
    'payerExchangeRate',
    'provider',
    'requestId',
  ],
);

const paymentOptions = object(
  'What the merchant may use, and a currency-conversion offer for a foreign card',
  {
    correlationId: text(1, 100, 'The correlationId of the request, echoed'),
    currencies: array(
      'Currencies accepted',
      object('A currency', { currency: currency('ISO 4217') }, ['currency']),
    ),
    currencyConversion: conversionOffer,
    merchant,
    paymentTypes: object(
      'Payment types accepted',
      {
        browserPayment: array(
          'Browser payment providers',
          object('A provider', { type: oneOfValues(browserPaymentProviders(), 'Provider') }, [
            'type',
          ]),
        ),
        card: object(
          'Cards',
          {
            cardTypes: array(
              'Card types accepted',
              object(
                'A card type',
                {
                  brand: { type: 'string', description: 'Card brand' },
                  scheme: { type: 'string', description: 'Card scheme' },
                  fundingMethod: oneOfValues(
                    ['CHARGE', 'CREDIT', 'DEBIT', 'UNKNOWN'],
                    'How cards of the type are funded',
                  ),
                },
                ['brand', 'scheme', 'fundingMethod'],
              ),
            ),
          },
          ['cardTypes'],
        ),
      },
      ['browserPayment', 'card'],
    ),
    result: success,
    supportedPaymentOperations: array(
      'Operations the merchant may use',
      object('An operation', { operation: oneOfValues(API_OPERATIONS, 'The apiOperation') }, [
        'operation',
      ]),
    ),
    transactionSource: oneOfValues(['INTERNET'], 'Source of transactions by default'),
  },
  [
    'currencies',
    'merchant',
    'paymentTypes',
    'result',
    'supportedPaymentOperations',
    'transactionSource',
  ],
);

export function merchantResponseSchemas(): Record<string, JsonSchema> {
  return {
    CheckGatewayResponse: checkGateway,
    SessionResponse: session,
    OrderSummary: orderSummary,
    OrderListResponse: orderList,
    WebhookDelivery: delivery,
    WebhookDeliveryDetail: deliveryDetail,
    WebhookDeliveryPage: deliveryPage,
    RedeliveredCount: redelivered,
    PaymentOptionsInquiryResponse: paymentOptions,
    ...tokenResponseSchemas(),
  };
}
