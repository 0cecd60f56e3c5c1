import { responseSchemas } from '@gateway/contract';
import { ORDER_EVENT_SPEC_VERSION } from '@gateway/order-events';
import { ORDER_EVENT_TYPES } from './public-order-event';

type Schema = Record<string, unknown>;

/** The members of the event's `order` (renderOrderStatus), as Retrieve Order names them. */
const ORDER_STATUS_FIELDS = [
  'id',
  'amount',
  'currency',
  'status',
  'authenticationStatus',
  'creationTime',
  'lastUpdatedTime',
  'notificationUrl',
  'totalAuthorizedAmount',
  'totalCapturedAmount',
  'totalRefundedAmount',
  'totalChargebackAmount',
] as const;
const OPTIONAL_ORDER_FIELDS = new Set<string>([
  'authenticationStatus',
  'notificationUrl',
  'totalChargebackAmount',
]);

const DESCRIPTION = `Every change to an order, as consumers see it: on the Kafka topic, on the merchant's live feed and, as its \`transaction\` member, in webhook notifications. Built from the gateway's stored events, never the stored events themselves: the API's names and decimal amounts (JSON numbers, as in every response), the transaction exactly as Retrieve Transaction (GET …/order/{orderId}/transaction/{transactionId}) shows it to the same credentials, the order's status and totals right after the change. Kafka and webhooks have no credentials: they show what a GET under Basic authentication shows (cards masked to the stricter of the merchant's setting and 6.4). Never a full card number, card fingerprint, request hash, sealed bank data or processor record.

Delivery is at least once: de-duplicate on eventId (a repeat is the same event). Per order, events arrive in revision order; a redelivery may repeat earlier revisions, never skip one. specVersion ${ORDER_EVENT_SPEC_VERSION}; another shape gets another number (version 1 carried the stored event).`;

const text = (description: string, extra: Schema = {}): Schema => ({
  type: 'string',
  minLength: 1,
  description,
  ...extra,
});

/** The event's `order`: Retrieve Order's own fields, no others. */
function orderStatusSchema(responseOrder: Schema): Schema {
  const properties = responseOrder.properties as Record<string, Schema>;
  return {
    type: 'object',
    description:
      'The order right after the event: its status and totals, as Retrieve Order shows them',
    properties: Object.fromEntries(ORDER_STATUS_FIELDS.map((field) => [field, properties[field]])),
    required: ORDER_STATUS_FIELDS.filter((field) => !OPTIONAL_ORDER_FIELDS.has(field)),
    additionalProperties: false,
  };
}

const orderEventSchema: Schema = {
  type: 'object',
  description: 'The public order event',
  properties: {
    specVersion: { const: ORDER_EVENT_SPEC_VERSION, description: 'The shape of this event' },
    eventId: text('Unique per event, the same on every redelivery: de-duplicate on it'),
    type: {
      type: 'string',
      enum: Object.keys(ORDER_EVENT_TYPES),
      description: Object.entries(ORDER_EVENT_TYPES)
        .map(([type, { description }]) => `${type}: ${description}`)
        .join('; '),
    },
    merchantId: text('The merchant', { pattern: '^[0-9A-Za-z_-]{1,40}$' }),
    orderId: text('The order (the {orderId} of the API paths)', { maxLength: 40 }),
    revision: {
      type: 'integer',
      minimum: 0,
      description: "The order's sequence number: 0 for its first event, then one more per event",
    },
    position: text(
      'Store-wide commit position, a decimal string (KurrentDB positions exceed 2^53): the live feed sends it as the event id',
      { pattern: '^[0-9]{1,20}$' },
    ),
    recordedAt: { type: 'string', format: 'date-time', description: 'When the store committed it' },
    order: { $ref: '#/components/schemas/OrderStatus' },
    transaction: {
      $ref: '#/components/schemas/TransactionResponse',
      description:
        'The transaction the event recorded or changed, as Retrieve Transaction shows it after the event; absent for OrderCreated and TransactionsSettled only',
    },
    settledTransactions: {
      type: 'array',
      minItems: 1,
      items: { $ref: '#/components/schemas/TransactionResponse' },
      description:
        'TransactionsSettled only: each transaction the acquirer settled, as Retrieve Transaction shows it after the event',
    },
  },
  required: [
    'specVersion',
    'eventId',
    'type',
    'merchantId',
    'orderId',
    'revision',
    'position',
    'recordedAt',
    'order',
  ],
  additionalProperties: false,
  // An if/else chain, not oneOf: the AsyncAPI parser takes half as long again over a oneOf.
  if: { properties: { type: { const: 'OrderCreated' } } },
  then: { not: { anyOf: [{ required: ['transaction'] }, { required: ['settledTransactions'] }] } },
  else: {
    if: { properties: { type: { const: 'TransactionsSettled' } } },
    then: { required: ['settledTransactions'], not: { required: ['transaction'] } },
    else: { required: ['transaction'], not: { required: ['settledTransactions'] } },
  },
};

const headerText = (description: string): Schema => ({ type: 'string', description });

const kafkaHeaders: Schema = {
  type: 'object',
  properties: {
    'event-id': headerText('= eventId'),
    'event-type': headerText('= type'),
    'stream-revision': headerText('= revision, in decimal'),
    'global-position': headerText('= position'),
    'merchant-id': headerText('= merchantId'),
    'spec-version': headerText('= specVersion, in decimal'),
  },
  required: [
    'event-id',
    'event-type',
    'stream-revision',
    'global-position',
    'merchant-id',
    'spec-version',
  ],
};

