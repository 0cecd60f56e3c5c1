import { randomBytes, scryptSync } from 'node:crypto';
import {
  generatePassword,
  hashPassword,
  isEncodedHash,
  unmatchableHash,
  verifyPassword,
} from '../src/password-hash';

describe('password hashing', () => {
  it('encodes scrypt with its parameters, a 16-byte salt and a 32-byte key', async () => {
    const encoded = await hashPassword('s3cret');
    const [name, n, r, p, salt, hash] = encoded.split('$');
    expect([name, n, r, p]).toEqual(['scrypt', '16384', '8', '1']);
    expect(Buffer.from(salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash, 'base64')).toHaveLength(32);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const encoded = await hashPassword('s3cret');
    await expect(verifyPassword('s3cret', encoded)).resolves.toBe(true);
    await expect(verifyPassword('s3cret ', encoded)).resolves.toBe(false);
    await expect(verifyPassword('', encoded)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it('reads the cost from the encoding, so stored hashes survive a cost change', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('older', salt, 32, { N: 1024, r: 8, p: 1 });
    const encoded = `scrypt$1024$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
    await expect(verifyPassword('older', encoded)).resolves.toBe(true);
  });

  it('never matches an unmatchable hash, which is well formed', async () => {
    const encoded = unmatchableHash();
    expect(isEncodedHash(encoded)).toBe(true);
    await expect(verifyPassword('', encoded)).resolves.toBe(false);
  });

  const salt = randomBytes(16).toString('base64');
  const key = randomBytes(32).toString('base64');
  it.each([
    ['empty', ''],
    ['another scheme', `bcrypt$16384$8$1$${salt}$${key}`],
    ['a missing part', `scrypt$16384$8$${salt}$${key}`],
    ['an extra part', `scrypt$16384$8$1$1$${salt}$${key}`],
    ['a non-numeric cost', `scrypt$abc$8$1$${salt}$${key}`],
    ['a zero parameter', `scrypt$16384$0$1$${salt}$${key}`],
    ['N not a power of two', `scrypt$1000$8$1$${salt}$${key}`],
    ['a cost beyond the memory cap', `scrypt$1073741824$8$1$${salt}$${key}`],
    ['bad base64', `scrypt$16384$8$1$${salt}$not*base64`],
    ['an empty salt', `scrypt$16384$8$1$$${key}`],
    ['a short key', `scrypt$16384$8$1$${salt}$${randomBytes(8).toString('base64')}`],
  ])('returns false, without throwing, for %s', async (_, encoded) => {
    await expect(verifyPassword('s3cret', encoded)).resolves.toBe(false);
  });

  it('recognises encodings without running scrypt', () => {
    expect(isEncodedHash(`scrypt$16384$8$1$${salt}$${key}`)).toBe(true);
    expect(isEncodedHash(`scrypt$16384$8$1$${salt}`)).toBe(false);
  });

  it('generates 32 hex character passwords', () => {
    const passwords = new Set(Array.from({ length: 20 }, generatePassword));
    expect(passwords.size).toBe(20);
    for (const password of passwords) expect(password).toMatch(/^[0-9a-f]{32}$/);
  });
});
