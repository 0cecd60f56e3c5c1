import { request as httpRequest } from 'node:http';
import {
  authorizeBody,
  basicAuth,
  MERCHANTS,
  merchantClient,
  useGateway,
} from '../support/gateway-process';

const under = useGateway();

const raw = (path: string, init: RequestInit) =>
  fetch(`${under.gateway.baseUrl}${path}`, {
    ...init,
    headers: { authorization: basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT), ...init.headers },
  });

function expectInvalidRequest(
  response: { status: number; body: any },
  field?: string,
  validationType?: string,
) {
  expect(response.status).toBe(400);
  expect(response.body.result).toBe('ERROR');
  expect(response.body.error.cause).toBe('INVALID_REQUEST');
  expect(response.body.error.explanation).toEqual(expect.any(String));
  if (field) expect(response.body.error).toMatchObject({ field, validationType });
}

describe('bad input gets a precise error and changes nothing', () => {
  it.each([
    ['malformed JSON', '{"apiOperation": "AUTHORIZE",'],
    ['a JSON array', '[1,2,3]'],
    ['a JSON string', '"AUTHORIZE"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['an empty body', ''],
    ['prototype poisoning', '{"apiOperation":"AUTHORIZE","__proto__":{"admin":true}}'],
  ])('%s', async (_, body) => {
    const response = await under.api.put('/order/bad-1/transaction/t1', body);
    expectInvalidRequest(response);
    expect((await under.api.get('/order/bad-1')).status).toBe(404);
  });

  it('a body without a content type is still read as JSON', async () => {
    const response = await raw(
      '/api/rest/version/100/merchant/TESTMERCHANT/order/ct-1/transaction/t1',
      { method: 'PUT', body: JSON.stringify(authorizeBody()) },
    );
    expect(response.status).toBe(201);
  });

  it('a 10 MB body is refused without harm', async () => {
    const big = JSON.stringify({
      ...authorizeBody(),
      order: { amount: '1.00', currency: 'USD', description: 'x'.repeat(10 * 1024 * 1024) },
    });
    const answer = await new Promise<{ status: number; body: any }>((done, fail) => {
      const request = httpRequest(under.api.url('/order/big-1/transaction/t1'), {
        method: 'PUT',
        headers: {
          authorization: basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT),
          'content-type': 'application/json',
        },
      });
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () =>
          done({ status: response.statusCode ?? 0, body: JSON.parse(text) }),
        );
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') fail(error);
      });
      request.end(big);
    });
    expectInvalidRequest(answer);
    expect(answer.body.error.explanation).toMatch(/^The request body is too large/);
    expect((await under.api.put('/order/big-2/transaction/t1', authorizeBody())).status).toBe(201);
  });

  it('an unknown apiOperation names the field', async () => {
    expectInvalidRequest(
      await under.api.put('/order/op-1/transaction/t1', {
        ...authorizeBody(),
        apiOperation: 'STEAL',
      }),
      'apiOperation',
      'INVALID',
    );
  });

  it('a missing apiOperation is MISSING', async () => {
    const { apiOperation: _, ...body } = authorizeBody();
    expectInvalidRequest(
      await under.api.put('/order/op-2/transaction/t1', body),
      'apiOperation',
      'MISSING',
    );
  });

  it('a wrong type names the field', async () => {
    expectInvalidRequest(
      await under.api.put('/order/ty-1/transaction/t1', {
        ...authorizeBody(),
        order: { amount: true, currency: 'USD' },
      }),
      'order.amount',
      'INVALID',
    );
  });

  it('an invalid card number is refused without echoing it', async () => {
    const body = authorizeBody();
    body.sourceOfFunds.provided.card.number = '5123450000000009';
    const response = await under.api.put('/order/card-1/transaction/t1', body);
    expectInvalidRequest(response, 'sourceOfFunds.provided.card.number', 'INVALID');
    expect(response.text).not.toContain('5123450000000009');
  });

  it.each(['0', '101', 'abc', '-1'])('API version %s is refused', async (version) => {
    const response = await raw(
      `/api/rest/version/${version}/merchant/TESTMERCHANT/order/v-1/transaction/t1`,
      {
        method: 'PUT',
        body: JSON.stringify(authorizeBody()),
        headers: { 'content-type': 'application/json' },
      },
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { cause: string } }).error.cause).toBe(
      'INVALID_REQUEST',
    );
  });

  it('an order id over 40 characters is refused', async () => {
    expectInvalidRequest(
      await under.api.put(`/order/${'o'.repeat(41)}/transaction/t1`, authorizeBody()),
      'order.id',
      'INVALID',
    );
  });

  it('a malformed URL gets the error object, not the framework default', async () => {
    const response = await raw(
      '/api/rest/version/100/merchant/TESTMERCHANT/order/%E0%A4%A/transaction/t1',
      { method: 'PUT', body: '{}' },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      result: 'ERROR',
      error: { cause: 'INVALID_REQUEST', explanation: 'The request URL is not valid' },
    });
  });

  it('unknown paths, orders and transactions answer 404 with the error object', async () => {
    for (const response of [
      await under.api.get('/order/never-made'),
      await under.api.get('/order/never-made/transaction/t1'),
      await under.api.get('/nothing-here'),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ result: 'ERROR', error: { cause: 'INVALID_REQUEST' } });
    }
  });

  it('no answer carries a stack trace or SQL', async () => {
    const responses = await Promise.all([
      under.api.put('/order/x/transaction/t1', '{'),
      under.api.put('/order/x/transaction/t1', {
        apiOperation: 'CAPTURE',
        transaction: { amount: '1', currency: 'USD' },
      }),
      under.api.get('/order/%00'),
    ]);
    for (const r of responses)
      expect(r.text).not.toMatch(/\bat .+\(|SQLITE|sqlite|SELECT|INSERT|stack/i);
  });
});

