import { chmodSync, chownSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDispatcher } from '../support/dispatcher-process';
import {
  authorizeBody,
  makeDataDir,
  merchantClient,
  refusedStart,
  startGateway,
  type RefusedStart,
} from '../support/gateway-process';

const STACK_LINE = /^\s+at /m;
/** What a damaged file looks like to SQLite: anything but its header, longer than a page. */
const NOT_A_DATABASE = 'this was events.db before the disk went bad\n'.repeat(200);

/** Stopped with a non-zero code, one message naming the file (on stderr and in the JSON log). */
function expectRefusalNaming(refused: RefusedStart, file: string, problem: RegExp): void {
  expect(refused.code).not.toBeNull();
  expect(refused.code).not.toBe(0);
  expect(refused.output.split('\n')).toContainEqual(expect.stringMatching(problem));
  expect(refused.output.split('\n')).toContainEqual(
    expect.stringContaining(`Database file ${file} `),
  );
  expect(refused.output).toContain(`"msg":"Database file ${file} `);
  expect(refused.output).toMatch(problem);
  expect(refused.output).not.toMatch(STACK_LINE);
}

describe('database files at start-up', () => {
  it.each([
    'events.db',
    'sessions.db',
    'read-model.db',
    'relay.db',
    'webhooks.db',
    'settlement-index.db',
  ])('a %s that is not a database stops the start with a message naming it', async (name) => {
    const dataDir = await makeDataDir();
    writeFileSync(join(dataDir, name), NOT_A_DATABASE);
    expectRefusalNaming(
      await refusedStart(() => startGateway(dataDir)),
      join(dataDir, name),
      /is not a SQLite database \(damaged, or another kind of file\)/,
    );
  });

  it('a delivery store in a directory that does not exist: the message names the file and the directory', async () => {
    const dataDir = await makeDataDir();
    const file = join(dataDir, 'no-such-dir', 'webhooks.db');
    expectRefusalNaming(
      await refusedStart(() => startGateway(dataDir, { GATEWAY_WEBHOOK_DB: file })),
      file,
      new RegExp(`cannot be opened: its directory ${join(dataDir, 'no-such-dir')} does not exist`),
    );
  });

  it('a data directory made read-only after orders were taken: the message names a database file and says so', async () => {
    const dataDir = await makeDataDir();
    const gateway = await startGateway(dataDir);
    expect(
      (await merchantClient(gateway).put('/order/ro-1/transaction/t1', authorizeBody())).status,
    ).toBe(201);
    await gateway.stop();
    // Root ignores permissions, so a root test runner starts the gateway as nobody, who owns
    // the files (keys stay readable) but may write neither them nor the directory.
    const nobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
    for (const name of readdirSync(dataDir)) {
      if (nobody) chownSync(join(dataDir, name), nobody.uid, nobody.gid);
      chmodSync(join(dataDir, name), 0o400);
    }
    chmodSync(dataDir, 0o555);
    const refused = await refusedStart(() => startGateway(dataDir, {}, nobody));
    const named = /^Database file (\S+\.db) /m.exec(refused.output)?.[1];
    expect(named?.startsWith(`${dataDir}/`)).toBe(true);
    expectRefusalNaming(refused, named!, /are read-only|may be read and written/);
  });

  it('the standalone webhook dispatcher names a damaged delivery store too', async () => {
    const dataDir = await makeDataDir();
    const file = join(dataDir, 'webhooks.db');
    writeFileSync(file, NOT_A_DATABASE);
    const refused = await refusedStart(() =>
      startDispatcher(dataDir, { GATEWAY_BUS: 'kafka', KAFKA_BROKERS: '127.0.0.1:9' }),
    );
    expect(refused.code).not.toBeNull();
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain(`Database file ${file} is not a SQLite database`);
    expect(refused.output).not.toMatch(STACK_LINE);
  });
});
