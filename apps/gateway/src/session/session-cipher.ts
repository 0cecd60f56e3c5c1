import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export interface SealedContent {
  readonly keyId: string;
  readonly nonce: Buffer;
  readonly ciphertext: Buffer;
  readonly tag: Buffer;
}

/**
 * AES-256-GCM with a fresh 96-bit nonce per write. The key id (a digest prefix of the key) is
 * stored beside each ciphertext so a rotated key can be told from a corrupted row. The
 * additional data binds a ciphertext to its session, so rows cannot be swapped.
 */
export class SessionCipher {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('A session key must be 256 bits');
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 16);
  }

  seal(plaintext: string, boundTo: string): SealedContent {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(boundTo));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { keyId: this.keyId, nonce, ciphertext, tag: cipher.getAuthTag() };
  }

  /** The plaintext, or undefined when the row was sealed under another key. Throws if tampered with. */
  open(sealed: SealedContent, boundTo: string): string | undefined {
    if (sealed.keyId !== this.keyId) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.nonce);
    decipher.setAAD(Buffer.from(boundTo));
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  }
}
