import { allContracts, API_OPERATIONS, MAX_VERSION, MIN_VERSION } from '../operations/registry';
import { ERROR_RESPONSES, errorResponses, type ErrorStatus } from './error-responses';
import { json, param, ref, type JsonSchema } from './json-schema';
import {
  MERCHANT_REQUESTS,
  merchantParameters,
  merchantPaths,
  pathParameter,
} from './merchant-paths';
import { merchantResponseSchemas } from './merchant-schemas';
import { REQUEST_SCHEMA, requestSchemas, servedVersions, shapeName } from './request-schemas';
import { responseSchemas } from './response-schemas';

export interface OpenApiOptions {
  /** Base URL of the gateway; without it the document has no `servers` and paths are relative. */
  readonly serverUrl?: string;
}

const BASE = '/api/rest/version/{version}/merchant/{merchantId}/order/{orderId}';

const INFO_DESCRIPTION = `Generated from the request contract (libs/contract), the same data the gateway validates with.

Unknown fields are rejected (additionalProperties: false). Absent means absent: a null, and an object whose members are all absent, count as not supplied, for required and unknown fields alike; the schemas describe the values that are present.

Extensions: x-gateway-versions (the API versions a request shape serves), x-gateway-range (numeric bounds of a digit string), x-gateway-list-values (a comma-separated list of these values, each at most once), x-gateway-max-total-bytes (UTF-8 bytes of all values of a map together), x-gateway-sensitive (never echoed in errors), x-gateway-rules (rules across the fields of a group, paths relative to it).`;

/** Which shape serves which versions, per operation, from the registry. */
function versionTable(): string {
  return API_OPERATIONS.map((op) => {
    const shapes = allContracts
      .filter((c) => c.apiOperation === op)
      .map((c) => {
        const { from, to } = servedVersions(c);
        return `versions ${from}-${to}: ${shapeName(c)}`;
      });
    return `- ${op}: ${shapes.join('; ')}`;
  }).join('\n');
}

function putDescription(): string {
  return `Runs the operation named by apiOperation and records it as transaction {transactionId} of order {orderId}. Every outcome the acquirer gives (approved, declined, pending) is a 201; refusals are errors.

The version in the path selects the request shape: a request at version N uses the highest version shown for the operation that is not above N, or the lowest shown when N is below all of them. Versions outside ${MIN_VERSION}-${MAX_VERSION} are rejected.
${versionTable()}

Sending the identical request again (same path, same body) returns the original response; the same transaction id with a different body is rejected.`;
}

function errors(...statuses: ErrorStatus[]): Record<string, JsonSchema> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { $ref: `#/components/responses/${ERROR_RESPONSES[status]}` },
    ]),
  );
}

/** Retrievals are never refused for security reasons: 403 is the PUT's alone (no acquirer link). */
const RETRIEVAL_ERRORS: ErrorStatus[] = ['400', '401', '404', '429', '500', '503'];

function parameters(): Record<string, JsonSchema> {
  const path = pathParameter;
  return {
    version: path('version', 'API version; selects the request shape of the operation', {
      type: 'integer',
      minimum: MIN_VERSION,
      maximum: MAX_VERSION,
    }),
    merchantId: path('merchantId', 'The merchant; must be the one authenticated', {
      type: 'string',
      pattern: '^[0-9A-Za-z_-]{1,40}$',
    }),
    orderId: path('orderId', 'Chosen by the merchant, unique per order within the merchant', {
      type: 'string',
      minLength: 1,
      maxLength: 40,
    }),
    transactionId: path(
      'transactionId',
      'Chosen by the merchant, unique among the transactions of the order; a retry after a failure needs a new one',
      { type: 'string', minLength: 1, maxLength: 40 },
    ),
    ...merchantParameters(),
  };
}

function paths(): Record<string, JsonSchema> {
  const common = [param('version'), param('merchantId'), param('orderId')];
  return {
    [BASE]: {
      parameters: common,
      get: {
        operationId: 'retrieveOrder',
        tags: ['Orders'],
        summary: 'Retrieve an order with all its transactions',
        responses: {
          '200': json('The order', 'OrderResponse'),
          ...errors(...RETRIEVAL_ERRORS),
        },
      },
    },
    [`${BASE}/transaction/{transactionId}`]: {
      parameters: [...common, param('transactionId')],
      put: {
        operationId: 'runOperation',
        tags: ['Transactions'],
        summary:
          'Run an operation (authorize, pay, capture, refund, void, verify, 3-D Secure, browser payment)',
        description: putDescription(),
        requestBody: {
          required: true,
          description: 'Read as JSON whatever the Content-Type',
          content: { 'application/json': { schema: ref(REQUEST_SCHEMA) } },
        },
        responses: {
          '201': json('The operation was processed, whatever its outcome', 'TransactionResponse'),
          ...errors('400', '401', '403', '404', '429', '500', '503'),
        },
      },
      get: {
        operationId: 'retrieveTransaction',
        tags: ['Transactions'],
        summary: 'Retrieve one transaction, as the operation that created it answered',
        responses: {
          '200': json('The transaction', 'TransactionResponse'),
          ...errors(...RETRIEVAL_ERRORS),
        },
      },
    },
    ...merchantPaths(errors),
  };
}

const SECURITY_SCHEMES = {
  merchantPassword: {
    type: 'http',
    scheme: 'basic',
    description:
      "User 'merchant.' followed by the merchant id of the path, password the merchant's API password.",
  },
  merchantCertificate: {
    type: 'mutualTLS',
    description:
      "Certificate authentication: a TLS client certificate issued by the gateway's client CA and named in the merchant's configuration; no password is needed. responseControls.sensitiveData=UNMASK needs it (and the merchant's permission), and it selects the merchant's own card masking.",
  },
};

/**
 * The OpenAPI 3.1 document of the gateway, built from the contract registry. Pure: the same
 * document on every call, a fresh copy each time so that callers may change theirs.
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): JsonSchema {
  const responses = { ...responseSchemas(), ...merchantResponseSchemas() };
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Payment Gateway Transaction API',
      version: `${MIN_VERSION}-${MAX_VERSION}`,
      description: INFO_DESCRIPTION,
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ merchantCertificate: [] }, { merchantPassword: [] }],
    tags: [
      { name: 'Transactions', description: 'One PUT per operation; apiOperation selects it' },
      { name: 'Orders', description: 'Orders and their running totals, the list, the live feed' },
      {
        name: 'Sessions',
        description: 'Payment sessions: card and payer fields held for an order',
      },
      { name: 'Payment options', description: 'What the merchant may use; currency conversion' },
      { name: 'Webhooks', description: 'The webhook delivery log: inspect and redeliver' },
      { name: 'Gateway', description: 'Check Gateway' },
    ],
    paths: paths(),
    components: {
      schemas: { ...requestSchemas(Object.keys(responses), MERCHANT_REQUESTS), ...responses },
      parameters: parameters(),
      responses: errorResponses(),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
  return structuredClone(document);
}
