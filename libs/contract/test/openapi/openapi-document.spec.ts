import 'reflect-metadata';
import {
  allContracts,
  API_OPERATIONS,
  buildOpenApiDocument,
  MAX_VERSION,
  MIN_VERSION,
  resolveContract,
  type Field,
  type LeafRule,
} from '@gateway/contract';
import { TRANSACTION_TYPES } from '@gateway/domain';
import { deref, requestBodySchema, shapesOf, shapeSchemaFor } from './document-shapes';
import { resolvePointer, violations, type Schema } from './json-schema-subset';

/**
 * The generated document checked as OpenAPI 3.1 on the points that matter (no validator package
 * is installed), and against the contract: every field of every shape, walked side by side.
 */

const doc = buildOpenApiDocument() as Schema;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function everyNode(node: unknown, visit: (node: Schema, at: string) => void, at = '#'): void {
  if (node === null || typeof node !== 'object') return;
  visit(node as Schema, at);
  for (const [key, child] of Object.entries(node)) everyNode(child, visit, `${at}/${key}`);
}

function operations(): { path: string; method: string; operation: Schema }[] {
  return Object.entries<Schema>(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, operation: item[method] })),
  );
}

describe('the document is OpenAPI 3.1', () => {
  test('version, info, paths and components are there', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(typeof doc.info.title).toBe('string');
    expect(typeof doc.info.version).toBe('string');
    for (const path of Object.keys(doc.paths)) expect(path).toMatch(/^\//);
    for (const name of Object.keys(doc.components.schemas))
      expect(name).toMatch(/^[a-zA-Z0-9._-]+$/);
  });

  test('it is plain JSON and the same on every call; serverUrl adds a server', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(JSON.stringify(buildOpenApiDocument())).toBe(JSON.stringify(doc));
    expect(doc.servers).toBeUndefined();
    expect(buildOpenApiDocument({ serverUrl: 'https://gw.example' }).servers).toEqual([
      { url: 'https://gw.example' },
    ]);
  });

  test('a caller changing its copy does not change the next one', () => {
    const mine = buildOpenApiDocument() as Schema;
    mine.components.schemas.ErrorResponse.properties.result.enum.push('OOPS');
    expect(JSON.stringify(buildOpenApiDocument())).toBe(JSON.stringify(doc));
  });

  test('every $ref resolves', () => {
    const refs: string[] = [];
    everyNode(doc, (node) => typeof node.$ref === 'string' && refs.push(node.$ref));
    expect(refs.length).toBeGreaterThan(50);
    expect(refs.filter((r) => resolvePointer(doc, r) === undefined)).toEqual([]);
  });

  test('every pattern is a valid unicode-mode regular expression', () => {
    const patterns: string[] = [];
    everyNode(doc, (node) => typeof node.pattern === 'string' && patterns.push(node.pattern));
    for (const pattern of patterns) expect(() => new RegExp(pattern, 'u')).not.toThrow();
  });

  test('operations have unique ids, described responses, and declare every path parameter', () => {
    const ids = operations().map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, operation } of operations()) {
      const item = doc.paths[path];
      const declared = [...(item.parameters ?? []), ...(operation.parameters ?? [])]
        .map((p: Schema) => deref(doc, p))
        .filter((p: Schema) => p.in === 'path');
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(declared.map((p: Schema) => p.name).sort()).toEqual([...templated].sort());
      for (const p of declared) expect(p.required).toBe(true);
      for (const answer of Object.values<Schema>(operation.responses))
        expect(typeof deref(doc, answer).description).toBe('string');
    }
  });

  test('every merchant endpoint, with its success and error answers', () => {
    const seen = operations().map(({ path, method, operation }) => ({
      route: `${method.toUpperCase()} ${path}`,
      statuses: Object.keys(operation.responses).sort(),
    }));
    const merchant = '/api/rest/version/{version}/merchant/{merchantId}';
    const order = `${merchant}/order/{orderId}`;
    const errors = ['400', '401', '404', '429', '500', '503'];
    const noneFound = ['400', '401', '429', '500', '503'];
    expect(seen).toEqual([
      { route: `GET ${order}`, statuses: ['200', ...errors] },
      { route: `GET ${order}/transaction/{transactionId}`, statuses: ['200', ...errors] },
      {
        route: `PUT ${order}/transaction/{transactionId}`,
        statuses: ['201', '400', '401', '403', '404', '429', '500', '503'],
      },
      { route: `POST ${merchant}/session`, statuses: ['201', ...noneFound] },
      { route: `GET ${merchant}/session/{sessionId}`, statuses: ['200', ...errors] },
      { route: `PUT ${merchant}/session/{sessionId}`, statuses: ['200', ...errors] },
      { route: `GET ${merchant}/order`, statuses: ['200', ...noneFound] },
      { route: `GET ${merchant}/events`, statuses: ['200', ...noneFound] },
      { route: `GET ${merchant}/webhook/delivery`, statuses: ['200', ...noneFound] },
      { route: `GET ${merchant}/webhook/delivery/{deliveryId}`, statuses: ['200', ...errors] },
      {
        route: `POST ${merchant}/webhook/delivery/{deliveryId}/redeliver`,
        statuses: ['202', ...errors],
      },
      {
        route: `POST ${merchant}/webhook/delivery/redeliverDeadLettered`,
        statuses: ['202', ...noneFound],
      },
      {
        route: `POST ${merchant}/paymentOptionsInquiry`,
        statuses: ['200', '400', '401', '403', '429', '500', '503'],
      },
      {
        route: 'GET /api/rest/version/{version}/information',
        statuses: ['200', '400', '500', '503'],
      },
      { route: `POST ${merchant}/token`, statuses: ['201', '400', '401', '429', '500', '503'] },
      {
        route: `GET ${merchant}/token/{tokenId}`,
        statuses: ['200', '400', '401', '404', '429', '500', '503'],
      },
      {
        route: `PUT ${merchant}/token/{tokenId}`,
        statuses: ['200', '201', '400', '401', '429', '500', '503'],
      },
      {
        route: `DELETE ${merchant}/token/{tokenId}`,
        statuses: ['200', '400', '401', '404', '429', '500', '503'],
      },
    ]);
  });

  test('path parameters follow the spec', () => {
    const param = (name: string) => doc.components.parameters[name].schema;
    expect(param('merchantId').pattern).toBe('^[0-9A-Za-z_-]{1,40}$');
    expect(param('orderId')).toMatchObject({ type: 'string', minLength: 1, maxLength: 40 });
    expect(param('transactionId')).toMatchObject({ type: 'string', minLength: 1, maxLength: 40 });
    expect(param('version')).toEqual({
      type: 'integer',
      minimum: MIN_VERSION,
      maximum: MAX_VERSION,
    });
  });

  test('security: certificate or HTTP Basic authentication on every operation but Check Gateway', () => {
    const schemes = doc.components.securitySchemes;
    expect(
      Object.values(schemes)
        .map((s: any) => s.type)
        .sort(),
    ).toEqual(['http', 'mutualTLS']);
    const basic = Object.entries<Schema>(schemes).find(([, s]) => s.type === 'http')!;
    expect(basic[1].scheme).toBe('basic');
    const certificate = Object.entries<Schema>(schemes).find(([, s]) => s.type === 'mutualTLS')!;
    expect(doc.security).toEqual([{ [certificate[0]]: [] }, { [basic[0]]: [] }]);
    for (const { operation } of operations())
      expect(operation.security).toEqual(operation.operationId === 'checkGateway' ? [] : undefined);
  });
});