const webhookHeaders: Schema = {
  type: 'object',
  properties: {
    'X-Notification-Id': headerText('The eventId of the event notified: the same on every attempt'),
    'X-Notification-Secret': headerText("The merchant's notification secret"),
    'X-Notification-Attempt': headerText('1, 2, … (still counting after a redelivery)'),
    'webhook-id': headerText('Standard Webhooks: = X-Notification-Id'),
    'webhook-timestamp': headerText('Standard Webhooks: seconds, of this attempt'),
    'webhook-signature': headerText(
      'Standard Webhooks: v1,base64(HMAC-SHA256(notification secret, "{webhook-id}.{webhook-timestamp}.{body}"))',
    ),
  },
  required: ['X-Notification-Id', 'X-Notification-Attempt', 'webhook-id', 'webhook-signature'],
};

const event = { $ref: '#/components/schemas/OrderEvent' };

/**
 * The AsyncAPI 3 document of the order events, served at /api/asyncapi.json. Its schemas of the
 * transaction and the order come from the contract's response schemas, the ones
 * /api/openapi.json publishes for GET; event types from ORDER_EVENT_TYPES, which the builder
 * reads. A fresh copy on every call.
 */
export function buildOrderEventsAsyncApi(): Schema {
  const { TransactionResponse, ResponseOrder } = responseSchemas();
  return structuredClone({
    asyncapi: '3.0.0',
    info: {
      title: 'Payment gateway order events',
      version: String(ORDER_EVENT_SPEC_VERSION),
      description: DESCRIPTION,
    },
    defaultContentType: 'application/json',
    channels: {
      orderEventsTopic: {
        address: 'gateway.order-events',
        title: 'Kafka topic (GATEWAY_BUS=kafka)',
        description:
          'KAFKA_TOPIC (default gateway.order-events). Record key {merchantId}:{orderId}, so one order stays on one partition and in order; value the event as UTF-8 JSON.',
        messages: { orderEventRecord: { $ref: '#/components/messages/orderEventRecord' } },
      },
      liveFeed: {
        address: '/api/rest/version/{version}/merchant/{merchantId}/events',
        title: 'Live feed (server-sent events)',
        description:
          "GET with the merchant's credentials: text/event-stream of the merchant's own events, each frame id: position, event: type, data: the event. Last-Event-ID (a position this feed sent; 0 for the start) resumes right after it; a position beyond the newest event is a 400 naming Last-Event-ID. The stream ends when its credentials stop being valid (password rotated, certificate changed, merchant disabled): reconnecting then needs the new credentials.",
        parameters: {
          version: { description: 'API version' },
          merchantId: { description: 'The merchant whose events are streamed' },
        },
        messages: { orderEvent: { $ref: '#/components/messages/orderEvent' } },
      },
      webhook: {
        address: null,
        title: "The order's notificationUrl",
        description:
          "An HTTPS POST to order.notificationUrl for every event that records a transaction or a step of one, or an acquirer's news of one: an outcome learnt, a dispute, a chargeback (not OrderCreated, AuthorizationReversed, AcquirerInquired or TransactionsSettled). The body is the event's transaction member, serialised as in the event.",
        messages: { notification: { $ref: '#/components/messages/notification' } },
      },
    },
    operations: {
      publishOrderEvents: {
        action: 'send',
        channel: { $ref: '#/channels/orderEventsTopic' },
        messages: [{ $ref: '#/channels/orderEventsTopic/messages/orderEventRecord' }],
      },
      streamOrderEvents: {
        action: 'send',
        channel: { $ref: '#/channels/liveFeed' },
        security: [
          { $ref: '#/components/securitySchemes/merchantCertificate' },
          { $ref: '#/components/securitySchemes/merchantPassword' },
        ],
        messages: [{ $ref: '#/channels/liveFeed/messages/orderEvent' }],
      },
      notify: {
        action: 'send',
        channel: { $ref: '#/channels/webhook' },
        messages: [{ $ref: '#/channels/webhook/messages/notification' }],
      },
    },
    components: {
      messages: {
        orderEventRecord: {
          name: 'orderEvent',
          title: 'Order event (Kafka record)',
          headers: kafkaHeaders,
          payload: event,
        },
        orderEvent: {
          name: 'orderEvent',
          title: 'Order event (feed frame data)',
          payload: event,
        },
        notification: {
          name: 'notification',
          title: 'Webhook notification',
          headers: webhookHeaders,
          payload: { $ref: '#/components/schemas/TransactionResponse' },
        },
      },
      schemas: {
        OrderEvent: orderEventSchema,
        OrderStatus: orderStatusSchema(ResponseOrder),
        TransactionResponse,
      },
      securitySchemes: {
        merchantPassword: {
          type: 'http',
          scheme: 'basic',
          description:
            "User merchant.{merchantId}, the merchant's API password: cards masked to the stricter of the merchant's setting and 6.4",
        },
        merchantCertificate: {
          type: 'X509',
          description:
            "The merchant's TLS client certificate: cards masked to the merchant's own setting",
        },
      },
    },
  });
}
