import { randomBytes } from 'node:crypto';
import { SessionCipher } from '../../src/session/session-cipher';

describe('SessionCipher (AES-256-GCM at rest)', () => {
  const cipher = new SessionCipher(randomBytes(32));

  it('round-trips, with a fresh nonce every time', () => {
    const a = cipher.seal('{"card":"5123450000000008"}', 'M\nS1');
    const b = cipher.seal('{"card":"5123450000000008"}', 'M\nS1');
    expect(a.nonce.equals(b.nonce)).toBe(false);
    expect(a.ciphertext.includes('5123450000000008')).toBe(false);
    expect(cipher.open(a, 'M\nS1')).toBe('{"card":"5123450000000008"}');
  });

  it('a ciphertext moved to another session does not open', () => {
    expect(() => cipher.open(cipher.seal('x', 'M\nS1'), 'M\nS2')).toThrow();
  });

  it('a row sealed under another key is told apart by its key id', () => {
    const other = new SessionCipher(randomBytes(32));
    expect(other.open(cipher.seal('x', 'M\nS1'), 'M\nS1')).toBeUndefined();
  });
});
