import {
  authorizeBody,
  basicAuth,
  makeDataDir,
  MERCHANTS,
  merchantClient,
  startGateway,
} from '../support/gateway-process';
import { openRequest } from '../support/raw-http';

const AUTHORIZATION = basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT);

/** An AUTHORIZE whose body is only half sent: in flight until the test sends the rest. */
async function halfSentAuthorize(url: string) {
  const body = JSON.stringify(authorizeBody());
  const request = await openRequest(
    url,
    {
      method: 'PUT',
      headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' },
    },
    body,
    body.slice(0, body.length / 2),
  );
  await new Promise((resolve) => setTimeout(resolve, 300)); // let the gateway take it
  return request;
}

describe('graceful shutdown', () => {
  it('on SIGTERM finishes the request in flight with its 201, makes it durable, and exits 0', async () => {
    const dataDir = await makeDataDir();
    const gateway = await startGateway(dataDir);
    const api = merchantClient(gateway);
    const inFlight = await halfSentAuthorize(api.url('/order/sigterm-1/transaction/1'));

    gateway.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // No new connections are taken while the request in flight finishes...
    await expect(fetch(`${gateway.baseUrl}/health/live`)).rejects.toThrow();
    expect(gateway.child.exitCode).toBeNull();

    const answer = await inFlight.finish();
    expect(answer.status).toBe(201);
    expect(answer.body.response.gatewayCode).toBe('APPROVED');
    expect(await gateway.stop()).toBe(0);
    expect(gateway.output()).toMatch(/"msg":"shutting down"/);
    expect(gateway.output()).toMatch(/"msg":"shut down"/);

    const restarted = await startGateway(dataDir);
    try {
      const order = await merchantClient(restarted).get('/order/sigterm-1');
      expect(order.status).toBe(200);
      expect(order.body.transaction).toHaveLength(1);
      expect(order.body.totalAuthorizedAmount).toBe(100);
    } finally {
      await restarted.stop();
    }
  });

  it('cuts a request still unfinished after GATEWAY_SHUTDOWN_TIMEOUT, then exits 0 all the same', async () => {
    const gateway = await startGateway(undefined, { GATEWAY_SHUTDOWN_TIMEOUT: '1' });
    const stalled = await halfSentAuthorize(
      merchantClient(gateway).url('/order/stalled-1/transaction/1'),
    );
    const cut = stalled.answer.then(
      () => 'answered',
      () => 'cut',
    );
    const started = Date.now();
    expect(await gateway.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(await cut).toBe('cut');
    expect(gateway.output()).toMatch(/grace period over/);
  });
});
