import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  authorizeBody,
  basicAuth,
  merchantClient,
  startGateway,
  type RunningGateway,
  useGateway,
} from '../../support/gateway-process';
import { serverBusy } from '../../support/gateway-load';
import { sendRawBytes } from '../../support/raw-http';
import { until } from '../../support/until';
import { describeWithUnwritableFiles, fillDisk, freeDisk } from '../../support/unwritable-files';

/**
 * Issue 14, point 7: Check Gateway, `GET /api/rest/version/{v}/information`, as merchant clients
 * call it before they pay: without credentials (or with whatever their client always sends).
 */
const VERSION = (
  JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string }
).version;
const OPERATING = { status: 'OPERATING', gatewayVersion: VERSION };

const check = (gateway: RunningGateway, version: string | number = 100, init?: RequestInit) =>
  fetch(`${gateway.baseUrl}/api/rest/version/${version}/information`, init);

describe('Check Gateway', () => {
  const under = useGateway();

  it('answers 200 OPERATING with the gateway version, as JSON, without credentials', async () => {
    const answer = await check(under.gateway);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual(OPERATING);
  });

  it('answers the same bytes a bare HTTP/1.1 client sends, at every supported version', async () => {
    const { port } = new URL(under.gateway.baseUrl);
    for (const version of [1, 50, 100]) {
      const answer = await sendRawBytes(
        under.gateway.baseUrl,
        `GET /api/rest/version/${version}/information HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(OPERATING);
    }
  });

  it('ignores credentials a client sends anyway, right or wrong: no 401, no lockout', async () => {
    const wrong = { headers: { authorization: basicAuth('TESTMERCHANT', 'not-the-password') } };
    for (let i = 0; i < 12; i++) expect((await check(under.gateway, 100, wrong)).status).toBe(200);
    // Twelve wrong passwords at Check Gateway did not lock the merchant out.
    const order = `check-${Date.now()}`;
    const paid = await under.api.put(`/order/${order}/transaction/1`, authorizeBody());
    expect(paid.status).toBe(201);
  });

  it.each(['0', '101', 'abc'])('refuses version %s as for every other path', async (version) => {
    const answer = await check(under.gateway, version);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      result: 'ERROR',
      error: { cause: 'INVALID_REQUEST', field: 'version', validationType: 'INVALID' },
    });
  });

  it('is a GET: another method is an unknown resource', async () => {
    const answer = await check(under.gateway, 100, { method: 'POST' });
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as any).error.cause).toBe('INVALID_REQUEST');
  });
});

describeWithUnwritableFiles()('Check Gateway while the event store cannot write', () => {
  it('answers what a payment would get, 503 SERVER_BUSY with Retry-After, then OPERATING again', async () => {
    const gateway = await startGateway();
    try {
      fillDisk(gateway.child.pid!);
      try {
        const refused = await merchantClient(gateway).put(
          `/order/check-full-${Date.now()}/transaction/1`,
          authorizeBody(),
        );
        expect(refused.status).toBe(503);
        const answer = await check(gateway);
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('1');
        expect(await answer.json()).toEqual(
          serverBusy('The gateway cannot record transactions at the moment. Retry after 1 second'),
        );
      } finally {
        freeDisk(gateway.child.pid!);
      }
      await until(async () => (await check(gateway)).status === 200, 'Check Gateway recovers');
      expect(await (await check(gateway)).json()).toEqual(OPERATING);
    } finally {
      await gateway.stop();
    }
  });
});
