import type { OperationContract } from '../model/field';
import { MAX_VERSION } from '../operations/registry';
import { paymentOptionsInquiryContract } from '../payment-options/payment-options-inquiry.contract';
import {
  createCheckoutSessionContract,
  initiateCheckoutContract,
} from '../session/checkout-session.contract';
import { createSessionContract } from '../session/create-session.contract';
import { updateSessionContract } from '../session/update-session.contract';
import { saveCardContract } from '../token/save-card.contract';
import type { ErrorStatus } from './error-responses';
import { json, param, ref, type JsonSchema } from './json-schema';
import { DELIVERY_STATUSES } from './merchant-schemas';
import { ORDER_STATUSES } from './response-schemas';
import { tokenParameter, tokenPaths } from './token-paths';

/**
 * The merchant paths beside the transaction operations: payment sessions, the order list, the live
 * feed, the webhook delivery log, Payment Options Inquiry and Check Gateway. A test lists the
 * gateway's routes and fails when one of its merchant paths is missing here.
 */

/** The request bodies of these paths, by component name, from their contracts. */
export const MERCHANT_REQUESTS: Readonly<Record<string, OperationContract>> = {
  CreateSessionRequest: createSessionContract,
  InitiateCheckoutRequest: initiateCheckoutContract,
  CreateCheckoutSessionRequest: createCheckoutSessionContract,
  UpdateSessionRequest: updateSessionContract,
  PaymentOptionsInquiryRequest: paymentOptionsInquiryContract,
  SaveCardRequest: saveCardContract,
};

const VERSION = '/api/rest/version/{version}';
const MERCHANT = `${VERSION}/merchant/{merchantId}`;

export type Errors = (...statuses: ErrorStatus[]) => Record<string, JsonSchema>;

/** The parameters every path under MERCHANT has. */
const IN_MERCHANT = [param('version'), param('merchantId')];

const body = (name: string, description: string) => ({
  required: false,
  description,
  content: { 'application/json': { schema: ref(name) } },
});

const parameter =
  (where: 'path' | 'query') => (name: string, description: string, schema: JsonSchema) => ({
    name,
    in: where,
    required: where === 'path',
    description,
    schema,
  });
/** A path parameter: always required. */
export const pathParameter = parameter('path');
const query = parameter('query');

/** Path parameters of these paths, beside the operations' (document.ts). */
export function merchantParameters(): Record<string, JsonSchema> {
  const path = pathParameter;
  return {
    sessionId: path('sessionId', 'As Create Session returned it', {
      type: 'string',
      minLength: 31,
      maxLength: 35,
    }),
    deliveryId: path('deliveryId', 'The id of a webhook delivery (its X-Notification-Id)', {
      type: 'string',
      minLength: 1,
    }),
    tokenId: tokenParameter,
  };
}

const limit = (max: number, fallback: number) => ({
  type: 'integer',
  minimum: 1,
  maximum: max,
  default: fallback,
});

function sessionPaths(errors: Errors): Record<string, JsonSchema> {
  return {
    [`${MERCHANT}/session`]: {
      parameters: IN_MERCHANT,
      post: {
        operationId: 'createSession',
        tags: ['Sessions'],
        summary: 'Create a payment session, or a checkout session',
        description:
          'An empty session with its own AES-256 key. It needs no field: an empty body (none, or Content-Length 0) is the empty object. With apiOperation INITIATE_CHECKOUT (CREATE_CHECKOUT_SESSION below version 63), a checkout session for the payment page (docs/hosted-checkout.md), answered with successIndicator instead of the key.',
        requestBody: {
          required: false,
          description: 'Optional',
          content: {
            'application/json': {
              schema: {
                oneOf: [
                  ref('CreateSessionRequest'),
                  ref('InitiateCheckoutRequest'),
                  ref('CreateCheckoutSessionRequest'),
                ],
              },
            },
          },
        },
        responses: {
          '201': json('The new session, with its key or its successIndicator', 'SessionResponse'),
          ...errors('400', '401', '429', '500', '503'),
        },
      },
    },
    [`${MERCHANT}/session/{sessionId}`]: {
      parameters: [...IN_MERCHANT, param('sessionId')],
      put: {
        operationId: 'updateSession',
        tags: ['Sessions'],
        summary: 'Store card, order and payer fields in a payment session',
        description:
          "Also from the payer's device (the mobile SDKs, API version 50 and above): Basic credentials merchant.{merchantId} with the session id as the password, for this one session while it lives.",
        requestBody: { ...body('UpdateSessionRequest', 'The fields to store'), required: true },
        responses: {
          '200': json('The session as now stored', 'SessionResponse'),
          ...errors('400', '401', '404', '429', '500', '503'),
        },
      },
      get: {
        operationId: 'retrieveSession',
        tags: ['Sessions'],
        summary: 'Retrieve a payment session, its card masked',
        responses: {
          '200': json('The session', 'SessionResponse'),
          ...errors('400', '401', '404', '429', '500', '503'),
        },
      },
    },
  };
}

