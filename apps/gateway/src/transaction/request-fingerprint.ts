import { hash } from 'node:crypto';

/** SHA-256's block and digest sizes, in bytes (RFC 2104's B and L). */
const BLOCK = 64;
const DIGEST = 32;
/** The message buffer kept between requests; a longer body gets one of its own. */
const KEPT_BYTES = 64 * 1024;

/**
 * Recognises "the same request again" (same version, operation and body) without storing the body.
 * Keyed (HMAC) with a per-installation secret, because a body holds a card number: a plain hash of
 * it could be brute-forced back to the number.
 *
 * HMAC-SHA256 exactly as RFC 2104 defines it, written as two `crypto.hash` calls over the padded
 * key: the same fingerprints as `createHmac` (recorded ones still match, retries stay
 * byte-identical), without an Hmac object and its OpenSSL context per request, which cost ~8 µs
 * of CPU under `npm run bench` against ~5 µs for this (docs/hot-path.md).
 */
export class RequestFingerprint {
  /** The key XOR ipad (never overwritten), followed by room for the message. */
  private inner = Buffer.alloc(BLOCK + 4096);
  /** The key XOR opad, followed by the inner digest. */
  private readonly outer = Buffer.alloc(BLOCK + DIGEST);

  /** `key`: fingerprint.key of the data directory (config/data-dir-keys.ts). */
  constructor(key: Buffer) {
    const padded = Buffer.alloc(BLOCK);
    (key.length > BLOCK ? hash('sha256', key, 'buffer') : key).copy(padded);
    for (let i = 0; i < BLOCK; i++) {
      this.inner[i] = padded[i] ^ 0x36;
      this.outer[i] = padded[i] ^ 0x5c;
    }
  }

  of(apiVersion: number, body: unknown): string {
    const json = JSON.stringify(body);
    const prefix = `${apiVersion}\n`;
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    const room = BLOCK + prefix.length + json.length * 3;
    let inner = this.inner;
    if (room > inner.length) {
      inner = Buffer.allocUnsafe(room);
      this.inner.copy(inner, 0, 0, BLOCK);
      if (room <= KEPT_BYTES) this.inner = inner;
    }
    let end = BLOCK + inner.write(prefix, BLOCK, 'latin1');
    end += inner.write(json, end, 'utf8');
    hash('sha256', inner.subarray(0, end), 'buffer').copy(this.outer, BLOCK);
    return hash('sha256', this.outer, 'base64url');
  }
}
