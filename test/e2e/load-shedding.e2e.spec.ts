import {
  authorizeBody,
  merchantClient,
  orderIds,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { holdWriteLock, inFlight, serverBusy } from '../support/gateway-load';
import { until } from '../support/until';

const BUSY = serverBusy('The gateway is busy. Retry after 1 second');

describe('load shedding by requests in flight', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway(undefined, { GATEWAY_MAX_IN_FLIGHT: '1' });
  });
  afterAll(() => gateway?.stop());
  const nextOrder = orderIds('shed');

  it('answers 503 SERVER_BUSY with Retry-After while the limit is reached, never sheds health or metrics, and recovers', async () => {
    const api = merchantClient(gateway);
    expect((await api.get('/order')).status).toBe(200); // credentials checked once, remembered
    // An AUTHORIZE waiting for the write lock holds the only slot until the test releases it.
    const lock = holdWriteLock(gateway);
    const slow = api.put(`/order/${nextOrder()}/transaction/1`, authorizeBody());
    await until(async () => (await inFlight(gateway)) === 1, 'the slow request is in flight');

    const shedOrder = nextOrder();
    const shed = await api.put(`/order/${shedOrder}/transaction/1`, authorizeBody());
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('1');
    expect(shed.body).toEqual(BUSY);
    expect((await api.get(`/order/${shedOrder}`)).status).toBe(503);

    for (const path of ['/health/live', '/metrics'])
      expect((await fetch(`${gateway.baseUrl}${path}`)).status).toBe(200);
    // Answered, not shed: not ready while every request would be refused.
    const ready = await fetch(`${gateway.baseUrl}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: unknown }).checks).toMatchObject({
      server: 'overloaded',
    });

    lock.release();
    const finished = await slow;
    expect(finished.status).toBe(201);
    expect(finished.body.response.gatewayCode).toBe('APPROVED');

    // The slot is free again; the shed request changed nothing.
    expect((await api.get(`/order/${shedOrder}`)).status).toBe(404);
    expect((await api.put(`/order/${nextOrder()}/transaction/1`, authorizeBody())).status).toBe(
      201,
    );
    expect((await fetch(`${gateway.baseUrl}/health/ready`)).status).toBe(200);
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

  it("sheds the flooding merchant's requests with 503, never another merchant's one at a time, and serves again once the loop catches up", async () => {
    const api = merchantClient(gateway);
    const other = merchantClient(gateway, 'TESTOTHER');
    const statuses = new Map<number, number>();
    let shedSeen = false;
    let otherAnswered = 0;
    // Another merchant, one request at a time, all through the flood: never shed.
    const oneAtATime = async () => {
      const deadline = Date.now() + 15_000;
      while ((!shedSeen || otherAnswered < 5) && Date.now() < deadline) {
        const answer = await other.put(`/order/${nextOrder()}/transaction/1`, authorizeBody());
        expect(answer.status).toBe(201);
        otherAnswered++;
      }
    };
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
    await Promise.all([oneAtATime(), ...Array.from({ length: 64 }, worker)]);
    expect(statuses.get(503)).toBeGreaterThan(0);
    expect(gateway.child.exitCode).toBeNull();

    await until(
      async () =>
        (await api.put(`/order/${nextOrder()}/transaction/1`, authorizeBody())).status === 201,
      'the gateway takes requests again',
    );
  });
});
