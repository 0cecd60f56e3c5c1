import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A 256-bit secret kept in GATEWAY_DATA_DIR/<name>, made on first start (readable by the owner
 * only) and read back on every later one, so that what it protects survives restarts.
 */
export function dataDirKey(dataDir: string, name: string): Buffer {
  const file = join(dataDir, name);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
