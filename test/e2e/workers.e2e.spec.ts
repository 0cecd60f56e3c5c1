import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashPassword } from '@gateway/merchants';
import {
  authorizeBody,
  basicAuth,
  makeDataDir,
  merchantClient,
  MERCHANTS,
  startGateway,
  type ApiResponse,
  type RunningGateway,
} from '../support/gateway-process';
import { openFeed } from '../support/sse-client';
import { until } from '../support/until';
import { describeWithUnwritableFiles, fillDisk, freeDisk } from '../support/unwritable-files';
import {
  eventually,
  receiverPath,
  startWebhookReceiver,
  webhookEnv,
  type WebhookReceiver,
} from '../support/webhook-receiver';

/**
 * GATEWAY_WORKERS=2 over a real port (docs/workers.md): two request processes behind the
 * primary, which owns the one writer and the consumers. Which process answered a request is
 * read from its log line (the request's X-Request-Id, and the `worker` every line of a request
 * process carries). Run `npm run build` first.
 */

const WORKERS = { GATEWAY_WORKERS: '2' };
const RUN = Date.now().toString(36);
let seq = 0;
const newOrder = (what: string) => `${what}-${RUN}-${++seq}`.slice(-40);
const refundBody = (amount: string) => ({
  apiOperation: 'REFUND',
  transaction: { amount, currency: 'USD' },
});
const payBody = (amount: string) => ({ ...authorizeBody(amount), apiOperation: 'PAY' });

interface LogLine {
  readonly reqId?: string;
  readonly worker?: number;
  readonly pid?: number;
  readonly msg?: string;
}

