import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  authorizeBody,
  makeDataDir,
  merchantClient,
  refusedStart,
  startGateway,
} from '../support/gateway-process';
import { providerPaymentBody } from '../support/three-d-secure';

const KEY_FILES = [
  'page-token.key',
  'fingerprint.key',
  'card-fingerprint.key',
  'session.key',
  'bank-data.key',
];
const STACK_LINE = /^\s+at /m;

describe('key files in the data directory', () => {
  it.each([
    ['page-token.key', 'empty', '', /is empty: it must hold a 256-bit key/],
    ['fingerprint.key', 'empty', '', /is empty/],
    ['card-fingerprint.key', 'empty', '', /is empty/],
    ['session.key', 'short', Buffer.alloc(16, 9).toString('base64'), /holds 24 characters/],
    ['bank-data.key', 'empty', '', /is empty/],
    ['page-token.key', 'unreadable', undefined, /cannot be read \(EISDIR\)/],
  ])(
    'a %s that is %s stops the start, with a message naming the file',
    async (name, _what, content, problem) => {
      const dataDir = await makeDataDir();
      const file = join(dataDir, name);
      if (content === undefined) mkdirSync(file);
      else writeFileSync(file, content);
      const { code, output } = await refusedStart(() => startGateway(dataDir));
      expect(code).not.toBeNull();
      expect(code).not.toBe(0);
      expect(output).toContain(`Key file ${file} `);
      expect(output).toMatch(problem);
      expect(output).not.toMatch(STACK_LINE);
    },
  );

  it('a key file lost after orders exist is never made again: the start stops until it is restored, and retries then get their original answer', async () => {
    const dataDir = await makeDataDir();
    const first = await startGateway(dataDir);
    const authorized = await merchantClient(first).put(
      '/order/keys-lost-1/transaction/t1',
      authorizeBody('21.00'),
    );
    expect(authorized.status).toBe(201);
    await first.stop();

    const file = join(dataDir, 'fingerprint.key');
    const kept = readFileSync(file);
    rmSync(file);
    const refused = await refusedStart(() => startGateway(dataDir));
    expect(refused.code).not.toBeNull();
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain(`Key file ${file} is missing`);
    expect(refused.output).toMatch(/event store already holds events/);
    expect(refused.output).not.toMatch(STACK_LINE);
    expect(readdirSync(dataDir)).not.toContain('fingerprint.key');

    writeFileSync(file, kept, { mode: 0o600 });
    const restored = await startGateway(dataDir);
    try {
      const retried = await merchantClient(restored).put(
        '/order/keys-lost-1/transaction/t1',
        authorizeBody('21.00'),
      );
      expect(retried.status).toBe(201);
      expect(retried.text).toBe(authorized.text);
    } finally {
      await restored.stop();
    }
  });

  it('two gateways starting together on a fresh data directory on a slow disk both start, with the same keys', async () => {
    const dataDir = await makeDataDir();
    // Every key file write waits a second: a key made by one process is seen by the other
    // while it is being written, whichever gets there first.
    const slowDisk = {
      NODE_OPTIONS: `--require ${resolve(__dirname, '../support/slow-key-writes.js')}`,
      SLOW_KEY_WRITE_MS: '1000',
    };
    const starts = await Promise.allSettled([
      startGateway(dataDir, slowDisk),
      startGateway(dataDir, slowDisk),
    ]);
    const started = starts.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    try {
      for (const s of starts) if (s.status === 'rejected') throw s.reason;
      const [a, b] = started;
      expect(
        readdirSync(dataDir)
          .filter((f) => f.includes('.key'))
          .sort(),
      ).toEqual([...KEY_FILES].sort());
      // A payer link made by one is honoured by the other (page-token.key) ...
      const initiated = await merchantClient(a).put(
        '/order/keys-race-1/transaction/bp-1',
        providerPaymentBody(),
      );
      expect(initiated.status).toBe(201);
      const link = new URL(initiated.body.browserPayment.redirectUrl);
      const atB = await fetch(`${b.baseUrl}${link.pathname}`);
      expect(atB.status).toBe(200);
      // ... and a retry sent to the other is recognised as the same request (fingerprint.key).
      const retried = await merchantClient(b).put(
        '/order/keys-race-1/transaction/bp-1',
        providerPaymentBody(),
      );
      expect(retried.status).toBe(201);
      expect(retried.body.transaction).toEqual(initiated.body.transaction);
    } finally {
      await Promise.all(started.map((g) => g.stop()));
    }
  });
});
