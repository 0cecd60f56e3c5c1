import { randomBytes } from 'node:crypto';
import { AesGcmKeyring } from '../../src/crypto/aes-gcm-keyring';

describe('AesGcmKeyring (AES-256-GCM at rest)', () => {
  const cipher = AesGcmKeyring.ofKey(randomBytes(32));

  it('round-trips, with a fresh nonce every time', () => {
    const a = cipher.seal('{"card":"5123450000000008"}', 'M\nS1');
    const b = cipher.seal('{"card":"5123450000000008"}', 'M\nS1');
    expect(a.nonce.equals(b.nonce)).toBe(false);
    expect(a.ciphertext.includes('5123450000000008')).toBe(false);
    expect(cipher.open(a, 'M\nS1')).toBe('{"card":"5123450000000008"}');
  });

  it('a ciphertext moved to another owner does not open', () => {
    expect(() => cipher.open(cipher.seal('x', 'M\nS1'), 'M\nS2')).toThrow();
    expect(() => cipher.openText(cipher.sealText('x', 'M\nS1'), 'M\nS2')).toThrow();
  });

  it('a row sealed under another key is told apart by its key id', () => {
    const other = AesGcmKeyring.ofKey(randomBytes(32));
    expect(other.open(cipher.seal('x', 'M\nS1'), 'M\nS1')).toBeUndefined();
  });

  it('after rotation, text sealed under key 1 still opens and new text uses key 2', () => {
    const key1 = randomBytes(32);
    const key2 = randomBytes(32);
    const before = new AesGcmKeyring(new Map([['k1', key1]]), 'k1');
    const old = before.sealText('DE89370400440532013000', 'M\nO\nproviderC.iban');
    expect(old.startsWith('k1.')).toBe(true);
    expect(old).not.toContain('DE89370400440532013000');

    const after = new AesGcmKeyring(
      new Map([
        ['k1', key1],
        ['k2', key2],
      ]),
      'k2',
    );
    expect(after.openText(old, 'M\nO\nproviderC.iban')).toBe('DE89370400440532013000');
    const fresh = after.sealText('12345678901', 'M\nO\nach.bankAccountNumber');
    expect(fresh.startsWith('k2.')).toBe(true);
    expect(after.openText(fresh, 'M\nO\nach.bankAccountNumber')).toBe('12345678901');
    // Key 1 alone cannot read what key 2 sealed.
    expect(before.openText(fresh, 'M\nO\nach.bankAccountNumber')).toBeUndefined();
  });

  it('refuses keys that are not 256 bits, and a current key it does not hold', () => {
    expect(() => new AesGcmKeyring(new Map([['k1', randomBytes(16)]]), 'k1')).toThrow(/256/);
    expect(() => new AesGcmKeyring(new Map([['k1', randomBytes(32)]]), 'k2')).toThrow(/k2/);
  });

  it('a malformed text does not open', () => {
    expect(cipher.openText('not-a-ciphertext', 'M')).toBeUndefined();
  });
});
