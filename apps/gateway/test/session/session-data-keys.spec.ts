import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySessionDataKeys, type SessionDataKeys } from '../../src/session/session-data-keys';
import { SqliteSessionDataKeys } from '../../src/session/sqlite-session-data-keys';

const SOON = '2026-11-26T12:30:00.000Z';
const NOW = new Date('2026-11-26T12:00:00.000Z');

type Opened = { keys: SessionDataKeys; cleanup: () => void };

describe.each<[string, () => Opened]>([
  ['in memory', () => ({ keys: new InMemorySessionDataKeys(), cleanup: () => undefined })],
  [
    'SQLite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'session-keys-'));
      const keys = new SqliteSessionDataKeys(join(dir, 'session-keys.db'));
      const cleanup = (): void => {
        keys.close();
        rmSync(dir, { recursive: true });
      };
      return { keys, cleanup };
    },
  ],
])('SessionDataKeys %s', (_name, open) => {
  let keys: SessionDataKeys;
  let cleanup: () => void;
  beforeEach(() => ({ keys, cleanup } = open()));
  afterEach(() => cleanup());

  it('gives a key back until it is destroyed', async () => {
    const key = randomBytes(32);
    await keys.put('S1', 'k1', Buffer.from(key), SOON);
    await keys.put('S1', 'k2', randomBytes(32), SOON);
    expect(await keys.get('S1', 'k1')).toEqual(key);
    expect(await keys.get('S2', 'k1')).toBeUndefined();
    await keys.destroy('S1', 'k1');
    expect(await keys.get('S1', 'k1')).toBeUndefined();
    expect(await keys.get('S1', 'k2')).toBeDefined();
  });

  it('destroys the keys of expired sessions only', async () => {
    await keys.put('S1', 'k1', randomBytes(32), '2026-11-26T11:59:59.999Z');
    await keys.put('S2', 'k1', randomBytes(32), SOON);
    await keys.purgeExpired(NOW);
    expect(await keys.get('S1', 'k1')).toBeUndefined();
    expect(await keys.get('S2', 'k1')).toBeDefined();
  });
});

describe('SqliteSessionDataKeys on disk', () => {
  it('leaves no copy of a destroyed key in its directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'session-keys-'));
    const keys = new SqliteSessionDataKeys(join(dir, 'session-keys.db'));
    const key = randomBytes(32);
    const onDisk = () =>
      readdirSync(dir).some((file) => readFileSync(join(dir, file)).includes(key));
    await keys.put('S1', 'k1', key, SOON);
    expect(onDisk()).toBe(true);
    await keys.destroy('S1', 'k1');
    expect(onDisk()).toBe(false);
    keys.close();
    rmSync(dir, { recursive: true });
  });
});
