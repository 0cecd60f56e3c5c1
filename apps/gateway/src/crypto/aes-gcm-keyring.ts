import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface SealedContent {
  readonly keyId: string;
  readonly nonce: Buffer;
  readonly ciphertext: Buffer;
  readonly tag: Buffer;
}

/** Key ids travel inside the text form of a ciphertext, so they may not hold its separator. */
export const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * AES-256-GCM with a fresh 96-bit nonce per write, under the current key of a keyring. The key id
 * is stored beside each ciphertext, so that after a rotation older ciphertexts are opened with the
 * key they were sealed under, and a retired key can be told from a corrupted row. The additional
 * data binds a ciphertext to its owner (a session, an order's field), so ciphertexts cannot be swapped.
 */
export class AesGcmKeyring {
  readonly keyId: string;
  private readonly keys: ReadonlyMap<string, Buffer>;

  /** `keys` maps key id to a 256-bit key; new ciphertexts use `currentKeyId`. */
  constructor(keys: ReadonlyMap<string, Buffer>, currentKeyId: string) {
    for (const [id, key] of keys) {
      if (key.length !== 32) throw new Error(`Key '${id}' must be 256 bits`);
      if (!KEY_ID.test(id))
        throw new Error(`Key id '${id}' must be 1-32 characters of A-Z a-z 0-9 _ -`);
    }
    if (!keys.has(currentKeyId)) throw new Error(`There is no key '${currentKeyId}'`);
    this.keys = keys;
    this.keyId = currentKeyId;
  }

  /** One key, named by a digest prefix of itself (the keys kept in the data directory). */
  static ofKey(key: Buffer): AesGcmKeyring {
    const id = createHash('sha256').update(key).digest('hex').slice(0, 16);
    return new AesGcmKeyring(new Map([[id, key]]), id);
  }

  seal(plaintext: string, boundTo: string): SealedContent {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.keyId)!, nonce);
    cipher.setAAD(Buffer.from(boundTo));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { keyId: this.keyId, nonce, ciphertext, tag: cipher.getAuthTag() };
  }

  /** The plaintext, or undefined when sealed under a key this ring lacks. Throws if tampered with. */
  open(sealed: SealedContent, boundTo: string): string | undefined {
    const key = this.keys.get(sealed.keyId);
    if (!key) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.nonce);
    decipher.setAAD(Buffer.from(boundTo));
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  }

  /** `keyId.nonce.ciphertext.tag` (base64url): a ciphertext that fits in a JSON string. */
  sealText(plaintext: string, boundTo: string): string {
    const { keyId, nonce, ciphertext, tag } = this.seal(plaintext, boundTo);
    return [keyId, nonce, ciphertext, tag]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** The plaintext of sealText's output; undefined for an unknown key or a malformed text. */
  openText(text: string, boundTo: string): string | undefined {
    const [keyId, nonce, ciphertext, tag, ...rest] = text.split('.');
    if (rest.length || tag === undefined) return undefined;
    const bytes = (part: string) => Buffer.from(part, 'base64url');
    return this.open(
      { keyId, nonce: bytes(nonce), ciphertext: bytes(ciphertext), tag: bytes(tag) },
      boundTo,
    );
  }
}
