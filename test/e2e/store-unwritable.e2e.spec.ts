import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  authorizeBody,
  makeDataDir,
  merchantClient,
  orderIds,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { serverBusy } from '../support/gateway-load';
import { until } from '../support/until';
import {
  describeWithUnwritableFiles,
  fillDisk,
  freeDisk,
  makeReadOnly,
  makeWritable,
} from '../support/unwritable-files';

const nextOrder = orderIds('unwritable');

async function readiness(gateway: RunningGateway) {
  const answer = await fetch(`${gateway.baseUrl}/health/ready`);
  return { status: answer.status, body: (await answer.json()) as any };
}

/** A PUT while the store cannot write: 503 SERVER_BUSY to retry, no SQL, nothing recorded. */
async function expectRefusedWrite(gateway: RunningGateway): Promise<void> {
  const api = merchantClient(gateway);
  const order = nextOrder();
  const answer = await api.put(`/order/${order}/transaction/1`, authorizeBody());
  expect(answer.status).toBe(503);
  expect(answer.headers.get('retry-after')).toBe('1');
  expect(answer.body).toEqual(
    serverBusy('The gateway cannot record transactions at the moment. Retry after 1 second'),
  );
  expect(answer.text).not.toMatch(/sqlite|database/i);
  expect((await api.get(`/order/${order}`)).status).toBe(404);
}

/** Ready again without any request's help, and writing. */
async function expectRecovered(gateway: RunningGateway, earlierOrder: string): Promise<void> {
  await until(async () => (await readiness(gateway)).status === 200, 'the gateway is ready again');
  const api = merchantClient(gateway);
  expect((await api.put(`/order/${nextOrder()}/transaction/1`, authorizeBody())).status).toBe(201);
  expect((await api.get(`/order/${earlierOrder}`)).body.transaction).toHaveLength(1);
}

/** Starts a gateway, records one order, and stops it (gracefully, or by kill -9). */
async function dataDirWithOneOrder(signal: NodeJS.Signals): Promise<[string, string]> {
  const dataDir = await makeDataDir();
  const gateway = await startGateway(dataDir);
  const order = nextOrder();
  try {
    const answer = await merchantClient(gateway).put(
      `/order/${order}/transaction/1`,
      authorizeBody(),
    );
    expect(answer.status).toBe(201);
  } finally {
    await gateway.stop(signal);
  }
  return [dataDir, order];
}

describeWithUnwritableFiles()('readiness while the event store cannot write', () => {
  const locked: string[] = [];
  let gateway: RunningGateway | undefined;
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    for (const file of locked.splice(0)) if (existsSync(file)) makeWritable(file);
  });
  const lock = (file: string) => {
    makeReadOnly(file);
    locked.push(file);
  };

  it('a full disk: PUTs answer 503, readiness goes down with the reason, and both come back once there is room', async () => {
    const [dataDir, earlier] = await dataDirWithOneOrder('SIGTERM');
    gateway = await startGateway(dataDir);
    fillDisk(gateway.child.pid!);
    try {
      await expectRefusedWrite(gateway);
      const down = await readiness(gateway);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({
        status: 'DOWN',
        checks: {
          eventStore: 'unwritable',
          eventStoreError: expect.stringMatching(/^SQLITE_(FULL|IOERR)/),
        },
      });
      expect((await merchantClient(gateway).get(`/order/${earlier}`)).status).toBe(200);
      await expectRefusedWrite(gateway); // refused at once now, without trying
    } finally {
      freeDisk(gateway.child.pid!);
    }
    await expectRecovered(gateway, earlier);
    expect(gateway.output()).toMatch(
      /"code":"SQLITE_(FULL|IOERR)[A-Z_]*","msg":"event store cannot write/,
    );
    expect(gateway.output()).toMatch(/event store writable again/);
  });

  it('a read-only events.db at start: not ready, PUTs answer 503, and both come back once it is writable', async () => {
    const [dataDir, earlier] = await dataDirWithOneOrder('SIGTERM');
    lock(join(dataDir, 'events.db'));
    gateway = await startGateway(dataDir);
    const down = await readiness(gateway);
    expect(down.status).toBe(503);
    expect(down.body.checks).toMatchObject({
      eventStore: 'unwritable',
      eventStoreError: 'SQLITE_READONLY',
    });
    await expectRefusedWrite(gateway);
    expect((await merchantClient(gateway).get(`/order/${earlier}`)).status).toBe(200);
    makeWritable(join(dataDir, 'events.db'));
    await expectRecovered(gateway, earlier);
  });

  it('a -shm left read-only by a crash: not ready, and writing again once it is writable (the connections reopen)', async () => {
    const [dataDir, earlier] = await dataDirWithOneOrder('SIGKILL');
    const shm = join(dataDir, 'events.db-shm');
    expect(existsSync(shm)).toBe(true);
    lock(shm);
    gateway = await startGateway(dataDir);
    expect((await readiness(gateway)).body.checks.eventStore).toBe('unwritable');
    await expectRefusedWrite(gateway);
    makeWritable(shm);
    await expectRecovered(gateway, earlier);
  });
});
