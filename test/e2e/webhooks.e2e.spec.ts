import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import {
  authorizeBody,
  basicAuth,
  makeDataDir,
  merchantCli,
  merchantClient,
  MERCHANTS,
  orderIds,
  reloadMerchants,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { openFeed } from '../support/sse-client';
import {
  eventually,
  receiverPath as at,
  startWebhookReceiver,
  webhookEnv,
  type WebhookReceiver,
} from '../support/webhook-receiver';

/**
 * Webhooks end to end: the built gateway (embedded dispatcher, real SQLite files) notifies a real
 * HTTPS receiver whose self-signed certificate is trusted through GATEWAY_WEBHOOK_CA_FILE; the
 * loopback receiver is opened through the SSRF allow-list. The schedule is compressed.
 */
const CLI = resolve(__dirname, '../../dist/apps/webhook-dispatcher/src/cli/webhooks.cli.js');
const SECRET = 'secret-of-TESTMERCHANT-0123456789';
const verifier = new Webhook(`whsec_${Buffer.from(SECRET).toString('base64')}`);

describe('webhook notifications', () => {
  let receiver: WebhookReceiver;
  let gateway: RunningGateway;
  let api: ReturnType<typeof merchantClient>;
  const nextOrder = orderIds('wh');
  /** Paths ending in /fail-N fail N times, /dead always, /hang never answers, others succeed. */
  const answer = (path: string, nth: number): number | 'hang' => {
    const failures = /\/fail-(\d+)$/.exec(path);
    if (failures) return nth <= Number(failures[1]) ? 500 : 200;
    if (path.endsWith('/dead')) return 503;
    if (path.endsWith('/hang')) return 'hang';
    return 200;
  };

  beforeAll(async () => {
    receiver = await startWebhookReceiver(answer);
    gateway = await startGateway(undefined, webhookEnv(receiver));
    api = merchantClient(gateway);
  });
  afterAll(async () => {
    await gateway?.stop();
    await receiver?.close();
  });

  const authorizeWith = async (orderId: string, path: string, amount = '100.00') => {
    const created = await api.put(
      `/order/${orderId}/transaction/auth-1`,
      authorizeBody(amount, undefined, {
        order: { amount, currency: 'USD', notificationUrl: `${receiver.url}${path}` },
      }),
    );
    expect(created.status).toBe(201);
    return created;
  };
  const deliveries = (query = '') => api.get(`/webhook/delivery${query}`);

  it('a receiver that fails three times gets four attempts with one notification id, each signed', async () => {
    const orderId = nextOrder();
    const path = at(orderId, 'fail-3');
    expect((await authorizeWith(orderId, path)).status).toBe(201);
    const received = await receiver.waitFor(path, 4);
    const ids = new Set(received.map((r) => r.headers['x-notification-id']));
    expect(ids.size).toBe(1);
    expect(received.map((r) => r.headers['x-notification-attempt'])).toEqual(['1', '2', '3', '4']);
    for (const r of received) {
      expect(r.headers['x-notification-secret']).toBe(SECRET);
      expect(r.headers['webhook-id']).toBe(r.headers['x-notification-id']);
      expect(verifier.verify(r.body, r.headers as Record<string, string>)).toBeDefined();
    }
    // The body is the Retrieve Transaction response.
    const retrieved = await api.get(`/order/${orderId}/transaction/auth-1`);
    expect(JSON.parse(received[3].body)).toEqual(retrieved.body);

    const id = [...ids][0] as string;
    const log = await eventually(async () => {
      const shown = await api.get(`/webhook/delivery/${id}`);
      return shown.body.status === 'DELIVERED' && shown.body;
    });
    expect(log).toMatchObject({ orderId, transactionId: 'auth-1', attempts: 4 });
    expect(log.attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([
      500, 500, 500, 200,
    ]);
    expect(log.attemptLog.every((a: { latencyMs: number }) => a.latencyMs >= 0)).toBe(true);
  });

  it('the body is the public event’s transaction, byte for byte as the feed carries it', async () => {
    const feed = await openFeed(api.url('/events'), {
      authorization: basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT),
    });
    const orderId = nextOrder();
    const path = at(orderId, 'ok');
    await authorizeWith(orderId, path);
    const [notification] = await receiver.waitFor(path, 1);
    const authorized = JSON.parse((await feed.waitFor(2))[1].data);
    feed.close();
    expect(notification.headers['x-notification-id']).toBe(authorized.eventId);
    expect(notification.body).toBe(JSON.stringify(authorized.transaction));
  });

  it('the body masks cards as a GET under Basic authentication does at the time, not a fixed 6.4', async () => {
    const orderId = nextOrder();
    const path = at(orderId, 'ok');
    await authorizeWith(orderId, path); // the card recorded under 6.4
    merchantCli(gateway, 'set-masking', 'TESTMERCHANT', '0.4');
    await reloadMerchants(gateway);
    try {
      const capture = { apiOperation: 'CAPTURE', transaction: { amount: '1.00', currency: 'USD' } };
      expect((await api.put(`/order/${orderId}/transaction/cap-1`, capture)).status).toBe(201);
      const [, captured] = await receiver.waitFor(path, 2);
      const retrieved = await api.get(`/order/${orderId}/transaction/cap-1`);
      expect(retrieved.body.sourceOfFunds.provided.card.number).toBe('xxxxxxxxxxxx0008');
      expect(JSON.parse(captured.body)).toEqual(retrieved.body);
    } finally {
      merchantCli(gateway, 'set-masking', 'TESTMERCHANT', '6.4');
      await reloadMerchants(gateway);
    }
  });

  it('a receiver that always fails is dead-lettered, then redelivered by API and by CLI', async () => {
    const [first, second] = [nextOrder(), nextOrder()];
    await authorizeWith(first, at(first, 'dead'));
    await authorizeWith(second, at(second, 'dead'));
    const dead = await eventually(async () => {
      const listed = await deliveries('?status=DEAD_LETTERED&limit=100');
      const mine = listed.body.deliveries.filter((d: { orderId: string }) =>
        [first, second].includes(d.orderId),
      );
      return mine.length === 2 && mine;
    });
    expect(dead.map((d: { attempts: number }) => d.attempts)).toEqual([5, 5]);
    expect(receiver.received(at(first, 'dead'))).toHaveLength(5);

    receiver.answer = (path, nth) => (path.endsWith('/dead') ? 200 : answer(path, nth));
    try {
      const byId = dead.find((d: { orderId: string }) => d.orderId === first).id;
      const redelivered = await api.post(`/webhook/delivery/${byId}/redeliver`);
      expect(redelivered.status).toBe(202);
      const [, , , , , sixth] = await receiver.waitFor(at(first, 'dead'), 6);
      expect(sixth.headers).toMatchObject({
        'x-notification-id': byId,
        'x-notification-attempt': '6',
      });

      const { stdout } = await promisify(execFile)(process.execPath, [
        CLI,
        'redeliver',
        '--merchant',
        'TESTMERCHANT',
        '--dead-lettered',
        '--db',
        join(gateway.dataDir, 'webhooks.db'),
      ]);
      expect(stdout).toMatch(/redelivering 1 dead-lettered deliveries of TESTMERCHANT/);
      await receiver.waitFor(at(second, 'dead'), 6);
      const listed = await promisify(execFile)(process.execPath, [
        CLI,
        'list',
        '--merchant',
        'TESTMERCHANT',
        '--status',
        'DEAD_LETTERED',
        '--db',
        join(gateway.dataDir, 'webhooks.db'),
      ]);
      expect(listed.stdout).not.toMatch(first);
    } finally {
      receiver.answer = answer;
    }
  });

  it("the operator API redelivers any merchant's delivery, one or every dead-lettered one", async () => {
    const orderId = nextOrder();
    const path = at(orderId, 'gone');
    receiver.answer = (p, nth) => (p === path ? 503 : answer(p, nth));
    try {
      await authorizeWith(orderId, path);
      const [dead] = await eventually(async () => {
        const listed = await deliveries('?status=DEAD_LETTERED&limit=100');
        const mine = listed.body.deliveries.filter(
          (d: { orderId: string }) => d.orderId === orderId,
        );
        return mine.length === 1 && mine;
      });
      const operator = (to: string, body: unknown = {}) =>
        fetch(`${gateway.baseUrl}/operator/webhook/delivery/${to}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await operator('no-such-delivery/redeliver')).status).toBe(404);
      const missing = await operator('redeliverDeadLettered');
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as { error: unknown }).error).toMatchObject({
        field: 'merchantId',
      });
      const one = await operator(`${dead.id}/redeliver`);
      expect(one.status).toBe(202);
      expect(await one.json()).toMatchObject({ id: dead.id, status: 'PENDING' });
      await receiver.waitFor(path, 6);
      await eventually(
        async () => (await deliveries(`/${dead.id}`)).body.status === 'DEAD_LETTERED',
      );
      const all = await operator('redeliverDeadLettered', { merchantId: 'TESTMERCHANT' });
      expect(all.status).toBe(202);
      expect(((await all.json()) as { redelivered: number }).redelivered).toBeGreaterThanOrEqual(1);
      await receiver.waitFor(path, 7);
    } finally {
      receiver.answer = answer;
    }
  });

  it('per order, notifications go out in order even while the first is being retried', async () => {
    const orderId = nextOrder();
    const path = at(orderId, 'fail-2');
    await authorizeWith(orderId, path);
    await api.put(`/order/${orderId}/transaction/cap-1`, {
      apiOperation: 'CAPTURE',
      transaction: { amount: '60.00', currency: 'USD' },
    });
    await api.put(`/order/${orderId}/transaction/ref-1`, {
      apiOperation: 'REFUND',
      transaction: { amount: '10.00', currency: 'USD' },
    });
    const received = await receiver.waitFor(path, 5);
    expect(received.map((r) => JSON.parse(r.body).transaction.id)).toEqual([
      'auth-1',
      'auth-1',
      'auth-1',
      'cap-1',
      'ref-1',
    ]);
    expect(received.map((r) => JSON.parse(r.body).order.status).slice(2)).toEqual([
      'AUTHORIZED',
      'PARTIALLY_CAPTURED',
      'PARTIALLY_REFUNDED',
    ]);
  });

  it('receivers that never answer hold up neither the merchant’s other orders nor other merchants', async () => {
    const other = merchantClient(gateway, 'TESTOTHER');
    const hang = (client: typeof api, orderId: string, path: string) =>
      client.put(
        `/order/${orderId}/transaction/auth-1`,
        authorizeBody('5.00', undefined, {
          order: { amount: '5.00', currency: 'USD', notificationUrl: `${receiver.url}${path}` },
        }),
      );
    // TESTOTHER fills all its slots (4) and more; TESTMERCHANT two of its four.
    for (let i = 0; i < 6; i++) await hang(other, nextOrder(), `/other-${i}/hang`);
    for (let i = 0; i < 2; i++) await hang(api, nextOrder(), `/mine-${i}/hang`);
    await receiver.waitFor('/other-3/hang', 1);
    const fast = nextOrder();
    const started = Date.now();
    await hang(api, fast, at(fast, 'ok'));
    const [delivered] = await receiver.waitFor(at(fast, 'ok'), 1);
    // Well before the hanging attempts time out (1.5 s).
    expect(delivered.receivedAt - started).toBeLessThan(1000);
    expect(receiver.received('/other-5/hang')).toHaveLength(0);
  });

  it('a private address is refused without a connection and ends dead-lettered', async () => {
    const orderId = nextOrder();
    await api.put(
      `/order/${orderId}/transaction/auth-1`,
      authorizeBody('1.00', undefined, {
        order: { amount: '1.00', currency: 'USD', notificationUrl: 'https://10.0.0.1/hooks' },
      }),
    );
    const dead = await eventually(async () => {
      const listed = await deliveries('?status=DEAD_LETTERED&limit=100');
      return listed.body.deliveries.find((d: { orderId: string }) => d.orderId === orderId);
    });
    expect(dead.lastError).toMatch(
      /10.0.0.1 is a private, loopback, link-local or reserved address/,
    );
  });

  it('the delivery API shows a merchant only its own deliveries and refuses bad queries', async () => {
    const mine = (await deliveries('?limit=1')).body;
    expect(mine.deliveries).toHaveLength(1);
    expect(mine.next).toMatch(/^\d+$/);
    const nextPage = (await deliveries(`?limit=1&before=${mine.next}`)).body;
    expect(nextPage.deliveries[0].id).not.toBe(mine.deliveries[0].id);
    const other = merchantClient(gateway, 'TESTOTHER');
    expect((await other.get(`/webhook/delivery/${mine.deliveries[0].id}`)).status).toBe(404);
    expect((await other.post(`/webhook/delivery/${mine.deliveries[0].id}/redeliver`)).status).toBe(
      404,
    );
    const bad = await deliveries('?status=LOST');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      cause: 'INVALID_REQUEST',
      field: 'status',
      validationType: 'INVALID',
    });
    expect((await deliveries('?limit=0')).body.error.field).toBe('limit');
    const metrics = await (await fetch(`${gateway.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/gateway_webhook_attempts_total\{outcome="delivered"\} [1-9]/);
    expect(metrics).toMatch(/gateway_webhook_attempts_total\{outcome="dead_lettered"\} [1-9]/);
  });
});

describe('webhook notifications across a restart', () => {
  it('a gateway killed mid-retry delivers after it restarts, with the same notification id', async () => {
    const receiver = await startWebhookReceiver(() => 500);
    const dataDir = await makeDataDir();
    const env = webhookEnv(receiver, '2s,2s');
    let gateway = await startGateway(dataDir, env);
    try {
      const orderId = orderIds('restart')();
      const path = at(orderId, 'later');
      await merchantClient(gateway).put(
        `/order/${orderId}/transaction/auth-1`,
        authorizeBody('1.00', undefined, {
          order: { amount: '1.00', currency: 'USD', notificationUrl: `${receiver.url}${path}` },
        }),
      );
      const [first] = await receiver.waitFor(path, 1);
      await new Promise((done) => setTimeout(done, 300)); // the failed attempt is logged
      await gateway.stop('SIGKILL'); // while the retry waits its 2 s
      receiver.answer = () => 200;
      gateway = await startGateway(dataDir, env);
      const received = await receiver.waitFor(path, 2);
      expect(received[1].headers['x-notification-id']).toBe(first.headers['x-notification-id']);
      expect(received[1].headers['x-notification-attempt']).toBe('2');
    } finally {
      await gateway.stop();
      await receiver.close();
    }
  });
});
