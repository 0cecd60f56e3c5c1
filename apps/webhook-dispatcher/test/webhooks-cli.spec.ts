import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDeliveryStore } from '@gateway/webhooks';
import { runWebhooksCli } from '../src/cli/webhooks.cli';

const delivery = (id: string, merchantId: string, orderId: string) => ({
  id,
  merchantId,
  orderId,
  streamId: `order:${merchantId}:${orderId}`,
  revision: 1,
  eventType: 'AuthorizationProcessed',
  transactionId: 't-1',
  url: 'https://shop.example/hooks',
  body: '{}',
  committedAt: new Date().toISOString(),
});

describe('webhooks CLI', () => {
  let db: string;
  const run = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runWebhooksCli([...args, '--db', db], {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  beforeAll(async () => {
    db = join(mkdtempSync(join(tmpdir(), 'webhooks-cli-')), 'webhooks.db');
    const store = new SqliteDeliveryStore(db);
    await store.record(delivery('d-a', 'TESTA', 'o-1'), Date.now());
    await store.record(delivery('d-b', 'TESTB', 'o-2'), Date.now());
    const [due] = store.due('TESTA', Date.now(), 1);
    await store.completeAttempt(
      due,
      {
        attempt: 1,
        startedAt: new Date().toISOString(),
        latencyMs: 3,
        statusCode: 500,
        outcome: 'FAILED',
      },
      { status: 'DEAD_LETTERED' },
      Date.now(),
    );
    await store.close();
  });

  it('lists deliveries, by merchant and status', async () => {
    const all = await run('list');
    expect(all.code).toBe(0);
    expect(all.out).toMatch(/d-a\tDEAD_LETTERED\t1\tTESTA\to-1\tt-1\t500/);
    expect(all.out).toMatch(/d-b\tPENDING\t0\tTESTB/);
    const dead = await run('list', '--status', 'DEAD_LETTERED');
    expect(dead.out).not.toMatch(/d-b/);
    expect((await run('list', '--merchant', 'TESTB')).out).not.toMatch(/d-a/);
  });

  it('shows one delivery with its attempts', async () => {
    const shown = await run('show', 'd-a');
    expect(JSON.parse(shown.out)).toMatchObject({
      id: 'd-a',
      attemptLog: [{ attempt: 1, statusCode: 500, outcome: 'FAILED' }],
    });
    expect((await run('show', 'nope')).code).toBe(1);
  });

  it('redelivers every dead-lettered delivery of a merchant', async () => {
    const result = await run('redeliver', '--merchant', 'TESTA', '--dead-lettered');
    expect(result.out).toBe('redelivering 1 dead-lettered deliveries of TESTA');
    expect((await run('list', '--status', 'DEAD_LETTERED')).out).not.toMatch(/d-a/);
    expect((await run('list', '--merchant', 'TESTA')).out).toMatch(/d-a\tPENDING/);
  });

  it('explains bad usage', async () => {
    for (const args of [
      ['purge'],
      ['list', '--status', 'LOST'],
      ['list', '--limit', '0'],
      ['redeliver'],
    ]) {
      const result = await run(...args);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(/usage:/);
    }
    const missing = await runWebhooksCli(['list', '--db', '/nonexistent/webhooks.db'], {
      out: () => {},
      err: () => {},
    });
    expect(missing).toBe(2);
  });
});
