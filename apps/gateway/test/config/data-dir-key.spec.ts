import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataDirKey } from '../../src/config/data-dir-key';

describe('data directory keys', () => {
  it('makes a key once and reads the same key back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'key-'));
    const first = dataDirKey(dir, 'test.key');
    expect(first).toHaveLength(32);
    expect(dataDirKey(dir, 'test.key').equals(first)).toBe(true);
    expect(readdirSync(dir)).toEqual(['test.key']);
  });

  it('gives processes starting together on a fresh directory one and the same key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'key-race-'));
    const script = `const { dataDirKey } = require(${JSON.stringify(join(__dirname, '../../src/config/data-dir-key.ts'))}); process.stdout.write(dataDirKey(${JSON.stringify(dir)}, 'race.key').toString('hex'));`;
    const register = join(__dirname, '../../../../libs/event-store/test/support/ts-register.js');
    // Started together: each process spends its start-up loading TypeScript, then all reach the key at once.
    const runs = await Promise.all(
      Array.from({ length: 6 }, () =>
        promisify(execFile)(process.execPath, ['-r', register, '-e', script]),
      ),
    );
    const keys = new Set(runs.map((r) => r.stdout));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f]{64}$/);
    expect(readdirSync(dir)).toEqual(['race.key']);
  });
});