describe('the request body covers every operation and version of the registry', () => {
  const body = deref(doc, requestBodySchema(doc));

  test('one of the operations, discriminated by apiOperation', () => {
    expect(body.discriminator.propertyName).toBe('apiOperation');
    expect(Object.keys(body.discriminator.mapping)).toEqual([...API_OPERATIONS]);
    expect(body.oneOf.map((s: Schema) => s.$ref)).toEqual(
      Object.values(body.discriminator.mapping),
    );
    for (const member of body.oneOf) expect(deref(doc, member).required).toContain('apiOperation');
  });

  test('the operation+version schemas are named after their shape', () => {
    for (const name of [
      'Authorize_v39',
      'Verify_v16',
      'Verify_v29',
      'Refund_v26',
      'Refund_v41',
      'Pay',
    ])
      expect(doc.components.schemas[name]).toBeDefined();
  });

  test.each(API_OPERATIONS.map((op) => [op]))('%s: each version 1-100 finds its shape', (op) => {
    const shapes = shapesOf(doc, op);
    for (let version = MIN_VERSION; version <= MAX_VERSION; version++) {
      const serving = shapes.filter(
        (s) => s['x-gateway-versions'].from <= version && version <= s['x-gateway-versions'].to,
      );
      expect(serving).toHaveLength(1);
      expect(serving[0]['x-gateway-versions'].shown).toBe(
        resolveContract(op, version)!.version ?? null,
      );
    }
    expect(shapes).toHaveLength(allContracts.filter((c) => c.apiOperation === op).length);
  });
});

