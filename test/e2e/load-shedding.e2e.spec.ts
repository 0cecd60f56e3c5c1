import {
  authorizeBody,
  basicAuth,
  MERCHANTS,
  merchantClient,
  orderIds,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { openRequest } from '../support/raw-http';

const BUSY = {
  result: 'ERROR',
  error: { cause: 'SERVER_BUSY', explanation: 'The gateway is busy. Retry after 1 second' },
};

/** Requests in progress, as the gateway reports them (the scrape itself included). */
async function inFlight(gateway: RunningGateway): Promise<number> {
  const metrics = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
  return Number(/^gateway_requests_in_flight (\d+)$/m.exec(metrics)?.[1]);
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('load shedding by requests in flight', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway(undefined, { GATEWAY_MAX_IN_FLIGHT: '1' });
  });
  afterAll(() => gateway?.stop());
  const nextOrder = orderIds('shed');

  it('answers 503 SERVER_BUSY with Retry-After while the limit is reached, never sheds health or metrics, and recovers', async () => {
    const api = merchantClient(gateway);
    // An AUTHORIZE whose body arrives in two parts holds the only slot until the test sends the rest.
    const slowOrder = nextOrder();
    const body = JSON.stringify(authorizeBody());
    const slow = await openRequest(
      api.url(`/order/${slowOrder}/transaction/1`),
      {
        method: 'PUT',
        headers: {
          authorization: basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT),
          'content-type': 'application/json',
        },
      },
      body,
      body.slice(0, 40),
    );
    await until(async () => (await inFlight(gateway)) === 2, 'the slow request is in flight');

    const shedOrder = nextOrder();
    const shed = await api.put(`/order/${shedOrder}/transaction/1`, authorizeBody());
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('1');
    expect(shed.body).toEqual(BUSY);
    expect((await api.get(`/order/${shedOrder}`)).status).toBe(503);

    for (const path of ['/health/live', '/health/ready', '/metrics'])
      expect((await fetch(`${gateway.baseUrl}${path}`)).status).toBe(200);

    const finished = await slow.finish();
    expect(finished.status).toBe(201);
    expect(finished.body.response.gatewayCode).toBe('APPROVED');

    // The slot is free again; the shed request changed nothing.
    expect((await api.get(`/order/${shedOrder}`)).status).toBe(404);
    expect((await api.put(`/order/${nextOrder()}/transaction/1`, authorizeBody())).status).toBe(
      201,
    );
    const metrics = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/gateway_requests_refused_total\{reason="overloaded"\} 2/);
  });
});

describe('load shedding by event-loop delay', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    // 1 ms: any burst of requests makes the loop lag that much.
    gateway = await startGateway(undefined, { GATEWAY_MAX_EVENT_LOOP_DELAY: '1' });
  });
  afterAll(() => gateway?.stop());
  const nextOrder = orderIds('lag');

  it('sheds a flood with 503 instead of queueing it, and serves again once the loop catches up', async () => {
    const api = merchantClient(gateway);
    const statuses = new Map<number, number>();
    let shedSeen = false;
    const worker = async () => {
      const deadline = Date.now() + 15_000;
      while (!shedSeen && Date.now() < deadline) {
        const answer = await api.put(`/order/${nextOrder()}/transaction/1`, authorizeBody());
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 503) {
          expect(answer.body).toEqual(BUSY);
          expect(answer.headers.get('retry-after')).toBe('1');
          shedSeen = true;
        } else expect(answer.status).toBe(201);
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    expect(statuses.get(503)).toBeGreaterThan(0);
    expect(gateway.child.exitCode).toBeNull();

    await until(
      async () =>
        (await api.put(`/order/${nextOrder()}/transaction/1`, authorizeBody())).status === 201,
      'the gateway takes requests again',
    );
  });
});
