import { HmacSha256 } from '../crypto/hmac-sha256';

/**
 * Recognises "the same request again" (same version, operation and body) without storing the body.
 * Keyed (HMAC-SHA256) with a per-installation secret, because a body holds a card number: a plain
 * hash of it could be brute-forced back to the number. The values are `createHmac`'s (recorded
 * ones still match, retries stay byte-identical), computed without an Hmac object per request.
 */
export class RequestFingerprint {
  private readonly hmac: HmacSha256;

  /** `key`: fingerprint.key of the data directory (config/data-dir-keys.ts). */
  constructor(key: Buffer) {
    this.hmac = new HmacSha256(key);
  }

  of(apiVersion: number, body: unknown): string {
    return this.hmac.of(`${apiVersion}\n`, JSON.stringify(body));
  }
}