/** JSON equality, order included (enum values must come in the contract's order). */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The keywords a leaf rule must produce; `ANY` where only the presence of a pattern is asserted. */
const ANY = Symbol('any');
function expectedLeaf(rule: LeafRule): Record<string, unknown> {
  const lengths = (min: number, max: number) => ({ minLength: min, maxLength: max });
  switch (rule.kind) {
    case 'string':
      return {
        type: 'string',
        ...lengths(rule.min, rule.max),
        ...(rule.pattern ? { pattern: rule.pattern } : {}),
      };
    case 'ascii':
    case 'alphanumeric':
      return { type: 'string', ...lengths(rule.min, rule.max), pattern: ANY };
    case 'digits':
      return {
        type: ['string', 'integer'],
        ...lengths(rule.min, rule.max),
        pattern: ANY,
        minimum: Math.max(rule.range?.min ?? 0, rule.min > 1 ? 10 ** (rule.min - 1) : 0),
        ...(rule.range?.max !== undefined ? { maximum: rule.range.max } : {}),
        ...(rule.range
          ? { 'x-gateway-range': { minimum: rule.range.min, maximum: rule.range.max } }
          : {}),
      };
    case 'decimal':
      return {
        type: ['string', 'number'],
        ...lengths(1, 14),
        pattern: ANY,
        minimum: rule.allowNegative ? -1e12 : 0,
        maximum: 1e12,
      };
    case 'integer':
      return {
        type: ['integer', 'string'],
        minimum: rule.min,
        maximum: rule.max,
        pattern: ANY,
        'x-gateway-range': { minimum: rule.min, maximum: rule.max },
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return { type: 'string', enum: rule.values };
    case 'enumList':
      return { type: 'string', pattern: ANY, 'x-gateway-list-values': rule.values };
    case 'alpha3Upper':
      return { type: 'string', ...lengths(3, 3), pattern: ANY };
    case 'date':
      return { type: 'string', format: 'date', pattern: ANY };
    case 'dateTime':
      return { type: 'string', format: 'date-time', pattern: ANY };
    case 'httpsUrl':
      return { type: 'string', format: 'uri', minLength: 12, pattern: ANY };
    case 'email':
      return { type: 'string', format: 'email', minLength: 4 };
    case 'base64':
      return {
        type: 'string',
        contentEncoding: 'base64',
        pattern: ANY,
        ...(rule.lengths.length === 1
          ? lengths(rule.lengths[0], rule.lengths[0])
          : { anyOf: rule.lengths.map((l) => lengths(l, l)) }),
      };
  }
}

/** Records where `schema` has other keywords, or other values, than `expected`. */
function keywords(
  schema: Schema,
  expected: Record<string, unknown>,
  path: string,
  problems: string[],
) {
  for (const [keyword, value] of Object.entries(expected)) {
    const ok = value === ANY ? typeof schema[keyword] === 'string' : same(schema[keyword], value);
    if (!ok) problems.push(`${path}: ${keyword} is ${JSON.stringify(schema[keyword])}`);
  }
  const extra = Object.keys(schema).filter((k) => !(k in expected));
  if (extra.length > 0) problems.push(`${path}: unexpected ${extra.join(', ')}`);
}

/** Differences between a field and its schema, as `path: what`; members are compared recursively. */
function compare(field: Field, schema: Schema, path: string, problems: string[]): void {
  const s = deref(doc, schema);
  switch (field.kind) {
    case 'group': {
      const names = Object.keys(field.fields);
      const required = names.filter((n) => field.fields[n].required);
      const isShape = s['x-gateway-versions'] !== undefined;
      keywords(
        s,
        {
          type: 'object',
          description: field.description,
          properties: s.properties,
          additionalProperties: false,
          ...(required.length > 0 ? { required } : {}),
          ...(field.checks ? { 'x-gateway-rules': s['x-gateway-rules'] } : {}),
          ...(isShape ? { title: ANY, 'x-gateway-versions': s['x-gateway-versions'] } : {}),
        },
        path,
        problems,
      );
      if (field.checks && s['x-gateway-rules']?.length !== field.checks.length)
        problems.push(`${path}: one rule in words per cross-field check`);
      if (!same(Object.keys(s.properties ?? {}), names)) problems.push(`${path}: members`);
      for (const name of names)
        if (s.properties?.[name])
          compare(
            field.fields[name],
            s.properties[name],
            path ? `${path}.${name}` : name,
            problems,
          );
      return;
    }
    case 'array':
      keywords(
        s,
        { type: 'array', description: field.description, maxItems: field.maxItems, items: s.items },
        path,
        problems,
      );
      compare(field.of, s.items, `${path}[]`, problems);
      return;
    case 'map':
      keywords(
        s,
        {
          type: 'object',
          description: field.description,
          propertyNames: { pattern: field.keyPattern },
          additionalProperties: s.additionalProperties,
          ...(field.maxKeys !== undefined ? { maxProperties: field.maxKeys } : {}),
          ...(field.maxTotalBytes !== undefined
            ? { 'x-gateway-max-total-bytes': field.maxTotalBytes }
            : {}),
        },
        path,
        problems,
      );
      keywords(s.additionalProperties, expectedLeaf(field.value), `${path}.*`, problems);
      return;
    default:
      keywords(
        s,
        {
          ...expectedLeaf(field),
          description: field.description,
          ...(field.sensitive ? { 'x-gateway-sensitive': true } : {}),
        },
        path,
        problems,
      );
  }
}

describe.each(
  allContracts.map((c) => [`${c.apiOperation} ${c.version ?? '(all versions)'}`, c] as const),
)('the schema of %s', (_, contract) => {
  test('has every field at its path with the constraints of its rule', () => {
    const problems: string[] = [];
    compare(contract.body, shapeSchemaFor(doc, contract), '', problems);
    expect(problems).toEqual([]);
  });
});

test('cross-field rules read as the validator applies them', () => {
  const authorize = doc.components.schemas.Authorize_v39;
  expect(authorize['x-gateway-rules']).toEqual([
    'At least one of sourceOfFunds, session.id is required',
    'currencyConversion.payerCurrency must differ from order.currency',
  ]);
  expect(deref(doc, authorize.properties.order)['x-gateway-rules']).toEqual([
    'amount equals itemAmount + taxAmount + shippingAndHandlingAmount - discount.amount when any of itemAmount, taxAmount, shippingAndHandlingAmount is given',
    'itemAmount equals the sum over item of quantity x unitPrice, when itemAmount and some item.unitPrice are given',
    'taxAmount equals the sum over item of quantity x unitTaxAmount, when taxAmount and some item.unitTaxAmount are given',
  ]);
});

describe('responses', () => {
  const schemas = doc.components.schemas;

  test('the error object has the spec’s causes and validation types', () => {
    const error = schemas.ErrorResponse.properties.error;
    expect(error.properties.cause.enum).toEqual([
      'INVALID_REQUEST',
      'REQUEST_REJECTED',
      'SERVER_BUSY',
      'SERVER_FAILED',
    ]);
    expect(error.properties.validationType.enum).toEqual(['INVALID', 'MISSING']);
    expect(error.required).toEqual(['cause']);
  });

  test.each([
    ['InvalidRequest', 'INVALID_REQUEST'],
    ['Unauthorized', 'INVALID_REQUEST'],
    ['Rejected', 'REQUEST_REJECTED'],
    ['NotFound', 'INVALID_REQUEST'],
    ['ServerFailed', 'SERVER_FAILED'],
    ['ServerBusy', 'SERVER_BUSY'],
  ])('%s examples conform to the error schema, cause %s', (name, cause) => {
    const content = doc.components.responses[name].content['application/json'];
    const examples = Object.values<Schema>(content.examples);
    expect(examples.length).toBeGreaterThan(0);
    for (const { value } of examples) {
      expect(violations(doc, content.schema, value)).toEqual([]);
      expect(value.error.cause).toBe(cause);
    }
  });

  test('503 tells when to retry', () => {
    expect(doc.components.responses.ServerBusy.headers['Retry-After']).toBeDefined();
  });

  test('transaction responses: result, gateway codes, order status and totals, transaction types', () => {
    const response = schemas.TransactionResponse;
    expect(response.additionalProperties).toBeUndefined();
    expect(response.properties.result.enum).toEqual(['FAILURE', 'PENDING', 'SUCCESS', 'UNKNOWN']);
    expect(response.properties.response.properties.gatewayCode.enum).toHaveLength(28);
    const order = deref(doc, response.properties.order);
    expect(order.properties.status.enum).toEqual(
      expect.arrayContaining(['AUTHORIZED', 'CAPTURED', 'REFUNDED', 'VERIFIED']),
    );
    for (const total of ['totalAuthorizedAmount', 'totalCapturedAmount', 'totalRefundedAmount'])
      expect(order.properties[total]).toMatchObject({
        type: 'number',
        minimum: 0,
        maximum: 1e12,
        multipleOf: 0.001,
      });
    const types = deref(doc, response.properties.transaction).properties.type.enum;
    expect(types).toEqual(expect.arrayContaining([...TRANSACTION_TYPES]));
  });

  test('a gateway response conforms', () => {
    const answer = {
      gatewayEntryPoint: 'WEB_SERVICES_API',
      merchant: 'TEST01',
      order: {
        amount: 10.5,
        creationTime: '2024-05-01T10:00:00.000Z',
        currency: 'USD',
        id: 'o-1',
        status: 'AUTHORIZED',
        totalAuthorizedAmount: 10.5,
        totalCapturedAmount: 0,
        totalRefundedAmount: 0,
      },
      response: { gatewayCode: 'APPROVED', acquirerCode: '00' },
      result: 'SUCCESS',
      sourceOfFunds: {
        type: 'CARD',
        provided: { card: { number: '512345xxxxxx0008', expiry: { month: '1', year: '39' } } },
      },
      timeOfRecord: '2024-05-01T10:00:00.000Z',
      transaction: {
        amount: 10.5,
        currency: 'USD',
        id: 't-1',
        source: 'INTERNET',
        type: 'AUTHORIZATION',
      },
      version: '100',
    };
    expect(violations(doc, schemas.TransactionResponse, answer)).toEqual([]);
    const retrieved = {
      ...answer.order,
      merchant: 'TEST01',
      result: 'SUCCESS',
      transaction: [answer],
    };
    expect(violations(doc, schemas.OrderResponse, retrieved)).toEqual([]);
    expect(violations(doc, schemas.TransactionResponse, { ...answer, result: 'ERROR' })).toEqual([
      '$.result: enum',
    ]);
  });
});
