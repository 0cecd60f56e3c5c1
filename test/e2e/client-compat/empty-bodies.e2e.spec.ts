import { basicAuth, MERCHANTS, merchantClient, useGateway } from '../../support/gateway-process';
import { sendRawBytes, type RawAnswer } from '../../support/raw-http';

/**
 * Issue 14, point 6: an empty body on an operation that needs no field (Create Session, Payment
 * Options Inquiry) is the empty object, however the client leaves the body out: no body and no
 * length, `Content-Length: 0` without a Content-Type, a JSON Content-Type with nothing after it, or
 * a chunked body of no chunks. Sent as raw bytes, because the HTTP stack is the point.
 */
const under = useGateway();
const AUTH = basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT);
const BASE = '/api/rest/version/100/merchant/TESTMERCHANT';

const EMPTY_BODIES: Record<string, string[]> = {
  'no body, no Content-Length, no Content-Type': [],
  'Content-Length: 0, no Content-Type': ['Content-Length: 0'],
  'Content-Type: application/json, Content-Length: 0': [
    'Content-Type: application/json',
    'Content-Length: 0',
  ],
  "curl's form default, Content-Length: 0": [
    'Content-Type: application/x-www-form-urlencoded',
    'Content-Length: 0',
  ],
  'a chunked body of no chunks': [
    'Content-Type: application/json; charset=utf-8',
    'Transfer-Encoding: chunked',
  ],
};

function send(method: string, path: string, headers: string[]): Promise<RawAnswer> {
  const chunked = headers.some((h) => h.startsWith('Transfer-Encoding'));
  const head = [
    `${method} ${BASE}${path} HTTP/1.1`,
    `Host: ${new URL(under.gateway.baseUrl).host}`,
    `Authorization: ${AUTH}`,
    'Connection: close',
    ...headers,
  ];
  return sendRawBytes(
    under.gateway.baseUrl,
    `${head.join('\r\n')}\r\n\r\n${chunked ? '0\r\n\r\n' : ''}`,
  );
}

const NOT_JSON = {
  result: 'ERROR',
  error: { cause: 'INVALID_REQUEST', explanation: 'The request body is not valid JSON' },
};

describe.each(Object.entries(EMPTY_BODIES))('%s', (_name, headers) => {
  it('POST …/session creates a session', async () => {
    const answer = await send('POST', '/session', headers);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      merchant: 'TESTMERCHANT',
      result: 'SUCCESS',
      session: { id: expect.stringMatching(/^SESSION/), updateStatus: 'NO_UPDATE' },
    });
    // A real session: it can be retrieved.
    expect((await under.api.get(`/session/${answer.body.session.id}`)).status).toBe(200);
  });

  it('POST …/paymentOptionsInquiry answers the payment options', async () => {
    const answer = await send('POST', '/paymentOptionsInquiry', headers);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ merchant: 'TESTMERCHANT', result: 'SUCCESS' });
    expect(answer.body.currencyConversion).toBeUndefined();
  });
});

describe('everywhere else an empty body stays refused', () => {
  it('a PUT of a transaction with a JSON Content-Type and no body is not valid JSON', async () => {
    const answer = await send(
      'PUT',
      '/order/empty-1/transaction/1',
      EMPTY_BODIES['Content-Type: application/json, Content-Length: 0'],
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(NOT_JSON);
    expect((await under.api.get('/order/empty-1')).status).toBe(404);
  });

  it('a PUT of a transaction with no body at all names the missing apiOperation', async () => {
    const answer = await send('PUT', '/order/empty-2/transaction/1', ['Content-Length: 0']);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ cause: 'INVALID_REQUEST' });
    expect((await under.api.get('/order/empty-2')).status).toBe(404);
  });

  it('an Update Session with a JSON Content-Type and no body is not valid JSON', async () => {
    const created = await under.api.post('/session');
    const answer = await send(
      'PUT',
      `/session/${created.body.session.id}`,
      EMPTY_BODIES['Content-Type: application/json, Content-Length: 0'],
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(NOT_JSON);
  });

  it('a body over the limit is refused as too large on the empty-body routes too', async () => {
    const big = JSON.stringify({ correlationId: 'x'.repeat(300 * 1024) });
    const answer = await merchantClient(under.gateway).post('/paymentOptionsInquiry', big);
    expect(answer.status).toBe(400);
    expect(answer.body.error.explanation).toMatch(/^The request body is too large/);
  });

  it('a body that is not empty is judged as JSON on the empty-body routes too', async () => {
    const answer = await merchantClient(under.gateway).post('/paymentOptionsInquiry', '{');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(NOT_JSON);
    const blank = await merchantClient(under.gateway).post('/session', ' ');
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual(NOT_JSON);
  });
});
