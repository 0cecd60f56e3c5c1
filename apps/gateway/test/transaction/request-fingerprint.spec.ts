import { createHmac, randomBytes } from 'node:crypto';
import { RequestFingerprint } from '../../src/transaction/request-fingerprint';

/** The fingerprint as first recorded: fingerprints in stored events must keep matching. */
function recorded(key: Buffer, apiVersion: number, body: unknown): string {
  return createHmac('sha256', key)
    .update(`${apiVersion}\n${JSON.stringify(body)}`)
    .digest('base64url');
}

const BODIES: unknown[] = [
  { apiOperation: 'AUTHORIZE', order: { amount: '100.00', currency: 'USD' } },
  { apiOperation: 'CAPTURE', order: { reference: 'café – ünïcode ✓ 😀' } },
  { note: 'x'.repeat(5000) },
  { note: 'é'.repeat(40_000) },
  {},
];

describe('RequestFingerprint', () => {
  it.each([16, 32, 64, 100])(
    'equals HMAC-SHA256 of version and body with a %i-byte key',
    (size) => {
      const key = randomBytes(size);
      const fingerprint = new RequestFingerprint(key);
      for (const apiVersion of [1, 100])
        for (const body of BODIES)
          expect(fingerprint.of(apiVersion, body)).toBe(recorded(key, apiVersion, body));
    },
  );

  it('gives the same answer after a longer body grew its buffer', () => {
    const key = randomBytes(32);
    const fingerprint = new RequestFingerprint(key);
    const short = { apiOperation: 'VOID' };
    const before = fingerprint.of(100, short);
    fingerprint.of(100, { note: 'y'.repeat(20_000) });
    expect(fingerprint.of(100, short)).toBe(before);
    expect(before).toBe(recorded(key, 100, short));
  });
});
