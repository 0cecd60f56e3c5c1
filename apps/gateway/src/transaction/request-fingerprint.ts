import { createHmac } from 'node:crypto';

/**
 * Recognises "the same request again" (same version, operation and body) without storing the body.
 * Keyed (HMAC) with a per-installation secret, because a body holds a card number: a plain hash of
 * it could be brute-forced back to the number.
 */
export class RequestFingerprint {
  /** `key`: fingerprint.key of the data directory (config/data-dir-keys.ts). */
  constructor(private readonly key: Buffer) {}

  of(apiVersion: number, body: unknown): string {
    return createHmac('sha256', this.key)
      .update(`${apiVersion}\n${JSON.stringify(body)}`)
      .digest('base64url');
  }
}
