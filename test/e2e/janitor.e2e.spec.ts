import Database from 'better-sqlite3';
import { join } from 'node:path';
import {
  authorizeBody,
  makeDataDir,
  merchantClient,
  orderIds,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { startGatewayCluster, type GatewayCluster } from '../support/gateway-cluster';
import {
  eventually,
  receiverPath,
  startWebhookReceiver,
  webhookEnv,
  type WebhookReceiver,
} from '../support/webhook-receiver';

/**
 * The janitor end to end (docs/janitor.md): the built gateway on a manual clock, moved forward by
 * POST /operator/clock, so that inquiries, disputes and chargebacks due in seconds or a day come
 * due at once, without sleeping.
 */
const MANUAL = { GATEWAY_CLOCK: 'manual', GATEWAY_ACQUIRER_TICK: '100ms' };
const UNKNOWN_EXPIRY = { month: '5', year: '37' };

async function advance(gateway: RunningGateway, by: string, token?: string) {
  const response = await fetch(`${gateway.baseUrl}/operator/clock`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ advance: by }),
  });
  const body: any = await response.json();
  return { status: response.status, body };
}

describe('the janitor over HTTP', () => {
  let receiver: WebhookReceiver;
  let gateway: RunningGateway;
  let api: ReturnType<typeof merchantClient>;
  const nextOrder = orderIds('jan');

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    gateway = await startGateway(undefined, { ...MANUAL, ...webhookEnv(receiver) });
    api = merchantClient(gateway);
  });
  afterAll(async () => {
    await gateway?.stop();
    await receiver?.close();
  });

  const authorize = async (orderId: string, amount: string, expiry?: typeof UNKNOWN_EXPIRY) => {
    const notificationUrl = `${receiver.url}${receiverPath(orderId, 'ok')}`;
    const put = await api.put(
      `/order/${orderId}/transaction/auth-1`,
      authorizeBody(amount, expiry, { order: { amount, currency: 'USD', notificationUrl } }),
    );
    expect(put.status).toBe(201);
    return put.body;
  };
  const statusOf = async (orderId: string) => (await api.get(`/order/${orderId}`)).body;

  it('an UNKNOWN authorization becomes APPROVED on its own 30 s after, with a webhook', async () => {
    const orderId = nextOrder();
    expect(await authorize(orderId, '100.00', UNKNOWN_EXPIRY)).toMatchObject({
      response: { gatewayCode: 'UNKNOWN' },
    });
    const path = receiverPath(orderId, 'ok');
    await receiver.waitFor(path, 1);
    expect((await advance(gateway, '29s')).status).toBe(200);
    await new Promise((done) => setTimeout(done, 300)); // a few ticks: nothing is due yet
    expect((await api.get(`/order/${orderId}/transaction/auth-1`)).body.response.gatewayCode).toBe(
      'UNKNOWN',
    );
    await advance(gateway, '1s');
    const order = await eventually(async () => {
      const body = await statusOf(orderId);
      return body.transaction[0].response.gatewayCode === 'APPROVED' && body;
    });
    expect(order).toMatchObject({ status: 'AUTHORIZED', totalAuthorizedAmount: 100 });
    const [, learned] = await receiver.waitFor(path, 2);
    expect(JSON.parse(learned.body)).toMatchObject({
      result: 'SUCCESS',
      response: { gatewayCode: 'APPROVED' },
      transaction: { id: 'auth-1' },
    });
  });

  it('an odd amount (in thousandths) becomes DECLINED', async () => {
    const orderId = nextOrder();
    await authorize(orderId, '100.001', UNKNOWN_EXPIRY);
    await advance(gateway, '30s');
    const transaction = await eventually(async () => {
      const body = (await api.get(`/order/${orderId}/transaction/auth-1`)).body;
      return body.response.gatewayCode !== 'UNKNOWN' && body;
    });
    expect(transaction).toMatchObject({ result: 'FAILURE', response: { gatewayCode: 'DECLINED' } });
  });

  it('a .666 capture is DISPUTED 30 s after, then CHARGEBACK_PROCESSED 30 s later, each with a webhook', async () => {
    const orderId = nextOrder();
    const path = receiverPath(orderId, 'ok');
    await authorize(orderId, '100.00');
    const capture = { apiOperation: 'CAPTURE', transaction: { amount: '12.666', currency: 'USD' } };
    expect((await api.put(`/order/${orderId}/transaction/cap-1`, capture)).status).toBe(201);
    await receiver.waitFor(path, 2);
    await advance(gateway, '30s');
    await eventually(async () => (await statusOf(orderId)).status === 'DISPUTED');
    await receiver.waitFor(path, 3);
    await advance(gateway, '30s');
    const order = await eventually(async () => {
      const body = await statusOf(orderId);
      return body.status === 'CHARGEBACK_PROCESSED' && body;
    });
    expect(order).toMatchObject({ totalCapturedAmount: 12.666, totalChargebackAmount: 12.666 });
    const chargeback = order.transaction.find(
      (t: { transaction: { type: string } }) => t.transaction.type === 'CHARGEBACK',
    );
    expect(chargeback.transaction).toMatchObject({ amount: 12.666, currency: 'USD' });
    const notified = await receiver.waitFor(path, 4);
    expect(JSON.parse(notified[3].body)).toMatchObject({ transaction: { type: 'CHARGEBACK' } });
  });

  it('the clock answers its time; bad durations are the spec error object', async () => {
    const read: any = await (await fetch(`${gateway.baseUrl}/operator/clock`)).json();
    expect(read).toEqual({ mode: 'manual', time: expect.any(String) });
    expect(await advance(gateway, 'tomorrow')).toEqual({
      status: 400,
      body: {
        result: 'ERROR',
        error: {
          cause: 'INVALID_REQUEST',
          explanation: expect.stringContaining('duration'),
          field: 'advance',
          validationType: 'INVALID',
        },
      },
    });
    const moved = await advance(gateway, '1h');
    expect(Date.parse(moved.body.time) - Date.parse(read.time)).toBeGreaterThanOrEqual(3_600_000);
  });
});

