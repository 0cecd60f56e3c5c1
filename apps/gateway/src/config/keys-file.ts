import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { KEY_FILES, type DataDirKeys, type KeyRole } from './data-dir-keys';
import { KEY_BYTES, KEY_TEXT, KeyFileError } from './key-file';

/**
 * GATEWAY_KEYS_FILE: every role's key in one file that every node of a cluster is given (README,
 * "Key files"; docs/keys.md). Made once by `npm run keys -- new`, never by a gateway.
 */
export const KEYS_FILE_FORMAT = 'gateway-keys';
export const KEYS_FILE_VERSION = 1;

const ROLES = Object.keys(KEY_FILES) as KeyRole[];

/**
 * The keys `roles` need, from the keys file alone. Anything wrong stops the start with a message
 * naming the file and the role; the messages give lengths and modes, never key material.
 */
export function loadKeysFile(file: string, roles: readonly KeyRole[]): DataDirKeys {
  let text: string;
  let mode: number;
  try {
    mode = statSync(file).mode & 0o777;
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new KeyFileError(file, `cannot be read (${code ?? (error as Error).message})`);
  }
  // Like the data directory's key files: the owner alone may read it.
  if (mode & 0o077)
    throw new KeyFileError(
      file,
      `is open to other users (mode ${mode.toString(8).padStart(4, '0')}): it must be readable by its owner only (chmod 600)`,
    );
  const keys = keysOf(file, text);
  const loaded: Partial<Record<KeyRole, Buffer>> = {};
  for (const role of roles) {
    const value = keys[role];
    if (value === undefined) throw new KeyFileError(file, `has no key for the role ${role}`);
    if (typeof value !== 'string' || !KEY_TEXT.test(value.trim()))
      throw new KeyFileError(
        file,
        `holds a malformed key for the role ${role}: it must be a ${KEY_BYTES * 8}-bit key as 44 characters of base64`,
      );
    loaded[role] = Buffer.from(value.trim(), 'base64');
  }
  return loaded;
}

/** The `keys` object of a keys file whose format and version this gateway reads. */
function keysOf(file: string, text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new KeyFileError(file, `is not JSON: ${WHAT_IT_HOLDS}`);
  }
  const { format, version, keys } = (parsed ?? {}) as Record<string, unknown>;
  if (format !== KEYS_FILE_FORMAT || typeof keys !== 'object' || keys === null)
    throw new KeyFileError(file, `is not a keys file: ${WHAT_IT_HOLDS}`);
  if (version !== KEYS_FILE_VERSION)
    throw new KeyFileError(
      file,
      `has format version ${JSON.stringify(version)}; this gateway reads version ${KEYS_FILE_VERSION}`,
    );
  // A misspelt role would otherwise be ignored while the role it meant is reported missing.
  const unknown = Object.keys(keys).find((role) => !ROLES.includes(role as KeyRole));
  if (unknown !== undefined)
    throw new KeyFileError(
      file,
      `names an unknown role ${JSON.stringify(unknown)}: the roles are ${ROLES.join(', ')}`,
    );
  return keys as Record<string, unknown>;
}

const WHAT_IT_HOLDS = `it must be {"format":"${KEYS_FILE_FORMAT}","version":${KEYS_FILE_VERSION},"keys":{<role>:<base64 key>}} as written by npm run keys -- new`;

/**
 * Writes a new keys file holding `given` keys and new random ones for the other roles, readable by
 * its owner only. An existing file is never replaced: its keys may already protect data.
 */
export function writeKeysFile(
  file: string,
  given: Readonly<Partial<Record<KeyRole, Buffer>>> = {},
): void {
  const keys = Object.fromEntries(
    ROLES.map((role) => [role, (given[role] ?? randomBytes(KEY_BYTES)).toString('base64')]),
  );
  const text = JSON.stringify(
    { format: KEYS_FILE_FORMAT, version: KEYS_FILE_VERSION, keys },
    null,
    2,
  );
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new KeyFileError(
      file,
      code === 'EEXIST'
        ? 'already exists: a keys file is never overwritten (its keys may protect data already)'
        : `cannot be made (${code ?? (error as Error).message})`,
    );
  }
  try {
    writeSync(fd, `${text}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
