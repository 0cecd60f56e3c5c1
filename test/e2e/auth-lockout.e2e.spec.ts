import {
  authorizeBody,
  basicAuth,
  MERCHANTS,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { rawRequest } from '../support/raw-http';

/**
 * Failed authentications are counted per merchant id and per client address; three within two
 * seconds lock either out for two seconds. Requests come from several loopback addresses
 * (127.0.0.x), so the two counts can be told apart.
 */
describe('authentication lockout', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway(undefined, {
      GATEWAY_AUTH_MAX_FAILURES: '3',
      GATEWAY_AUTH_LOCKOUT: '2',
    });
  });
  afterAll(() => gateway?.stop());

  const order = (merchant: string, path = '/order/lockout-none') =>
    `${gateway.baseUrl}/api/rest/version/100/merchant/${merchant}${path}`;
  const get = (merchant: string, password: string, from: string) =>
    rawRequest(order(merchant), {
      method: 'GET',
      headers: { authorization: basicAuth(merchant, password) },
      localAddress: from,
    });
  const INVALID = {
    result: 'ERROR',
    error: { cause: 'INVALID_REQUEST', explanation: 'Invalid credentials.' },
  };
  const lockedOut = (answer: { status: number; headers: Record<string, unknown>; body: unknown }) =>
    answer.status === 401 &&
    Number(answer.headers['retry-after']) >= 1 &&
    Number(answer.headers['retry-after']) <= 2 &&
    JSON.stringify(answer.body) === JSON.stringify(INVALID);

  it('locks out a client address after repeated failures: then even the right password gets 401', async () => {
    const from = '127.0.0.2';
    for (let i = 0; i < 3; i++) {
      const failure = await get('TESTMERCHANT', 'wrong', from);
      expect(failure.status).toBe(401);
      expect(failure.headers['retry-after']).toBeUndefined();
    }
    expect(lockedOut(await get('TESTMERCHANT', MERCHANTS.TESTMERCHANT, from))).toBe(true);
    // The address is locked for every merchant...
    expect(lockedOut(await get('TESTOTHER', MERCHANTS.TESTOTHER, from))).toBe(true);
    // ...and a payment sent while locked out is not made.
    const refused = await rawRequest(
      order('TESTOTHER', '/order/lockout-pay/transaction/1'),
      {
        method: 'PUT',
        headers: { authorization: basicAuth('TESTOTHER', MERCHANTS.TESTOTHER) },
        localAddress: from,
      },
      JSON.stringify(authorizeBody()),
    );
    expect(refused.status).toBe(401);
    // Other addresses are not affected (TESTOTHER's own count is below the limit).
    expect((await get('TESTOTHER', MERCHANTS.TESTOTHER, '127.0.0.3')).status).toBe(404);

    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await get('TESTMERCHANT', MERCHANTS.TESTMERCHANT, from)).status).toBe(404);
    const payment = await rawRequest(order('TESTOTHER', '/order/lockout-pay'), {
      method: 'GET',
      headers: { authorization: basicAuth('TESTOTHER', MERCHANTS.TESTOTHER) },
    });
    expect(payment.status).toBe(404);
  });

  it('locks out a merchant id guessed at from many addresses', async () => {
    for (const from of ['127.0.0.4', '127.0.0.5', '127.0.0.6'])
      expect((await get('LIVEMERCHANT', 'guess', from)).status).toBe(401);
    expect(lockedOut(await get('LIVEMERCHANT', MERCHANTS.LIVEMERCHANT, '127.0.0.7'))).toBe(true);
    // Those addresses may still reach other merchants.
    expect((await get('TESTMERCHANT', MERCHANTS.TESTMERCHANT, '127.0.0.4')).status).toBe(404);
  });

  it('a success resets the count', async () => {
    const from = '127.0.0.8';
    for (let round = 0; round < 3; round++) {
      expect((await get('TESTOTHER', 'wrong', from)).status).toBe(401);
      expect((await get('TESTOTHER', 'wrong', from)).status).toBe(401);
      expect((await get('TESTOTHER', MERCHANTS.TESTOTHER, from)).status).toBe(404);
    }
  });

  it('counts lockouts in the metrics', async () => {
    const metrics = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
    const refused = /gateway_requests_refused_total\{reason="locked_out"\} (\d+)/.exec(metrics);
    expect(Number(refused?.[1])).toBeGreaterThanOrEqual(4);
  });
});
