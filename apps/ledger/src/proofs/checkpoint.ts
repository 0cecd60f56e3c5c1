import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * A signed checkpoint: the ledger's word, under its ed25519 key, that the embedded log's event at
 * `position` had the chain hash `hash` at `signedAt`. The hash covers that event and, through the
 * log links, every event before it, so one signature vouches for the whole prefix of the log.
 */
export interface Checkpoint {
  readonly position: string;
  readonly hash: string;
  readonly signedAt: string;
  /** The signer's public key, raw 32 bytes as base64: which key to check it with. */
  readonly publicKey: string;
  /** ed25519 over `checkpointMessage`, base64. */
  readonly signature: string;
}

/** The exact bytes signed: a versioned text, so no other message of the gateway can pass for one. */
export function checkpointMessage(c: Pick<Checkpoint, 'position' | 'hash' | 'signedAt'>): Buffer {
  return Buffer.from(
    `gateway-ledger checkpoint v1\nposition ${c.position}\nhash ${c.hash}\nsignedAt ${c.signedAt}\n`,
  );
}

/** DER prefixes of an ed25519 key's PKCS#8 and SPKI encodings: the raw key follows them. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The private key a 32-byte seed (a keys file's `ledgerSigning` role) stands for. */
export function signingKeyOf(seed: Buffer): KeyObject {
  return createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
}

/** A public key as `--public-key` takes it: the raw 32 bytes, as base64. */
export function publicKeyText(key: KeyObject): string {
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return spki.subarray(SPKI_PREFIX.length).toString('base64');
}

/** The public key of `publicKeyText`; undefined when the text is not one. */
export function publicKeyOf(text: string): KeyObject | undefined {
  const raw = Buffer.from(text, 'base64');
  if (raw.length !== 32 || raw.toString('base64') !== text) return undefined;
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

export function signCheckpoint(
  key: KeyObject,
  at: Pick<Checkpoint, 'position' | 'hash' | 'signedAt'>,
): Checkpoint {
  const signature = sign(null, checkpointMessage(at), key).toString('base64');
  return { ...at, publicKey: publicKeyText(key), signature };
}

/** Whether `key` signed this checkpoint exactly as it reads. */
export function isSignedBy(checkpoint: Checkpoint, key: KeyObject): boolean {
  try {
    return verify(
      null,
      checkpointMessage(checkpoint),
      key,
      Buffer.from(checkpoint.signature, 'base64'),
    );
  } catch {
    return false;
  }
}
