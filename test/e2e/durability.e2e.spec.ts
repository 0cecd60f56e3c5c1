import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  authorizeBody,
  makeDataDir,
  merchantClient,
  startGateway,
} from '../support/gateway-process';

describe('durability of a real gateway process', () => {
  it('after a restart every order is there, and a retried request gets the original bytes', async () => {
    const dataDir = await makeDataDir();
    const first = await startGateway(dataDir);
    const before = merchantClient(first);
    const put = await before.put('/order/restart-1/transaction/t1', authorizeBody('12.34'));
    await before.put('/order/restart-1/transaction/c1', {
      apiOperation: 'CAPTURE',
      transaction: { amount: '12.34', currency: 'USD' },
    });
    expect(await first.stop('SIGTERM')).toBe(0);

    const second = await startGateway(dataDir);
    try {
      const after = merchantClient(second);
      expect((await after.get('/order/restart-1')).body).toMatchObject({
        status: 'CAPTURED',
        totalCapturedAmount: 12.34,
      });
      const retried = await after.put('/order/restart-1/transaction/t1', authorizeBody('12.34'));
      expect(retried.text).toBe(put.text);
    } finally {
      await second.stop();
    }
  });

  it('kill -9 under load loses no acknowledged transaction and shows nothing half-written', async () => {
    const dataDir = await makeDataDir();
    const gateway = await startGateway(dataDir);
    const api = merchantClient(gateway);
    const acknowledged: string[] = [];
    const attempted: string[] = [];
    let running = true;
    // 32 clients, each opening orders with an AUTHORIZE and a CAPTURE (a two-event and a one-event append).
    const clients = Array.from({ length: 32 }, async (_, client) => {
      for (let i = 0; running; i++) {
        const order = `kill-${client}-${i}`;
        attempted.push(order);
        try {
          const auth = await api.put(`/order/${order}/transaction/a`, authorizeBody('10.00'));
          if (auth.status !== 201) throw new Error(`unexpected ${auth.status}: ${auth.text}`);
          const capture = await api.put(`/order/${order}/transaction/c`, {
            apiOperation: 'CAPTURE',
            transaction: { amount: '10.00', currency: 'USD' },
          });
          if (capture.status !== 201)
            throw new Error(`unexpected ${capture.status}: ${capture.text}`);
          acknowledged.push(order);
        } catch (error) {
          if (running)
            throw new Error(
              `${(error as Error).message} ${String((error as Error).cause)}\n${gateway.output()}`,
            );
          return; // the connection died with the process
        }
      }
    });
    while (acknowledged.length < 500) {
      if (gateway.child.exitCode !== null)
        throw new Error(`gateway died before the kill:\n${gateway.output()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    gateway.child.kill('SIGKILL');
    running = false;
    await gateway.stop();
    await Promise.all(clients);

    const restarted = await startGateway(dataDir);
    try {
      const after = merchantClient(restarted);
      for (const order of acknowledged) {
        const { status, body } = await after.get(`/order/${order}`);
        expect(status).toBe(200);
        expect(body).toMatchObject({ status: 'CAPTURED', totalCapturedAmount: 10 });
      }
      // Orders in flight at the kill exist either not at all or with whole transactions.
      for (const order of attempted.filter((o) => !acknowledged.includes(o))) {
        const { status, body } = await after.get(`/order/${order}`);
        if (status === 404) continue;
        expect(status).toBe(200);
        expect(body.transaction.length).toBeGreaterThanOrEqual(1);
        expect(body.transaction[0].transaction.type).toBe('AUTHORIZATION');
      }
    } finally {
      await restarted.stop();
    }
  });
});

describe('a first start', () => {
  it('makes a data directory that does not exist yet, as `npm start` on a fresh clone does', async () => {
    const parent = await makeDataDir();
    const dataDir = join(parent, 'not', 'yet');
    const gateway = await startGateway(dataDir, {
      GATEWAY_MERCHANTS_FILE: join(parent, 'merchants.json'),
    });
    try {
      const put = await merchantClient(gateway).put(
        '/order/first/transaction/t1',
        authorizeBody('1.00'),
      );
      expect(put.status).toBe(201);
      expect(existsSync(join(dataDir, 'events.db'))).toBe(true);
    } finally {
      await gateway.stop();
    }
  });
});
