import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKurrentDbStandin } from '../../../../test/support/kurrentdb-standin/standin-server';
import { KurrentDbSecretStore } from '../../src/secrets/kurrentdb-secret-store';
import { InMemorySecretStore } from '../../src/secrets/secret-store';
import { SqliteSecretStore } from '../../src/secrets/sqlite-secret-store';
import { describeSecretStoreContract } from './secret-store.contract';

const tempDir = () => mkdtempSync(join(tmpdir(), 'secrets-'));

describeSecretStoreContract('in memory', async () => ({ secrets: new InMemorySecretStore() }));

describeSecretStoreContract('SQLite', async () => {
  const dir = tempDir();
  const secrets = new SqliteSecretStore(join(dir, 'secrets.db'));
  return { secrets, cleanup: async () => rmSync(dir, { recursive: true }) };
});

describeSecretStoreContract('KurrentDB (protocol stand-in), two nodes', async () => {
  const standin = await startKurrentDbStandin();
  const node = () =>
    new KurrentDbSecretStore({
      connectionString: standin.connectionString,
      namespace: 'test-',
      purgeEveryMs: 0,
    });
  return { secrets: node(), other: node(), cleanup: () => standin.stop() };
});

describe('SqliteSecretStore on disk', () => {
  it('leaves no copy of a destroyed secret in its directory', async () => {
    const dir = tempDir();
    const secrets = new SqliteSecretStore(join(dir, 'secrets.db'));
    const secret = randomBytes(32).toString('base64');
    const onDisk = () =>
      readdirSync(dir).some((file) => readFileSync(join(dir, file)).includes(secret));
    await secrets.put('S1', secret);
    expect(onDisk()).toBe(true);
    await secrets.destroy('S1');
    expect(onDisk()).toBe(false);
    await secrets.close();
    rmSync(dir, { recursive: true });
  });
});

describe('KurrentDbSecretStore on the server', () => {
  it('tombstones a destroyed secret and truncates a replaced one: a scavenge leaves neither', async () => {
    const standin = await startKurrentDbStandin();
    const secrets = new KurrentDbSecretStore({ connectionString: standin.connectionString });
    const [destroyed, replaced, kept] = [1, 2, 3].map(() => randomBytes(32).toString('base64'));
    await secrets.put('a', destroyed);
    await secrets.put('b', replaced);
    await secrets.put('b', kept);
    await secrets.destroy('a');
    const logHolds = (secret: string) =>
      Array.from({ length: standin.log.length }, (_, i) => standin.log.at(i)!).some((event) =>
        Buffer.from(event.data).toString('utf8').includes(secret),
      );
    // Until an operator's scavenge, the server's log still holds them (unreadable through the API).
    expect(logHolds(destroyed)).toBe(true);
    expect(logHolds(replaced)).toBe(true);
    standin.log.scavenge();
    expect(logHolds(destroyed)).toBe(false);
    expect(logHolds(replaced)).toBe(false);
    expect(logHolds(kept)).toBe(true);
    expect(await secrets.get('b')).toBe(kept);
    expect(await secrets.get('a')).toBeUndefined();
    await secrets.close();
    await standin.stop();
  });
});