describe('an acquirer that never learns the outcome', () => {
  it('the last inquiry, a day after, declines and reverses the authorization', async () => {
    const gateway = await startGateway(undefined, { ...MANUAL, GATEWAY_SIM_OUTCOME_AFTER: '2d' });
    try {
      const api = merchantClient(gateway);
      const put = await api.put(
        '/order/never-1/transaction/auth-1',
        authorizeBody('10.00', UNKNOWN_EXPIRY),
      );
      expect(put.status).toBe(201);
      await advance(gateway, '1h');
      await new Promise((done) => setTimeout(done, 300)); // a few ticks: three inquiries ran
      expect((await api.get('/order/never-1')).body.transaction[0].response.gatewayCode).toBe(
        'UNKNOWN',
      );
      const metrics = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
      expect(metrics).toMatch(/^gateway_janitor_scheduled\{state="waiting"\} 1$/m); // the last
      expect(metrics).toMatch(/^gateway_janitor_scheduled\{state="due"\} 0$/m);
      await advance(gateway, '1d');
      const order = await eventually(async () => {
        const body = (await api.get('/order/never-1')).body;
        return body.transaction[0].response.gatewayCode !== 'UNKNOWN' && body;
      });
      expect(order).toMatchObject({ totalAuthorizedAmount: 0 });
      expect(order.transaction[0]).toMatchObject({
        result: 'FAILURE',
        response: { gatewayCode: 'DECLINED' },
      });
    } finally {
      await gateway.stop();
    }
    expect(streamsOf(gateway.dataDir, 'AcquirerInquired')).toHaveLength(4);
    expect(streamsOf(gateway.dataDir, 'AuthorizationReversed')).toHaveLength(1);
  });
});

describe('the operator clock of a gateway on the system clock', () => {
  it('does not move, and asks for the operator token when one is set', async () => {
    const gateway = await startGateway(undefined, { GATEWAY_OPERATOR_TOKEN: 'op-token-1234' });
    try {
      expect((await advance(gateway, '1d')).status).toBe(401);
      const refused = await advance(gateway, '1d', 'op-token-1234');
      expect(refused.status).toBe(400);
      expect(refused.body.error.explanation).toMatch(/GATEWAY_CLOCK=manual/);
    } finally {
      await gateway.stop();
    }
  });
});

