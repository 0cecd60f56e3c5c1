import { join } from 'node:path';
import { AesGcmKeyring } from '../crypto/aes-gcm-keyring';
import type { GatewayConfig } from './gateway.config';
import { KeyFileError, makeKeyFile, readKeyFile } from './key-file';

/** The secrets kept in GATEWAY_DATA_DIR, one file each (README, "Key files"). */
export const KEY_FILES = {
  /** Seals payment sessions in sessions.db. */
  session: 'session.key',
  /** Recognises a retried request (transaction/request-fingerprint.ts). */
  requestFingerprint: 'fingerprint.key',
  /**
   * Fingerprints card numbers, so the same card is recognised without being kept; the key of
   * currency-conversion quote ids is derived from it (currency-conversion/quote-ids.ts).
   */
  cardFingerprint: 'card-fingerprint.key',
  /** Signs the payer's page links (payer/page-token.ts). */
  pageToken: 'page-token.key',
  /** Seals bank data when GATEWAY_DATA_KEYS does not give the keys. */
  bankData: 'bank-data.key',
  /** The seed of the ledger's ed25519 key signing checkpoints (docs/ledger.md, "Proofs"). */
  ledgerSigning: 'ledger-signing.key',
} as const;

export type KeyRole = keyof typeof KEY_FILES;
export type DataDirKeys = Readonly<Partial<Record<KeyRole, Buffer>>>;

/**
 * Reads the keys `roles` need from the data directory. A file that is empty, malformed or
 * unreadable stops the start (KeyFileError naming it). A missing one is made only while the
 * event store holds no event: once data exists it was written under the old key, and a new one
 * would silently break retries, payer links or sealed data, so the start stops instead.
 */
export async function loadDataDirKeys(
  dataDir: string,
  roles: readonly KeyRole[],
  storeIsEmpty: () => Promise<boolean>,
): Promise<DataDirKeys> {
  const keys: Partial<Record<KeyRole, Buffer>> = {};
  const missing: KeyRole[] = [];
  for (const role of roles) {
    const key = readKeyFile(join(dataDir, KEY_FILES[role]));
    if (key) keys[role] = key;
    else missing.push(role);
  }
  if (missing.length && !(await storeIsEmpty())) {
    const others = missing.slice(1).map((role) => KEY_FILES[role]);
    const also = others.length ? ` (also missing: ${others.join(', ')})` : '';
    throw new KeyFileError(
      join(dataDir, KEY_FILES[missing[0]]),
      `is missing${also}, but the event store already holds events made with the key it held. ` +
        'Restore the file from a backup of this data directory (or copy it from the other ' +
        'gateways sharing the event store); a new key is never made over existing data',
    );
  }
  for (const role of missing) keys[role] = makeKeyFile(join(dataDir, KEY_FILES[role]));
  return keys;
}

/**
 * What a gateway's first start does to a fresh data directory: every key file made. For tools
 * that write events before any gateway ran on the directory (the seed script).
 */
export function makeDataDirKeys(dataDir: string): void {
  for (const file of Object.values(KEY_FILES)) makeKeyFile(join(dataDir, file));
}

/** The key of a role that was loaded; a wiring mistake otherwise, not an operator's. */
export function keyOf(keys: DataDirKeys, role: KeyRole): Buffer {
  const key = keys[role];
  if (!key) throw new Error(`The ${KEY_FILES[role]} key was not loaded`);
  return key;
}

/**
 * The data key: GATEWAY_DATA_KEYS (rotatable), or the key file of the data directory. It seals
 * bank data for UNMASK and wraps each card token's own key.
 */
export function dataKeyring(config: GatewayConfig, keys: DataDirKeys): AesGcmKeyring {
  return config.dataKeys
    ? new AesGcmKeyring(config.dataKeys.keys, config.dataKeys.currentKeyId)
    : AesGcmKeyring.ofKey(keyOf(keys, 'bankData'));
}
