import {
  authorizeBody,
  basicAuth,
  MERCHANTS,
  merchantClient,
  orderIds,
  useGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { inFlight, metric } from '../support/gateway-load';
import { rawRequest } from '../support/raw-http';
import {
  openConnection,
  requestHead,
  within,
  type RawConnection,
} from '../support/raw-connections';

const AUTHORIZATION = basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT);
const PUT_PATH = '/api/rest/version/100/merchant/TESTMERCHANT/order/flood/transaction/1';
/** Generous: how long the gateway may take to close what its timeouts (1-3 s here) end. */
const GUARD_MS = 30_000;

/** Connections that send a PUT's headers and the first byte of its body, then nothing. */
function stalledPuts(gateway: RunningGateway, count: number, headers: Record<string, string>) {
  return Promise.all(
    Array.from({ length: count }, () =>
      openConnection(gateway.baseUrl, `${requestHead('PUT', PUT_PATH, headers, 100)}{`),
    ),
  );
}

describe('requests in flight are counted once read and authenticated', () => {
  const under = useGateway({ GATEWAY_MAX_IN_FLIGHT: '5' });

  it('a flood of stalled bodies, with and without credentials, holds no slot: merchants are served and the gateway is ready', async () => {
    const { gateway } = under;
    const flood = [
      ...(await stalledPuts(gateway, 15, {})),
      ...(await stalledPuts(gateway, 15, { authorization: AUTHORIZATION })),
    ];
    try {
      const { api } = under;
      const nextOrder = orderIds('flooded');
      for (let i = 0; i < 3; i++)
        expect((await api.put(`/order/${nextOrder()}/transaction/1`, authorizeBody())).status).toBe(
          201,
        );
      expect((await merchantClient(gateway, 'TESTOTHER').get('/order')).status).toBe(200);
      const ready = await fetch(`${gateway.baseUrl}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await inFlight(gateway)).toBe(0);
      // The flood is still there, waiting for its bodies: it was never refused, only not counted.
      expect(flood.every((connection) => connection.isOpen())).toBe(true);
    } finally {
      for (const connection of flood) connection.socket.destroy();
    }
  });
});

describe('connection and time bounds', () => {
  const under = useGateway({
    GATEWAY_MAX_CONNECTIONS: '20',
    GATEWAY_HEADERS_TIMEOUT: '2',
    GATEWAY_REQUEST_TIMEOUT: '3',
    GATEWAY_KEEP_ALIVE_TIMEOUT: '1',
  });

  const closedWith408 = async (connection: RawConnection, what: string) => {
    const received = await within(connection.closed, GUARD_MS, `the gateway closes ${what}`);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  };

  it('cuts a body trickling a byte at a time at GATEWAY_REQUEST_TIMEOUT, with 408', async () => {
    const { gateway } = under;
    const trickle = await openConnection(
      gateway.baseUrl,
      requestHead('PUT', PUT_PATH, { authorization: AUTHORIZATION }, 1000),
    );
    let sent = 0;
    const dripping = setInterval(() => {
      if (trickle.isOpen()) trickle.socket.write(' ', () => sent++);
    }, 250);
    try {
      await closedWith408(trickle, 'a trickling body');
      expect(sent).toBeGreaterThan(0); // it was cut while still sending
    } finally {
      clearInterval(dripping);
    }
  });

  it('closes a connection that sends nothing, or half its headers, at GATEWAY_HEADERS_TIMEOUT, with 408', async () => {
    const { gateway } = under;
    const silent = await openConnection(gateway.baseUrl);
    const halfHeaders = await openConnection(
      gateway.baseUrl,
      `PUT ${PUT_PATH} HTTP/1.1\r\nhost: gateway\r\n`,
    );
    await closedWith408(silent, 'a silent connection');
    await closedWith408(halfHeaders, 'a connection with half its headers');
  });

  it('closes a keep-alive connection idle for GATEWAY_KEEP_ALIVE_TIMEOUT', async () => {
    const { gateway } = under;
    const idle = await openConnection(gateway.baseUrl, requestHead('GET', '/health/live'));
    const received = await within(idle.closed, GUARD_MS, 'the gateway closes an idle connection');
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toMatch(/keep-alive/i);
  });

  it('past GATEWAY_MAX_CONNECTIONS closes new connections unread, and takes them again once stalled ones time out', async () => {
    const { gateway } = under;
    const flood = await Promise.all(
      Array.from({ length: 20 }, () => openConnection(gateway.baseUrl)),
    );
    const refused = await openConnection(gateway.baseUrl, requestHead('GET', '/health/ready'));
    expect(await within(refused.closed, GUARD_MS, 'the gateway closes a connection')).toBe('');
    await expect(
      rawRequest(`${gateway.baseUrl}${PUT_PATH}`, {
        method: 'PUT',
        headers: { authorization: AUTHORIZATION },
      }),
    ).rejects.toThrow();
    expect(flood.every((connection) => connection.isOpen())).toBe(true);

    await within(
      Promise.all(flood.map((connection) => connection.closed)),
      GUARD_MS,
      'the stalled connections time out',
    );
    const api = merchantClient(gateway);
    expect(
      (await api.put(`/order/${orderIds('after')()}/transaction/1`, authorizeBody())).status,
    ).toBe(201);
    expect(await metric(gateway, 'gateway_connections_refused_total')).toBeGreaterThanOrEqual(2);
  });
});
