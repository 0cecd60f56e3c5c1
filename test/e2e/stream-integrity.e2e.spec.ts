import Database from 'better-sqlite3';
import { join } from 'node:path';
import {
  authorizeBody,
  makeDataDir,
  merchantClient,
  startGateway,
  type RunningGateway,
} from '../support/gateway-process';
import { flipStreamIndexByte } from '../support/sqlite-damage';

// Its index entry of revision 0 becomes 'order:TESTMERCHANT:damaged0' (see flipStreamIndexByte).
const DAMAGED = 'order:TESTMERCHANT:damaged1';

/** The stream's events found by scanning the table, whatever its index says. */
function scanned(dataDir: string, streamId: string): { revision: number; type: string }[] {
  const db = new Database(join(dataDir, 'events.db'), { readonly: true });
  try {
    return db
      .prepare(
        'SELECT revision, type FROM events NOT INDEXED WHERE stream_id = ? ORDER BY position',
      )
      .all(streamId) as { revision: number; type: string }[];
  } finally {
    db.close();
  }
}

/** Log lines are written asynchronously: waits for the failure logged under `supportCode`. */
async function failureLogged(
  gateway: RunningGateway,
  supportCode: string,
): Promise<Record<string, unknown>> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    const line = gateway
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.supportCode === supportCode && l.msg === 'unexpected failure');
    if (line) return line;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`no failure logged under ${supportCode}:\n${gateway.output()}`);
}

describe('a flipped byte in the index of events.db', () => {
  it('is answered with 500 and a support code, never as a missing order or a new one', async () => {
    const dataDir = await makeDataDir();
    const first = await startGateway(dataDir);
    const before = merchantClient(first);
    for (const order of ['damaged1', 'healthy']) {
      expect((await before.put(`/order/${order}/transaction/a`, authorizeBody())).status).toBe(201);
      const capture = await before.put(`/order/${order}/transaction/c`, {
        apiOperation: 'CAPTURE',
        transaction: { amount: '100.00', currency: 'USD' },
      });
      expect(capture.status).toBe(201);
    }
    expect(await first.stop('SIGTERM')).toBe(0);
    const stored = scanned(dataDir, DAMAGED);

    flipStreamIndexByte(join(dataDir, 'events.db'), DAMAGED);
    const second = await startGateway(dataDir);
    try {
      const api = merchantClient(second);
      for (const answer of [
        await api.get('/order/damaged1'),
        await api.get('/order/damaged1/transaction/c'),
        await api.put('/order/damaged1/transaction/again', authorizeBody()),
      ]) {
        expect({ status: answer.status, body: answer.body }).toEqual({
          status: 500,
          body: {
            result: 'ERROR',
            error: { cause: 'SERVER_FAILED', supportCode: expect.any(String) },
          },
        });
        // Logged loudly under the support code the client got: the stream and what was found.
        expect(await failureLogged(second, answer.body.error.supportCode)).toMatchObject({
          level: 'error',
          error: `StreamIntegrityError: Stream '${DAMAGED}' is damaged: revision 1 where revision 0 was expected (read from 0)`,
        });
      }
      expect((await api.get('/order/healthy')).body).toMatchObject({
        status: 'CAPTURED',
        totalCapturedAmount: 100,
      });
    } finally {
      await second.stop();
    }
    expect(scanned(dataDir, DAMAGED)).toEqual(stored);
    expect(stored.filter((e) => e.type === 'OrderCreated')).toHaveLength(1);
  });
});