function logLines(gateway: RunningGateway): LogLine[] {
  return gateway
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** The request processes that answered these requests (by X-Request-Id), once all are logged. */
async function servedBy(gateway: RunningGateway, reqIds: string[]): Promise<Set<number>> {
  const lines = await eventually(async () => {
    const found = logLines(gateway).filter((l) => l.reqId && reqIds.includes(l.reqId));
    return found.length >= reqIds.length && found;
  });
  return new Set(lines.map((l) => l.worker!));
}

/** The pids of the request processes, as their log lines give them, newest last. */
function workerPids(gateway: RunningGateway): number[] {
  const named = (l: LogLine) => (l.worker || l.msg === REPLACED) && l.pid;
  return [...new Set(logLines(gateway).flatMap((l) => (named(l) ? [l.pid!] : [])))];
}
const REPLACED = 'request process started in its place';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function metricValue(text: string, line: RegExp): number {
  const match = text.split('\n').find((l) => line.test(l));
  return match ? Number(match.slice(match.lastIndexOf(' ') + 1)) : 0;
}

describe('GATEWAY_WORKERS=2: two request processes, one writer, consumers once', () => {
  let receiver: WebhookReceiver;
  let gateway: RunningGateway;
  let api: ReturnType<typeof merchantClient>;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    gateway = await startGateway(undefined, { ...webhookEnv(receiver), ...WORKERS });
    api = merchantClient(gateway);
  });
  afterAll(async () => {
    await gateway?.stop();
    await receiver?.close();
  });

  it('answers on both processes; the read model, the bus and the feeds see each event once', async () => {
    const feed = await openFeed(api.url('/events'), {
      authorization: basicAuth('TESTMERCHANT', MERCHANTS.TESTMERCHANT),
    });
    const orders = Array.from({ length: 24 }, () => newOrder('spread'));
    const reqIds = orders.map((order) => `req-${order}`);
    const answers = await Promise.all(
      orders.map((order, i) =>
        api.put(
          `/order/${order}/transaction/auth-1`,
          authorizeBody('10.00', undefined, {
            order: {
              amount: '10.00',
              currency: 'USD',
              notificationUrl: `${receiver.url}${receiverPath(order, 'ok')}`,
            },
          }),
          { 'x-request-id': reqIds[i] },
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(orders.map(() => 201));
    expect(await servedBy(gateway, reqIds)).toEqual(new Set([1, 2]));

    // The in-process bus, through the one dispatcher: one notification per order, not one per process.
    for (const order of orders) await receiver.waitFor(receiverPath(order, 'ok'), 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const order of orders)
      expect(receiver.received(receiverPath(order, 'ok'))).toHaveLength(1);

    // The read model, written by the one projector: every order once.
    const listed = await eventually(async () => {
      const list = await api.get('/order?limit=100');
      const ids = (list.body.order as { id: string }[]).map((o) => o.id);
      return orders.every((o) => ids.includes(o)) && ids;
    });
    for (const order of orders) expect(listed.filter((id) => id === order)).toHaveLength(1);

    // The feed (in whichever process it landed) sees every order's events, each once.
    const events = await feed.waitFor(orders.length * 2);
    feed.close();
    const ids = events.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const fed = new Set(
      events.map((e) => JSON.parse(e.data).order?.id ?? JSON.parse(e.data).orderId),
    );
    for (const order of orders) expect(fed.has(order)).toBe(true);

    // One scrape sums every process: both processes' requests, the one writer's appends.
    const metrics = await fetch(`${gateway.baseUrl}/metrics`).then((r) => r.text());
    expect(
      metricValue(metrics, /^gateway_requests_total\{apiOperation="AUTHORIZE",result="SUCCESS"/),
    ).toBe(orders.length);
    expect(
      metricValue(metrics, /^gateway_event_store_appends_committed_total /),
    ).toBeGreaterThanOrEqual(orders.length);
    expect(metricValue(metrics, /^gateway_relay_up /)).toBe(1);

    const ready = await fetch(`${gateway.baseUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'UP',
      checks: { eventStore: 'open', bus: 'live' },
      consumers: ['projector', 'relay', 'dispatcher'],
    });
  });

  it('races on one order across the processes: never more refunded than captured, retries identical', async () => {
    const order = newOrder('race');
    expect((await api.put(`/order/${order}/transaction/pay`, payBody('100.00'))).body.result).toBe(
      'SUCCESS',
    );
    const ids = Array.from({ length: 40 }, (_, i) => `refund-${i}`);
    const reqIds = ids.map((id) => `req-${order}-${id}`);
    const answers = await Promise.all(
      ids.map((id, i) =>
        api.put(`/order/${order}/transaction/${id}`, refundBody('10.00'), {
          'x-request-id': reqIds[i],
        }),
      ),
    );
    expect(await servedBy(gateway, reqIds)).toEqual(new Set([1, 2]));
    const won = ids.filter((_, i) => isApproved(answers[i]));
    for (const answer of answers)
      if (!isApproved(answer)) expect(refusedOrLocked(answer)).toBe(true);
    expect(won.length).toBeGreaterThan(0);
    expect(won.length).toBeLessThanOrEqual(10);
    if (answers.some((a) => a.status === 400)) expect(won).toHaveLength(10);

    const got = await api.get(`/order/${order}`);
    expect(got.body.totalRefundedAmount).toBe(won.length * 10);
    const refunds = (got.body.transaction as { transaction: { id: string; type: string } }[])
      .filter((t) => t.transaction.type === 'REFUND')
      .map((t) => t.transaction.id);
    expect([...refunds].sort()).toEqual([...won].sort());

    // The same request six times at once, on both processes: one refund, six identical answers.
    const retry = newOrder('retry');
    await api.put(`/order/${retry}/transaction/pay`, payBody('100.00'));
    const same = await Promise.all(
      Array.from({ length: 6 }, () =>
        api.put(`/order/${retry}/transaction/same`, refundBody('10.00')),
      ),
    );
    expect(same[0].body).toMatchObject({ result: 'SUCCESS', transaction: { id: 'same' } });
    expect(new Set(same.map((a) => a.text)).size).toBe(1);
    expect((await api.get(`/order/${retry}`)).body.totalRefundedAmount).toBe(10);
  });

  it('replaces a request process that dies, and keeps answering meanwhile', async () => {
    const [victim] = workerPids(gateway);
    process.kill(victim, 'SIGKILL');
    await until(
      () => gateway.output().includes(REPLACED),
      'a request process started in its place',
      30_000,
    );
    expect(alive(victim)).toBe(false);
    expect(workerPids(gateway).filter(alive)).toHaveLength(2);
    const orders = Array.from({ length: 12 }, () => newOrder('after-crash'));
    const reqIds = orders.map((order) => `req-${order}`);
    const answers = await Promise.all(
      orders.map((order, i) =>
        api.put(`/order/${order}/transaction/auth-1`, authorizeBody('5.00'), {
          'x-request-id': reqIds[i],
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(orders.map(() => 201));
    expect((await servedBy(gateway, reqIds)).size).toBe(2);
    expect(gateway.child.exitCode).toBeNull();
  });
});

const isApproved = (a: ApiResponse) =>
  a.status === 201 && a.body?.result === 'SUCCESS' && a.body.response?.gatewayCode === 'APPROVED';
/** A refund past what is left (400 on the amount), or the order's lock held by the other process. */
const refusedOrLocked = (a: ApiResponse) =>
  (a.status === 400 && a.body?.error?.field === 'transaction.amount') ||
  (a.status === 201 && a.body?.response?.gatewayCode === 'LOCK_FAILURE');

describe('GATEWAY_WORKERS=2: signals and the primary’s death', () => {
  it('a kill -9 of the primary after 201s loses none of them; its request processes stop too', async () => {
    const dataDir = await makeDataDir();
    const first = await startGateway(dataDir, WORKERS);
    const api = merchantClient(first);
    const orders = Array.from({ length: 30 }, () => newOrder('kill'));
    try {
      const answers = await Promise.all(
        orders.map((order) => api.put(`/order/${order}/transaction/auth-1`, authorizeBody('7.00'))),
      );
      expect(answers.map((a) => a.status)).toEqual(orders.map(() => 201));
      // Each process writes its own log lines: wait until both reached the primary's stdout.
      await until(() => workerPids(first).length === 2, 'both processes logged a request', 10_000);
    } catch (error) {
      await first.stop('SIGKILL'); // its request processes follow: nothing keeps the run alive
      throw error;
    }
    const pids = workerPids(first);
    // More on their way while it dies: those answered 201 must be there too.
    const late = Promise.allSettled(
      orders.map((order) =>
        api.put(`/order/${order}/transaction/capture`, {
          apiOperation: 'CAPTURE',
          transaction: { amount: '7.00', currency: 'USD' },
        }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    await first.stop('SIGKILL');
    const captured = (await late).flatMap((r, i) =>
      r.status === 'fulfilled' && r.value.status === 201 ? [orders[i]] : [],
    );
    await until(() => pids.every((pid) => !alive(pid)), 'the request processes stopped', 10_000);

    const second = await startGateway(dataDir, WORKERS);
    try {
      const again = merchantClient(second);
      for (const order of orders) {
        const got = await again.get(`/order/${order}`);
        expect(got.status).toBe(200);
        expect(got.body.status).toEqual(captured.includes(order) ? 'CAPTURED' : expect.any(String));
        expect(got.body.totalAuthorizedAmount).toBe(7);
      }
    } finally {
      await second.stop();
    }
  });

  it('SIGHUP reloads the merchants in every process; SIGTERM drains them all', async () => {
    const dataDir = await makeDataDir();
    const gateway = await startGateway(dataDir, WORKERS);
    const api = merchantClient(gateway);
    const other = merchantClient(gateway, 'TESTOTHER');
    const file = join(dataDir, 'merchants.json');
    const { merchants } = JSON.parse(readFileSync(file, 'utf8')) as { merchants: { id: string }[] };
    const newHash = await hashPassword('a-new-password-for-other');
    const changed = merchants.map((m) =>
      m.id === 'TESTOTHER' ? { ...m, passwordHash: newHash } : m,
    );
    writeFileSync(file, JSON.stringify({ merchants: changed }));
    gateway.child.kill('SIGHUP');
    await until(
      () => (gateway.output().match(/merchants reloaded/g) ?? []).length === 3,
      'three processes reloaded the merchants',
    );
    const reqIds = Array.from({ length: 12 }, (_, i) => `req-hup-${RUN}-${i}`);
    const refused = await Promise.all(
      reqIds.map((reqId) => other.get('/order/none', { 'x-request-id': reqId })),
    );
    expect(refused.map((r) => r.status)).toEqual(reqIds.map(() => 401));
    expect(await servedBy(gateway, reqIds)).toEqual(new Set([1, 2]));

    const orders = Array.from({ length: 30 }, () => newOrder('drain'));
    const inFlight = Promise.allSettled(
      orders.map((order) => api.put(`/order/${order}/transaction/auth-1`, authorizeBody('3.00'))),
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    const code = await gateway.stop('SIGTERM');
    const answered = await inFlight;
    expect(code).toBe(0);
    expect(gateway.output().match(/"msg":"shut down"/g)).toHaveLength(3);
    const created = answered.flatMap((r, i) =>
      r.status === 'fulfilled' && r.value.status === 201 ? [orders[i]] : [],
    );
    const again = await startGateway(dataDir);
    try {
      for (const order of created)
        expect((await merchantClient(again).get(`/order/${order}`)).status).toBe(200);
    } finally {
      await again.stop();
    }
  });
});

describeWithUnwritableFiles()('GATEWAY_WORKERS=2: the one writer cannot write', () => {
  it('every process answers 503 and is not ready, and all come back once the disk has room', async () => {
    const gateway = await startGateway(undefined, WORKERS);
    const api = merchantClient(gateway);
    const primary = gateway.child.pid!;
    try {
      fillDisk(primary); // the primary's writer alone writes events.db
      const reqIds = Array.from({ length: 12 }, (_, i) => `req-full-${RUN}-${i}`);
      const refused = await Promise.all(
        reqIds.map((reqId) =>
          api.put(`/order/${newOrder('full')}/transaction/1`, authorizeBody(), {
            'x-request-id': reqId,
          }),
        ),
      );
      expect(refused.map((r) => r.status)).toEqual(reqIds.map(() => 503));
      expect(await servedBy(gateway, reqIds)).toEqual(new Set([1, 2]));
      // Each process is told the writer's state: every readiness answer, wherever it lands, is down.
      await until(async () => {
        const answers = await Promise.all(
          Array.from({ length: 8 }, () => fetch(`${gateway.baseUrl}/health/ready`)),
        );
        return answers.every((a) => a.status === 503);
      }, 'every process reports the store unwritable');
      const down = await (await fetch(`${gateway.baseUrl}/health/ready`)).json();
      expect(down).toMatchObject({ status: 'DOWN', checks: { eventStore: 'unwritable' } });
    } finally {
      freeDisk(primary);
    }
    await until(async () => {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => fetch(`${gateway.baseUrl}/health/ready`)),
      );
      return answers.every((a) => a.status === 200);
    }, 'every process is ready again');
    const again = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.put(`/order/${newOrder('room')}/transaction/1`, authorizeBody()),
      ),
    );
    expect(again.map((a) => a.status)).toEqual(again.map(() => 201));
    await gateway.stop();
  });
});