/** The order stream of every event of the type stored (read from the file, as written). */
function streamsOf(dataDir: string, type: string): string[] {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    return db.prepare('SELECT stream_id FROM events WHERE type = ?').pluck().all(type) as string[];
  } finally {
    db.close();
  }
}

describe('kill -9 during the janitor', () => {
  it('a restarted janitor records each inquiry once', async () => {
    const dataDir = await makeDataDir();
    const first = await startGateway(dataDir, MANUAL);
    const api = merchantClient(first);
    const orders = Array.from({ length: 300 }, (_, i) => `kill-jan-${i}`);
    for (let i = 0; i < orders.length; i += 10)
      await Promise.all(
        orders
          .slice(i, i + 10)
          .map((o) =>
            api.put(`/order/${o}/transaction/auth-1`, authorizeBody('10.00', UNKNOWN_EXPIRY)),
          ),
      );
    const resolved = async (orderId: string) =>
      (await api.get(`/order/${orderId}/transaction/auth-1`)).body.response.gatewayCode !==
      'UNKNOWN';
    await advance(first, '30s');
    // Killed once the first outcome shows: the janitor is (most likely) halfway through.
    await eventually(() => resolved(orders[0]), 15_000);
    first.child.kill('SIGKILL');
    await first.stop();
    const killedAt = streamsOf(dataDir, 'AcquirerInquired');
    expect(killedAt.length).toBeGreaterThan(0);
    expect(killedAt.length).toBeLessThan(orders.length); // killed halfway through, not after

    const second = await startGateway(dataDir, MANUAL);
    try {
      const again = merchantClient(second);
      await advance(second, '30s'); // the restarted process's clock starts from the system's again
      for (const orderId of orders)
        await eventually(
          async () =>
            (await again.get(`/order/${orderId}/transaction/auth-1`)).body.response.gatewayCode ===
            'APPROVED',
        );
    } finally {
      await second.stop();
    }
    const inquired = streamsOf(dataDir, 'AcquirerInquired');
    expect(inquired).toHaveLength(orders.length);
    expect(new Set(inquired).size).toBe(orders.length);
    expect(streamsOf(dataDir, 'TransactionOutcomeLearned')).toHaveLength(orders.length);
  });
});

describe('the janitor on a cluster (two nodes on the KurrentDB stand-in)', () => {
  let cluster: GatewayCluster;
  beforeAll(async () => {
    cluster = await startGatewayCluster(2, { ...MANUAL, GATEWAY_RELAY_LEASE: '3' });
  });
  afterAll(() => cluster?.stop());

  it('one node runs what is due (the lease), and each inquiry is recorded once', async () => {
    const orders = Array.from({ length: 20 }, (_, i) => `cluster-jan-${Date.now()}-${i}`);
    for (const orderId of orders) {
      const put = await cluster.api.put(
        `/order/${orderId}/transaction/auth-1`,
        authorizeBody('10.00', UNKNOWN_EXPIRY),
      );
      expect(put.status).toBe(201);
    }
    const before = cluster.standin.log.length;
    // Each node has its own clock: both move, both see the inquiries due.
    await Promise.all(cluster.nodes.map((node) => advance(node, '30s')));
    for (const orderId of orders)
      await eventually(
        async () =>
          (await cluster.api.get(`/order/${orderId}/transaction/auth-1`)).body.response
            .gatewayCode === 'APPROVED',
      );
    const written = Array.from({ length: cluster.standin.log.length - before }, (_, i) =>
      cluster.standin.log.at(before + i)!,
    );
    const inquired = written.filter((event) => event.type === 'AcquirerInquired');
    expect(inquired).toHaveLength(orders.length);
    expect(new Set(inquired.map((event) => event.streamId)).size).toBe(orders.length);
    expect(written.some((event) => event.streamId.startsWith('janitor-lease-'))).toBe(true);
  });
});
