import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { signingKeyOf } from './checkpoint';

/** The keys file role and data directory file of the ledger's signing key (docs/keys.md). */
export const SIGNING_ROLE = 'ledgerSigning';
export const SIGNING_KEY_FILE = 'ledger-signing.key';

const KEY_TEXT = /^[A-Za-z0-9+/]{43}=$/;

/** A signing key that cannot be used: the message names where it was looked for, never the key. */
export class SigningKeyError extends Error {}

/**
 * The ledger's ed25519 signing key, where the gateway's keys are: the `ledgerSigning` role of
 * GATEWAY_KEYS_FILE (made by `npm run keys -- new`), else `ledger-signing.key` in the data
 * directory. Either holds a 32-byte seed as base64, readable by its owner only.
 */
export function loadSigningKey(dataDir: string, env: NodeJS.ProcessEnv = process.env): KeyObject {
  const keysFile = env.GATEWAY_KEYS_FILE;
  const file = keysFile || join(dataDir, SIGNING_KEY_FILE);
  const text = ownerOnlyText(file);
  const seed = keysFile ? roleOf(file, text) : text.trim();
  if (!KEY_TEXT.test(seed))
    throw new SigningKeyError(
      `${file}: the ledger signing key must be 256 bits as 44 characters of base64`,
    );
  return signingKeyOf(Buffer.from(seed, 'base64'));
}

function ownerOnlyText(file: string): string {
  try {
    if (statSync(file).mode & 0o077)
      throw new SigningKeyError(`${file} is open to other users: chmod 600 it`);
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof SigningKeyError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new SigningKeyError(
      `no ledger signing key: ${file} cannot be read (${code}); make a keys file with ` +
        '`npm run keys -- new --out FILE` and set GATEWAY_KEYS_FILE (docs/ledger.md, "Proofs")',
    );
  }
}

function roleOf(file: string, text: string): string {
  let keys: unknown;
  try {
    keys = (JSON.parse(text) as { keys?: unknown }).keys;
  } catch {
    throw new SigningKeyError(`${file} is not a keys file (not JSON)`);
  }
  const seed = (keys as Record<string, unknown> | undefined)?.[SIGNING_ROLE];
  if (typeof seed !== 'string')
    throw new SigningKeyError(
      `${file} has no key for the role ${SIGNING_ROLE}: add one (\`openssl rand -base64 32\`) ` +
        'to the file every node is given (docs/ledger.md, "Proofs")',
    );
  return seed.trim();
}
