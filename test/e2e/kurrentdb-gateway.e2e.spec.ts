import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  startKurrentDbStandin,
  type KurrentDbStandin,
} from '../support/kurrentdb-standin/standin-server';
import {
  authorizeBody,
  makeDataDir,
  merchantClient,
  projectionCaughtUp,
  startGateway,
} from '../support/gateway-process';
import { makeKeysFile } from '../support/keys-file';

// The gateway with GATEWAY_EVENT_STORE=kurrentdb, against a real server when
// KURRENTDB_CONNECTION_STRING is set, else against the protocol stand-in (not KurrentDB).
const realServer = process.env.KURRENTDB_CONNECTION_STRING;

describe(`the gateway on ${realServer ? 'KurrentDB' : 'the KurrentDB protocol stand-in'}`, () => {
  let standin: KurrentDbStandin | undefined;
  let connectionString: string;

  beforeAll(async () => {
    if (realServer) connectionString = realServer;
    else {
      standin = await startKurrentDbStandin();
      connectionString = standin.connectionString;
    }
  });
  afterAll(() => standin?.stop());

  it('keeps orders in the cluster, not in the data directory, across a restart', async () => {
    const dataDir = await makeDataDir();
    const env = {
      GATEWAY_EVENT_STORE: 'kurrentdb',
      KURRENTDB_CONNECTION_STRING: connectionString,
      ...makeKeysFile().env,
    };
    // A real server is shared and never emptied: a fresh order id per run.
    const order = `kdb-${Date.now()}`;
    const first = await startGateway(dataDir, env);
    try {
      const api = merchantClient(first);
      const authorized = await api.put(`/order/${order}/transaction/a`, authorizeBody('40.00'));
      expect(authorized.status).toBe(201);
      const captured = await api.put(`/order/${order}/transaction/c`, {
        apiOperation: 'CAPTURE',
        transaction: { amount: '25.00', currency: 'USD' },
      });
      expect(captured.body).toMatchObject({
        result: 'SUCCESS',
        order: { status: 'PARTIALLY_CAPTURED' },
      });
      const ready = await fetch(`${first.baseUrl}/health/ready`);
      expect(await ready.json()).toMatchObject({ status: 'UP', checks: { eventStore: 'open' } });
      // The order-summary projection follows the cluster's $all like the embedded log.
      await projectionCaughtUp(first);
      const listed = await api.get(`/order?limit=100`);
      expect(listed.body.order).toContainEqual(
        expect.objectContaining({ id: order, status: 'PARTIALLY_CAPTURED', transactionCount: 2 }),
      );
    } finally {
      expect(await first.stop()).toBe(0);
    }
    expect(existsSync(join(dataDir, 'events.db'))).toBe(false);

    const second = await startGateway(dataDir, env);
    try {
      const reloaded = await merchantClient(second).get(`/order/${order}`);
      expect(reloaded.body).toMatchObject({
        status: 'PARTIALLY_CAPTURED',
        totalAuthorizedAmount: 40,
        totalCapturedAmount: 25,
      });
    } finally {
      await second.stop();
    }
  });

  it('refuses to start without a connection string, saying which variable is missing', async () => {
    await expect(
      startGateway(undefined, {
        GATEWAY_EVENT_STORE: 'kurrentdb',
        KURRENTDB_CONNECTION_STRING: '',
      }),
    ).rejects.toThrow(/KURRENTDB_CONNECTION_STRING is required when GATEWAY_EVENT_STORE=kurrentdb/);
  });
});
