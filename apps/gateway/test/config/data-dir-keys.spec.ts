import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDataDirKeys } from '../../src/config/data-dir-keys';
import { KeyFileError, makeKeyFile, readKeyFile } from '../../src/config/key-file';

const freshDir = () => mkdtempSync(join(tmpdir(), 'keys-'));
const emptyStore = async () => true;
const storeWithEvents = async () => false;

describe('key files', () => {
  it('makes a key once (owner-only) and reads the same key back', () => {
    const dir = freshDir();
    const first = makeKeyFile(join(dir, 'test.key'));
    expect(first).toHaveLength(32);
    expect(makeKeyFile(join(dir, 'test.key')).equals(first)).toBe(true);
    expect(readKeyFile(join(dir, 'test.key'))!.equals(first)).toBe(true);
    expect(readdirSync(dir)).toEqual(['test.key']);
    expect(statSync(join(dir, 'test.key')).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['empty', '', /test\.key is empty: it must hold a 256-bit key as 44 characters of base64/],
    ['blank', ' \n', /is empty/],
    ['short (16 bytes)', Buffer.alloc(16, 1).toString('base64'), /test\.key holds 24 characters/],
    ['not base64', '!'.repeat(44), /holds 44 characters: it must hold a 256-bit key/],
  ])('refuses a key file that is %s, naming the file', (_what, content, message) => {
    const file = join(freshDir(), 'test.key');
    writeFileSync(file, content);
    expect(() => readKeyFile(file)).toThrow(KeyFileError);
    expect(() => readKeyFile(file)).toThrow(message);
    expect(() => readKeyFile(file)).toThrow(file);
  });

  it('refuses a key file that cannot be read, naming the file', () => {
    const file = join(freshDir(), 'test.key');
    mkdirSync(file);
    expect(() => readKeyFile(file)).toThrow(`Key file ${file} cannot be read (EISDIR)`);
  });

  it('accepts a key written by hand with a trailing newline (openssl rand -base64 32)', () => {
    const file = join(freshDir(), 'test.key');
    const key = Buffer.alloc(32, 7);
    writeFileSync(file, `${key.toString('base64')}\n`);
    expect(readKeyFile(file)!.equals(key)).toBe(true);
  });

  it('makes missing keys while the event store is empty', async () => {
    const dir = freshDir();
    const keys = await loadDataDirKeys(dir, ['session', 'pageToken'], emptyStore);
    expect(keys.session).toHaveLength(32);
    expect(keys.pageToken!.equals(keys.session!)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['page-token.key', 'session.key']);
  });

  it('never makes a key over existing data: the start stops, naming every missing file', async () => {
    const dir = freshDir();
    await loadDataDirKeys(dir, ['session'], emptyStore);
    const load = loadDataDirKeys(
      dir,
      ['session', 'requestFingerprint', 'pageToken'],
      storeWithEvents,
    );
    await expect(load).rejects.toThrow(KeyFileError);
    await expect(load).rejects.toThrow(
      `Key file ${join(dir, 'fingerprint.key')} is missing (also missing: page-token.key), but the event store already holds events`,
    );
    expect(readdirSync(dir)).toEqual(['session.key']);
  });

  it('reads existing keys without asking the event store', async () => {
    const dir = freshDir();
    const made = await loadDataDirKeys(dir, ['session'], emptyStore);
    const unreachable = () => Promise.reject(new Error('the store was asked'));
    const again = await loadDataDirKeys(dir, ['session'], unreachable);
    expect(again.session!.equals(made.session!)).toBe(true);
  });

  it('gives processes racing on a fresh directory one and the same key, and leaves no temporary file', async () => {
    const dir = freshDir();
    const module = join(__dirname, '../../src/config/key-file.ts');
    const script = `const { makeKeyFile } = require(${JSON.stringify(module)}); process.stdout.write(makeKeyFile(${JSON.stringify(join(dir, 'race.key'))}).toString('hex'));`;
    const register = join(__dirname, '../../../../libs/event-store/test/support/ts-register.js');
    const runs = await Promise.all(
      Array.from({ length: 6 }, () =>
        promisify(execFile)(process.execPath, ['-r', register, '-e', script]),
      ),
    );
    const keys = new Set(runs.map((r) => r.stdout));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toBe(
      Buffer.from(readFileSync(join(dir, 'race.key'), 'utf8'), 'base64').toString('hex'),
    );
    expect(readdirSync(dir)).toEqual(['race.key']);
  });
});
