import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import createClient from 'openapi-fetch';
import {
  basicAuth,
  MERCHANTS,
  projectionCaughtUp,
  startGateway,
  type RunningGateway,
} from '../../support/gateway-process';
import type { components, paths } from './generated/gateway-api';

/**
 * Issue 14: a client generated from the gateway's own OpenAPI document drives it. The types in
 * generated/gateway-api.ts are what `openapi-typescript` makes of the served /api/openapi.json
 * (then formatted by the project's Prettier); the first test regenerates them from the running
 * gateway and fails when they differ, so the committed file is always the document's. This file
 * is type-checked (`npm run typecheck`) against them: a request or a field the document does not
 * declare is a type error. UPDATE_GENERATED_CLIENT=1 rewrites the file instead of failing.
 */
const ROOT = resolve(__dirname, '../../..');
const GENERATED = join(__dirname, 'generated/gateway-api.ts');
const CLI = join(ROOT, 'node_modules/openapi-typescript/bin/cli.js');
const PRETTIER = join(ROOT, 'node_modules/prettier/bin/prettier.cjs');

type Schemas = components['schemas'];

let gateway: RunningGateway;
let client: ReturnType<typeof createClient<paths>>;
beforeAll(async () => {
  gateway = await startGateway();
  client = createClient<paths>({
    baseUrl: gateway.baseUrl,
    headers: { Authorization: basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT) },
  });
});
afterAll(() => gateway.stop());

/** What openapi-typescript's CLI makes of the served document, as a user runs it. */
function generateFromServedDocument(): string {
  const out = join(mkdtempSync(join(tmpdir(), 'openapi-client-')), 'gateway-api.ts');
  execFileSync(process.execPath, [CLI, `${gateway.baseUrl}/api/openapi.json`, '-o', out], {
    stdio: 'pipe',
  });
  return execFileSync(process.execPath, [PRETTIER, '--stdin-filepath', relative(ROOT, GENERATED)], {
    cwd: ROOT,
    input: readFileSync(out),
    encoding: 'utf8',
  });
}

const v = { version: 100, merchantId: 'TESTMERCHANT' } as const;
const order = `generated-${Date.now()}`;

type PutTransaction =
  paths['/api/rest/version/{version}/merchant/{merchantId}/order/{orderId}/transaction/{transactionId}']['put'];
type TransactionBody = PutTransaction['requestBody']['content']['application/json'];

/** PAY as transaction 1 of the order `orderId`. */
const payOnce = (orderId: string, body: Omit<TransactionBody, 'apiOperation'>) =>
  client.PUT(
    '/api/rest/version/{version}/merchant/{merchantId}/order/{orderId}/transaction/{transactionId}',
    {
      params: { path: { ...v, orderId, transactionId: '1' } },
      body: { ...body, apiOperation: 'PAY' } as TransactionBody,
    },
  );