describe('HTTP Basic authentication', () => {
  const path = '/api/rest/version/100/merchant/TESTMERCHANT/order/auth-1';

  it.each([
    ['no credentials', undefined],
    ['a wrong password', basicAuth('TESTMERCHANT', 'wrong')],
    ["another merchant's credentials", basicAuth('TESTOTHER', MERCHANTS.TESTOTHER)],
    [
      'a user without the merchant. prefix',
      `Basic ${Buffer.from(`TESTMERCHANT:${MERCHANTS.TESTMERCHANT}`).toString('base64')}`,
    ],
    ['a malformed header', 'Basic !!!'],
  ])('%s answers 401', async (_, authorization) => {
    const response = await fetch(`${under.gateway.baseUrl}${path}`, {
      headers: authorization ? { authorization } : {},
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      result: 'ERROR',
      error: { cause: 'INVALID_REQUEST', explanation: 'Invalid credentials.' },
    });
  });

  it("a merchant never sees another merchant's order", async () => {
    const mine = await under.api.put('/order/private-1/transaction/t1', authorizeBody());
    expect(mine.status).toBe(201);
    const other = merchantClient(under.gateway, 'TESTOTHER');
    expect((await other.get('/order/private-1')).status).toBe(404);
    // The other merchant may use the same order id for an order of its own.
    expect(
      (await other.put('/order/private-1/transaction/t1', authorizeBody('5.00'))).body.order
        .totalAuthorizedAmount,
    ).toBe(5);
    expect((await under.api.get('/order/private-1')).body.totalAuthorizedAmount).toBe(100);
  });

  it('a merchant that is not a test merchant has no acquirer link here: 403 REQUEST_REJECTED', async () => {
    const live = merchantClient(under.gateway, 'LIVEMERCHANT');
    const response = await live.put('/order/live-1/transaction/t1', authorizeBody());
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({
      cause: 'REQUEST_REJECTED',
      supportCode: expect.any(String),
    });
  });
});
