import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';

/**
 * Merchant API passwords are stored as `scrypt$N$r$p$<salt b64>$<hash b64>`: the parameters travel
 * with the hash, so they can be raised later without invalidating stored hashes.
 */
const COST = { N: 16384, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Caps the memory a stored hash can make scrypt use (N=16384, r=8 needs 16 MiB). */
const MAX_MEMORY = 64 * 1024 * 1024;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const POSITIVE_INTEGER = /^[1-9]\d{0,9}$/;

interface ParsedHash {
  readonly options: ScryptOptions;
  readonly salt: Buffer;
  readonly hash: Buffer;
}

/** The parts of an encoded hash, or undefined when it is not one. */
function parse(encoded: string): ParsedHash | undefined {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [, n, r, p, salt, hash] = parts;
  if (![n, r, p].every((v) => POSITIVE_INTEGER.test(v))) return undefined;
  if (!salt || !BASE64.test(salt) || !BASE64.test(hash)) return undefined;
  const key = Buffer.from(hash, 'base64');
  if (key.length < 16) return undefined;
  const options = { N: Number(n), r: Number(r), p: Number(p), maxmem: MAX_MEMORY };
  return { options, salt: Buffer.from(salt, 'base64'), hash: key };
}

export function isEncodedHash(encoded: string): boolean {
  return parse(encoded) !== undefined;
}

/** crypto.scrypt runs on the libuv thread pool, so verification never blocks the event loop. */
function derive(password: string, salt: Buffer, length: number, options: ScryptOptions) {
  return new Promise<Buffer>((resolve, reject) => {
    try {
      scrypt(password, salt, length, options, (error, key) =>
        error ? reject(error) : resolve(key),
      );
    } catch (error) {
      reject(error); // invalid parameters throw synchronously
    }
  });
}

function encode(salt: Buffer, hash: Buffer): string {
  const { N, r, p } = COST;
  return ['scrypt', N, r, p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  return encode(salt, await derive(password, salt, KEY_BYTES, { ...COST, maxmem: MAX_MEMORY }));
}

/** A well-formed hash at the normal cost that no password matches: its key is random. */
export function unmatchableHash(): string {
  return encode(randomBytes(SALT_BYTES), randomBytes(KEY_BYTES));
}

/** False for a wrong password and for anything that is not a usable encoded hash; never throws. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parse(encoded);
  if (!parsed) return false;
  try {
    const key = await derive(password, parsed.salt, parsed.hash.length, parsed.options);
    return timingSafeEqual(key, parsed.hash);
  } catch {
    return false;
  }
}

/** 128 random bits as 32 hex characters, the shape of a gateway API password. */
export function generatePassword(): string {
  return randomBytes(16).toString('hex');
}
