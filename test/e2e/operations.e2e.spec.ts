import {
  authorizeBody,
  basicAuth,
  MERCHANTS,
  orderIds,
  useGateway,
  type RunningGateway,
} from '../support/gateway-process';

const under = useGateway();
const nextOrder = orderIds('ops');

const CARD = '5123450000000008';
// A security code no id, time or amount in the log could contain by chance.
const CSC = '739';
const AUTHORIZATION = basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT);

const get = (path: string) => fetch(`${under.gateway.baseUrl}${path}`);

async function metrics(): Promise<string> {
  const response = await get('/metrics');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return response.text();
}

/** The value of one sample, or 0 when it has not been recorded yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** Log lines are written asynchronously: waits for the one of this request id. */
async function logLine(gateway: RunningGateway, reqId: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const line = jsonLines(gateway.output()).find((l) => l.reqId === reqId && l.msg === 'request');
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no log line for ${reqId}:\n${gateway.output()}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

function jsonLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('metrics', () => {
  it('count operations by apiOperation, result and gatewayCode', async () => {
    const approved =
      'gateway_requests_total{apiOperation="AUTHORIZE",result="SUCCESS",gatewayCode="APPROVED"}';
    const declined =
      'gateway_requests_total{apiOperation="AUTHORIZE",result="FAILURE",gatewayCode="DECLINED"}';
    const before = await metrics();

    expect(
      (await under.api.put(`/order/${nextOrder()}/transaction/t1`, authorizeBody())).status,
    ).toBe(201);
    const decline = authorizeBody('10.00', { month: '5', year: '39' });
    expect((await under.api.put(`/order/${nextOrder()}/transaction/t1`, decline)).status).toBe(201);

    const after = await metrics();
    expect(sample(after, approved)).toBe(sample(before, approved) + 1);
    expect(sample(after, declined)).toBe(sample(before, declined) + 1);
  });

  it('show request latency, event store appends and group commits, and the process', async () => {
    await under.api.put(`/order/${nextOrder()}/transaction/t1`, authorizeBody());
    const text = await metrics();
    expect(text).toMatch(
      /^gateway_http_request_duration_seconds_count\{method="PUT",route="\/api\/rest\/version\/:version\/merchant\/:merchantId\/order\/:orderId\/transaction\/:transactionId",status="201"\} [1-9]/m,
    );
    expect(sample(text, 'gateway_event_store_append_duration_seconds_count')).toBeGreaterThan(0);
    expect(sample(text, 'gateway_event_store_batches_total')).toBeGreaterThan(0);
    expect(sample(text, 'gateway_event_store_appends_committed_total')).toBeGreaterThanOrEqual(
      sample(text, 'gateway_event_store_batches_total'),
    );
    expect(sample(text, 'gateway_event_store_max_batch_appends')).toBeGreaterThan(0);
    // One observation per group commit in each histogram (batch size, commit time).
    const batches = sample(text, 'gateway_event_store_batches_total');
    expect(sample(text, 'gateway_event_store_batch_appends_count')).toBe(batches);
    expect(sample(text, 'gateway_event_store_batch_appends_sum')).toBeGreaterThanOrEqual(
      sample(text, 'gateway_event_store_appends_committed_total'),
    );
    expect(sample(text, 'gateway_event_store_commit_duration_seconds_count')).toBe(batches);
    expect(sample(text, 'gateway_event_store_writer_open')).toBe(1);
    expect(sample(text, 'gateway_consumer_running{consumer="projector"}')).toBe(1);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});

describe('health', () => {
  it('live and ready answer 200 while the event store is open', async () => {
    const live = await get('/health/live');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'UP' });
    const ready = await get('/health/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'UP',
      checks: { eventStore: 'open', bus: 'live' },
      consumers: ['projector', 'relay', 'dispatcher'],
      projections: {
        orderSummary: expect.objectContaining({ state: 'running', lagSeconds: expect.any(Number) }),
      },
    });
  });
});

describe('logs', () => {
  it('one JSON line per request, with request id, correlationId and outcome', async () => {
    const reqId = `ops-${Date.now()}`;
    const response = await under.api.put(
      `/order/${nextOrder()}/transaction/t1`,
      authorizeBody('10.00', undefined, { correlationId: 'corr-ops-1' }),
      { 'x-request-id': reqId },
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe(reqId);

    expect(await logLine(under.gateway, reqId)).toMatchObject({
      level: 'info',
      method: 'PUT',
      route:
        '/api/rest/version/:version/merchant/:merchantId/order/:orderId/transaction/:transactionId',
      status: 201,
      ms: expect.any(Number),
      merchant: 'TESTMERCHANT',
      apiOperation: 'AUTHORIZE',
      correlationId: 'corr-ops-1',
      result: 'SUCCESS',
      gatewayCode: 'APPROVED',
    });
  });

  it('a request without an id gets a generated one, returned in X-Request-Id', async () => {
    const response = await get('/health/live');
    const reqId = response.headers.get('x-request-id')!;
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await logLine(under.gateway, reqId)).toMatchObject({
      route: '/health/live',
      status: 200,
    });
  });

  it('never hold a card number, security code or credentials', async () => {
    const card = { number: CARD, expiry: { month: '1', year: '39' }, securityCode: CSC };
    const body = {
      ...authorizeBody(),
      sourceOfFunds: { type: 'CARD', provided: { card } },
    };
    const marker = `ops-secrets-${Date.now()}`;
    const sent = [
      await under.api.put(`/order/${nextOrder()}/transaction/t1`, body),
      // Refused bodies: a bad field, and malformed JSON quoting the card (as JSON.parse errors do).
      await under.api.put(`/order/${nextOrder()}/transaction/t1`, {
        ...body,
        apiOperation: 'NOPE',
      }),
      await under.api.put(
        `/order/${nextOrder()}/transaction/t1`,
        `{"card":"${CARD}","securityCode":"${CSC}"`,
      ),
      // A card number where free text goes: refused or not, the log line quotes correlationId.
      await under.api.put(`/order/${nextOrder()}/transaction/t1`, { ...body, correlationId: CARD }),
      await under.api.put(`/order/${nextOrder()}/transaction/t1`, body, { 'x-request-id': marker }),
    ];
    expect(sent.map((r) => r.status)).toEqual([201, 400, 400, 400, 201]);
    await logLine(under.gateway, marker);

    const output = under.gateway.output();
    expect(output).not.toContain(CARD);
    expect(output).not.toContain(`"${CSC}"`);
    expect(output).not.toContain('securityCode');
    expect(output).not.toContain(AUTHORIZATION.slice('Basic '.length));
    expect(output).not.toContain(MERCHANTS.TESTMERCHANT);
    for (const line of output.split('\n').filter(Boolean)) {
      if (line.startsWith('gateway listening on ')) continue;
      expect(() => JSON.parse(line)).not.toThrow();
    }
  });
});
