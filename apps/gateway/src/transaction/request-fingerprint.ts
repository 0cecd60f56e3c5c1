import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Recognises "the same request again" (same version, operation and body) without storing the body.
 * Keyed (HMAC) with a per-installation secret, because a body holds a card number: a plain hash of
 * it could be brute-forced back to the number.
 */
export class RequestFingerprint {
  private constructor(private readonly key: Buffer) {}

  static fromDataDir(dataDir: string): RequestFingerprint {
    const file = join(dataDir, 'fingerprint.key');
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    }
    return new RequestFingerprint(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64'));
  }

  of(apiVersion: number, body: unknown): string {
    return createHmac('sha256', this.key)
      .update(`${apiVersion}\n${JSON.stringify(body)}`)
      .digest('base64url');
  }
}
