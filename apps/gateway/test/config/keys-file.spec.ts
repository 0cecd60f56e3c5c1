import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/gateway.config';
import { KEY_FILES, type KeyRole } from '../../src/config/data-dir-keys';
import { KeyFileError } from '../../src/config/key-file';
import { loadKeysFile, writeKeysFile } from '../../src/config/keys-file';
import { runKeysCli } from '../../src/cli/keys.cli';

const ROLES = Object.keys(KEY_FILES) as KeyRole[];
const freshFile = () => join(mkdtempSync(join(tmpdir(), 'keys-file-')), 'keys.json');
const KEY = Buffer.alloc(32, 5).toString('base64');

/** A keys file with `content`, owner-only like the command writes it. */
function keysFileOf(content: unknown): string {
  const file = freshFile();
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content), {
    mode: 0o600,
  });
  return file;
}
const allKeys = () => Object.fromEntries(ROLES.map((role) => [role, KEY]));
const wellFormed = (keys: Record<string, unknown> = allKeys()) => ({
  format: 'gateway-keys',
  version: 1,
  keys,
});

describe('the keys file (GATEWAY_KEYS_FILE)', () => {
  it('is written owner-only with a new 256-bit key per role, and read back the same', () => {
    const file = freshFile();
    writeKeysFile(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written).toMatchObject({ format: 'gateway-keys', version: 1 });
    expect(Object.keys(written.keys).sort()).toEqual([...ROLES].sort());
    const keys = loadKeysFile(file, ROLES);
    for (const role of ROLES) {
      expect(keys[role]).toHaveLength(32);
      expect(keys[role]!.toString('base64')).toBe(written.keys[role]);
    }
    // Each role its own key.
    expect(new Set(ROLES.map((role) => written.keys[role])).size).toBe(ROLES.length);
  });

  it('keeps the keys it is given (a data directory carried into a cluster)', () => {
    const file = freshFile();
    const session = Buffer.alloc(32, 3);
    writeKeysFile(file, { session });
    expect(loadKeysFile(file, ['session'])).toEqual({ session });
  });

  it('is never overwritten', () => {
    const file = freshFile();
    writeKeysFile(file);
    const before = readFileSync(file, 'utf8');
    expect(() => writeKeysFile(file)).toThrow(`Key file ${file} already exists`);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('reads only the roles asked for (bank data may come from GATEWAY_DATA_KEYS)', () => {
    const { bankData: _omitted, ...rest } = allKeys();
    const file = keysFileOf(wellFormed(rest));
    expect(Object.keys(loadKeysFile(file, ['session', 'pageToken']))).toEqual([
      'session',
      'pageToken',
    ]);
    expect(() => loadKeysFile(file, ['bankData'])).toThrow(
      `Key file ${file} has no key for the role bankData`,
    );
  });

  it.each([
    ['not JSON', '{', /is not JSON: it must be \{"format":"gateway-keys"/],
    ['another format', { version: 1, keys: {} }, /is not a keys file/],
    ['keys missing', { format: 'gateway-keys', version: 1 }, /is not a keys file/],
    [
      'a newer version',
      { ...wellFormed(), version: 2 },
      /has format version 2; this gateway reads version 1/,
    ],
    [
      'a misspelt role',
      wellFormed({ ...allKeys(), sesion: KEY }),
      /names an unknown role "sesion"/,
    ],
    [
      'a short key',
      wellFormed({ ...allKeys(), pageToken: KEY.slice(4) }),
      /malformed key for the role pageToken/,
    ],
    [
      'a key that is not a string',
      wellFormed({ ...allKeys(), session: 7 }),
      /malformed key for the role session/,
    ],
  ])(
    'refuses a file with %s, naming the file and never quoting a key',
    (_what, content, message) => {
      const file = keysFileOf(content);
      let error: unknown;
      try {
        loadKeysFile(file, ROLES);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(KeyFileError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain(`Key file ${file} `);
      expect((error as Error).message).not.toContain(KEY.slice(4, 20));
    },
  );

  it('refuses a file other users may read, and one that is missing', () => {
    const file = keysFileOf(wellFormed());
    chmodSync(file, 0o644);
    expect(() => loadKeysFile(file, ROLES)).toThrow(
      `Key file ${file} is open to other users (mode 0644): it must be readable by its owner only (chmod 600)`,
    );
    const missing = freshFile();
    expect(() => loadKeysFile(missing, ROLES)).toThrow(
      `Key file ${missing} cannot be read (ENOENT)`,
    );
  });
});

describe('GATEWAY_KEYS_FILE in the configuration', () => {
  const KURRENTDB = {
    GATEWAY_EVENT_STORE: 'kurrentdb',
    KURRENTDB_CONNECTION_STRING: 'kurrentdb://127.0.0.1:2113?tls=false',
  };

  it('is required on a shared event store, saying how to make one', () => {
    expect(() => loadConfig(KURRENTDB)).toThrow(
      /GATEWAY_KEYS_FILE is required when GATEWAY_EVENT_STORE=kurrentdb: .*npm run keys -- new --out keys\.json.* give the same file to every node/,
    );
  });

  it('is resolved against the working directory, and optional on the embedded store', () => {
    expect(loadConfig({ ...KURRENTDB, GATEWAY_KEYS_FILE: 'keys.json' }, '/etc/gw').keysFile).toBe(
      '/etc/gw/keys.json',
    );
    expect(loadConfig({}).keysFile).toBeUndefined();
  });
});

describe('npm run keys', () => {
  const run = (...args: string[]) => {
    const lines: string[] = [];
    const code = runKeysCli(args, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    return { code, text: lines.join('\n') };
  };

  it('new --out writes a keys file once, and refuses to overwrite it', () => {
    const file = freshFile();
    expect(run('new', '--out', file)).toMatchObject({
      code: 0,
      text: expect.stringContaining(`Wrote ${file}`),
    });
    expect(Object.keys(loadKeysFile(file, ROLES))).toHaveLength(ROLES.length);
    expect(run('new', '--out', file)).toEqual({
      code: 1,
      text: expect.stringContaining(`keys new: Key file ${file} already exists`),
    });
  });

  it('new --from-data-dir takes the key files a data directory holds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-dir-'));
    writeFileSync(join(dir, 'fingerprint.key'), KEY);
    const file = join(dir, 'keys.json');
    const { code, text } = run('new', '--from-data-dir', dir, '--out', file);
    expect(code).toBe(0);
    expect(text).toContain('Taken from');
    expect(text).toContain(': requestFingerprint; every other role has a new key');
    expect(loadKeysFile(file, ['requestFingerprint']).requestFingerprint!.toString('base64')).toBe(
      KEY,
    );
  });

  it.each([
    [[]],
    [['new']],
    [['rotate', '--out', 'x']],
    [['new', '--out']],
    [['new', '--in', 'x']],
  ])('prints its usage for %j', (args) => {
    expect(run(...args)).toEqual({
      code: 2,
      text: expect.stringContaining('usage: keys new --out'),
    });
  });
});