function orderPaths(errors: Errors): Record<string, JsonSchema> {
  return {
    [`${MERCHANT}/order`]: {
      parameters: IN_MERCHANT,
      get: {
        operationId: 'listOrders',
        tags: ['Orders'],
        summary: "List the merchant's orders, newest first",
        description:
          'From the order read model: an order shows here shortly after its transaction was answered. Unknown query parameters are refused.',
        parameters: [
          query('status', 'Only orders in this status', {
            type: 'string',
            enum: [...ORDER_STATUSES],
          }),
          query('from', 'Created at or after: an ISO 8601 date, or date-time with a zone', {
            type: 'string',
          }),
          query('to', 'Created before; later than from', { type: 'string' }),
          query('limit', 'Orders per page', limit(100, 20)),
          query('cursor', 'The nextCursor of the previous page', { type: 'string' }),
        ],
        responses: {
          '200': json('One page of orders', 'OrderListResponse'),
          ...errors('400', '401', '429', '500', '503'),
        },
      },
    },
    [`${MERCHANT}/events`]: {
      parameters: IN_MERCHANT,
      get: {
        operationId: 'orderEventFeed',
        tags: ['Orders'],
        summary: "The merchant's own order events, live, as server-sent events",
        description:
          'Each event has `id:` (its global position) and `data:` (the public order event: the AsyncAPI document at /api/asyncapi.json, channel liveFeed). Resumes after Last-Event-ID; ends when the credentials lapse.',
        parameters: [
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            description: 'Resume after this event id; absent: from now',
            schema: { type: 'string', pattern: '^[0-9]{1,20}$' },
          },
        ],
        responses: {
          '200': {
            description: 'The event stream; it stays open',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          ...errors('400', '401', '429', '500', '503'),
        },
      },
    },
  };
}

function webhookPaths(errors: Errors): Record<string, JsonSchema> {
  const base = `${MERCHANT}/webhook/delivery`;
  return {
    [base]: {
      parameters: IN_MERCHANT,
      get: {
        operationId: 'listWebhookDeliveries',
        tags: ['Webhooks'],
        summary: "The merchant's webhook deliveries, newest first",
        parameters: [
          query('status', 'Only deliveries in this status', {
            type: 'string',
            enum: DELIVERY_STATUSES,
          }),
          query('limit', 'Deliveries per page', limit(100, 20)),
          query('before', 'The next of the previous page', {
            type: 'string',
            pattern: '^[0-9]{1,15}$',
          }),
        ],
        responses: {
          '200': json('One page of deliveries', 'WebhookDeliveryPage'),
          ...errors('400', '401', '429', '500', '503'),
        },
      },
    },
    [`${base}/{deliveryId}`]: {
      parameters: [...IN_MERCHANT, param('deliveryId')],
      get: {
        operationId: 'showWebhookDelivery',
        tags: ['Webhooks'],
        summary: 'One delivery with every attempt',
        responses: {
          '200': json('The delivery', 'WebhookDeliveryDetail'),
          ...errors('400', '401', '404', '429', '500', '503'),
        },
      },
    },
    [`${base}/{deliveryId}/redeliver`]: {
      parameters: [...IN_MERCHANT, param('deliveryId')],
      post: {
        operationId: 'redeliverWebhook',
        tags: ['Webhooks'],
        summary: 'Send a delivery again, whatever its status',
        responses: {
          '202': json('Queued again', 'WebhookDelivery'),
          ...errors('400', '401', '404', '429', '500', '503'),
        },
      },
    },
    [`${base}/redeliverDeadLettered`]: {
      parameters: IN_MERCHANT,
      post: {
        operationId: 'redeliverDeadLetteredWebhooks',
        tags: ['Webhooks'],
        summary: 'Send every dead-lettered delivery again',
        responses: {
          '202': json('How many were queued again', 'RedeliveredCount'),
          ...errors('400', '401', '429', '500', '503'),
        },
      },
    },
  };
}

function gatewayPaths(errors: Errors): Record<string, JsonSchema> {
  return {
    [`${MERCHANT}/paymentOptionsInquiry`]: {
      parameters: IN_MERCHANT,
      post: {
        operationId: 'paymentOptionsInquiry',
        tags: ['Payment options'],
        summary: 'What the merchant may use, and a currency-conversion offer for a foreign card',
        description:
          'Records nothing. It needs no field: an empty body (none, or Content-Length 0) is the empty object. With a card (sent or from session.id), order.amount and order.currency, a card in another currency gets currencyConversion.',
        requestBody: body('PaymentOptionsInquiryRequest', 'Optional'),
        responses: {
          '200': json('The options', 'PaymentOptionsInquiryResponse'),
          ...errors('400', '401', '403', '429', '500', '503'),
        },
      },
    },
    [`${VERSION}/information`]: {
      parameters: [param('version')],
      get: {
        operationId: 'checkGateway',
        tags: ['Gateway'],
        summary: 'Check Gateway: whether the gateway is operating, and its version',
        description: `No credentials. 503 SERVER_BUSY (retry after Retry-After) while the gateway cannot record transactions. Versions 1-${MAX_VERSION}.`,
        security: [],
        responses: {
          '200': json('Operating', 'CheckGatewayResponse'),
          ...errors('400', '500', '503'),
        },
      },
    },
  };
}

/** Every merchant path beside the operations', with `errors` giving the error answers. */
export function merchantPaths(errors: Errors): Record<string, JsonSchema> {
  return {
    ...sessionPaths(errors),
    ...orderPaths(errors),
    ...webhookPaths(errors),
    ...gatewayPaths(errors),
    ...tokenPaths(errors),
  };
}