describe('a client generated from /api/openapi.json', () => {
  it('is the committed one: regenerating from the served document changes nothing', () => {
    const generated = generateFromServedDocument();
    if (process.env.UPDATE_GENERATED_CLIENT === '1') writeFileSync(GENERATED, generated);
    expect(generated).toBe(readFileSync(GENERATED, 'utf8'));
  });

  it('checks the gateway, without credentials', async () => {
    const anonymous = createClient<paths>({ baseUrl: gateway.baseUrl });
    const { data, response } = await anonymous.GET('/api/rest/version/{version}/information', {
      params: { path: { version: 100 } },
    });
    expect(response.status).toBe(200);
    expect(data?.status).toBe('OPERATING');
    expect(typeof data?.gatewayVersion).toBe('string');
  });

  it('creates a session, stores a card in it, AUTHORIZEs citing it, CAPTUREs, and reads the order back', async () => {
    const created = await client.POST('/api/rest/version/{version}/merchant/{merchantId}/session', {
      params: { path: v },
    });
    expect(created.response.status).toBe(201);
    const sessionId = created.data!.session.id;

    const card: Schemas['UpdateSessionRequest'] = {
      sourceOfFunds: {
        type: 'CARD',
        provided: {
          card: { number: '5123450000000008', expiry: { month: '1', year: '39' } },
        },
      },
    };
    const updated = await client.PUT(
      '/api/rest/version/{version}/merchant/{merchantId}/session/{sessionId}',
      { params: { path: { ...v, sessionId } }, body: card },
    );
    expect(updated.data?.session.updateStatus).toBe('SUCCESS');

    const transaction =
      '/api/rest/version/{version}/merchant/{merchantId}/order/{orderId}/transaction/{transactionId}';
    const authorized = await client.PUT(transaction, {
      params: { path: { ...v, orderId: order, transactionId: 'auth-1' } },
      body: {
        apiOperation: 'AUTHORIZE',
        order: { amount: '100.00', currency: 'USD' },
        session: { id: sessionId },
      },
    });
    expect(authorized.response.status).toBe(201);
    expect(authorized.data?.result).toBe('SUCCESS');
    expect(authorized.data?.response.gatewayCode).toBe('APPROVED');
    expect(authorized.data?.sourceOfFunds?.provided?.card?.number).toBe('512345xxxxxx0008');

    const captured = await client.PUT(transaction, {
      params: { path: { ...v, orderId: order, transactionId: 'capture-1' } },
      // The document types a decimal as a string or a number: the generated client may send either.
      body: { apiOperation: 'CAPTURE', transaction: { amount: 60, currency: 'USD' } },
    });
    expect(captured.data?.transaction.type).toBe('CAPTURE');

    const retrieved = await client.GET(
      '/api/rest/version/{version}/merchant/{merchantId}/order/{orderId}',
      { params: { path: { ...v, orderId: order } } },
    );
    expect(retrieved.data).toMatchObject({
      id: order,
      status: 'PARTIALLY_CAPTURED',
      totalAuthorizedAmount: 100,
      totalCapturedAmount: 60,
    });
    expect(retrieved.data?.transaction.map((t) => t.transaction.id)).toEqual([
      'auth-1',
      'capture-1',
    ]);
  });

  it('lists the orders', async () => {
    await projectionCaughtUp(gateway);
    const { data } = await client.GET('/api/rest/version/{version}/merchant/{merchantId}/order', {
      params: { path: v, query: { status: 'PARTIALLY_CAPTURED', limit: 10 } },
    });
    expect(data?.order.find((o) => o.id === order)).toMatchObject({
      status: 'PARTIALLY_CAPTURED',
      totalCapturedAmount: 60,
      transactionCount: 2,
    });
  });

  it('raises an authorization with UPDATE_AUTHORIZATION, then captures the new total', async () => {
    const transaction =
      '/api/rest/version/{version}/merchant/{merchantId}/order/{orderId}/transaction/{transactionId}';
    const path = (transactionId: string) => ({
      params: { path: { ...v, orderId: `${order}-update`, transactionId } },
    });
    await client.PUT(transaction, {
      ...path('auth-1'),
      body: {
        apiOperation: 'AUTHORIZE',
        order: { amount: '100.00', currency: 'USD' },
        sourceOfFunds: {
          type: 'CARD',
          provided: { card: { number: '5123450000000008', expiry: { month: '1', year: '39' } } },
        },
      },
    });
    const updated = await client.PUT(transaction, {
      ...path('update-1'),
      body: { apiOperation: 'UPDATE_AUTHORIZATION', transaction: { amount: 150, currency: 'USD' } },
    });
    expect(updated.response.status).toBe(201);
    expect(updated.data?.transaction.type).toBe('AUTHORIZATION_UPDATE');
    expect(updated.data?.order.totalAuthorizedAmount).toBe(150);
    const captured = await client.PUT(transaction, {
      ...path('capture-1'),
      body: { apiOperation: 'CAPTURE', transaction: { amount: '150.00', currency: 'USD' } },
    });
    expect(captured.data?.order.status).toBe('CAPTURED');
  });

  it('pays on an agreement: the first PAY establishes it, a later one cites it by id', async () => {
    const transaction =
      '/api/rest/version/{version}/merchant/{merchantId}/order/{orderId}/transaction/{transactionId}';
    const pay = (orderId: string, agreement: Schemas['Agreement']) =>
      client.PUT(transaction, {
        params: { path: { ...v, orderId, transactionId: 'pay-1' } },
        body: {
          apiOperation: 'PAY',
          agreement,
          order: { amount: '25.00', currency: 'USD' },
          sourceOfFunds: {
            type: 'CARD',
            provided: { card: { number: '5123450000000008', expiry: { month: '1', year: '39' } } },
          },
        },
      });
    const id = `${order}-agreement`;
    const first = await pay(`${order}-first`, { id, type: 'RECURRING' });
    expect(first.data?.result).toBe('SUCCESS');
    const later = await pay(`${order}-later`, { id });
    expect(later.data?.agreement).toEqual({ id, type: 'RECURRING' });
  });

  it('inquires the payment options, with a currency-conversion offer for a foreign card', async () => {
    const { data, response } = await client.POST(
      '/api/rest/version/{version}/merchant/{merchantId}/paymentOptionsInquiry',
      {
        params: { path: v },
        body: {
          order: { amount: 100, currency: 'USD' },
          sourceOfFunds: { provided: { card: { number: 4012000033330026 } } },
        },
      },
    );
    expect(response.status).toBe(200);
    expect(data?.result).toBe('SUCCESS');
    expect(data?.currencyConversion).toMatchObject({ payerCurrency: 'EUR', payerAmount: 94.76 });
    expect(data?.paymentTypes.card.cardTypes.length).toBeGreaterThan(0);

    const paid = await payOnce(`${order}-dcc`, {
      order: { amount: '100.00', currency: 'USD' },
      sourceOfFunds: {
        type: 'CARD',
        provided: { card: { number: '4012000033330026', expiry: { month: '1', year: '39' } } },
      },
      currencyConversion: {
        requestId: data?.currencyConversion?.requestId,
        uptake: 'ACCEPTED',
        payerAmount: '94.76',
        payerCurrency: 'EUR',
      },
    });
    expect(paid.response.status).toBe(201);
    const conversion: Schemas['TransactionResponse']['currencyConversion'] =
      paid.data?.currencyConversion;
    expect(conversion).toMatchObject({ payerAmount: 94.76, uptake: 'ACCEPTED' });
  });

  it('saves a card as a token, reads it back and deletes it', async () => {
    const path = '/api/rest/version/{version}/merchant/{merchantId}/token/{tokenId}' as const;
    const params = { path: { ...v, tokenId: `gen${Date.now()}` } };
    const saved = await client.PUT(path, {
      params,
      body: {
        sourceOfFunds: {
          type: 'CARD',
          provided: { card: { number: '5123450000000008', expiry: { month: '1', year: '39' } } },
        },
        verificationStrategy: 'BASIC',
      },
    });
    expect(saved.response.status).toBe(201);
    const token: Schemas['TokenResponse'] | undefined = saved.data;
    expect(token?.sourceOfFunds.provided.card.number).toBe('512345xxxxxx0008');
    expect(token?.response.gatewayCode).toBe('BASIC_VERIFICATION_SUCCESSFUL');
    const read = await client.GET(path, { params });
    expect(read.data?.status).toBe('VALID');
    const deleted = await client.DELETE(path, { params });
    expect(deleted.data?.result).toBe('SUCCESS');
    expect((await client.GET(path, { params })).response.status).toBe(404);
  });

  it('issues a token (POST …/token) and pays with it', async () => {
    const issued = await client.POST('/api/rest/version/{version}/merchant/{merchantId}/token', {
      params: { path: v },
      body: {
        sourceOfFunds: {
          type: 'CARD',
          provided: { card: { number: '4508750015741019', expiry: { month: '1', year: '39' } } },
        },
      },
    });
    expect(issued.response.status).toBe(201);
    const token = issued.data?.token;
    expect(token).toMatch(/^9\d{11}1019$/);
    const paid = await payOnce(`${order}-token`, {
      order: { amount: '10.00', currency: 'USD' },
      sourceOfFunds: { type: 'CARD', token },
    });
    expect(paid.response.status).toBe(201);
    expect(paid.data?.sourceOfFunds?.token).toBe(token);
    expect(paid.data?.response.gatewayCode).toBe('APPROVED');
  });

  it('reads the webhook delivery log, and gets refusals as the typed error object', async () => {
    const deliveries = await client.GET(
      '/api/rest/version/{version}/merchant/{merchantId}/webhook/delivery',
      { params: { path: v, query: { limit: 5 } } },
    );
    expect(deliveries.response.status).toBe(200);
    expect(Array.isArray(deliveries.data?.deliveries)).toBe(true);

    const missing = await client.GET(
      '/api/rest/version/{version}/merchant/{merchantId}/order/{orderId}',
      { params: { path: { ...v, orderId: 'no-such-order' } } },
    );
    expect(missing.response.status).toBe(404);
    const error: Schemas['ErrorResponse'] | undefined = missing.error;
    expect(error?.error.cause).toBe('INVALID_REQUEST');
  });
});
