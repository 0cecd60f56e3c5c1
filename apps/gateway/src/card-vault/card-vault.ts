import { randomBytes } from 'node:crypto';
import { AesGcmKeyring } from '../crypto/aes-gcm-keyring';
import type { SecretStore } from '../secrets/secret-store';

/** Which life of a token: a token deleted and then saved again is another secret (ids are not reused). */
export interface VaultSlot {
  readonly merchantId: string;
  readonly token: string;
  /** How many times the token was deleted before. */
  readonly incarnation: number;
}

/**
 * The one place a full card number is kept (docs/card-vault.md): a secret per token in the secret
 * store (vault.db on one node, KurrentDB on a cluster), the number sealed (AES-256-GCM) under a
 * key of the token's own, that key sealed by the data key (the keyring of bank data, rotatable).
 * Destroying the secret destroys the token's key, and nothing can open the number again
 * (crypto-shredding).
 */
export class CardVault {
  constructor(
    private readonly secrets: SecretStore,
    private readonly dataKeys: AesGcmKeyring,
  ) {}

  /** Keeps `number` for the token under a new key of its own (replacing the one before). */
  put(slot: VaultSlot, number: string): Promise<void> {
    const key = randomBytes(32);
    const bound = boundTo(slot);
    const wrapped = this.dataKeys.sealText(key.toString('base64'), bound);
    const sealed = tokenKeyring(key).sealText(number, bound);
    return this.secrets.put(vaultSecretId(slot), `${wrapped} ${sealed}`);
  }

  /** The number, or undefined when the token has none (deleted) or its data key is gone. */
  async get(slot: VaultSlot): Promise<string | undefined> {
    const secret = await this.secrets.get(vaultSecretId(slot));
    if (secret === undefined) return undefined;
    const [wrapped, sealed] = secret.split(' ');
    const bound = boundTo(slot);
    const key = this.dataKeys.openText(wrapped, bound);
    if (key === undefined) return undefined;
    return tokenKeyring(Buffer.from(key, 'base64')).openText(sealed, bound);
  }

  /** Destroys the token's key and sealed number (crypto-shredding). */
  destroy(slot: VaultSlot): Promise<void> {
    return this.secrets.destroy(vaultSecretId(slot));
  }
}

/** The secret of a token's number: `card:{merchant}:{token}:{incarnation}`. */
export function vaultSecretId({ merchantId, token, incarnation }: VaultSlot): string {
  return `card:${merchantId}:${token}:${incarnation}`;
}

const TOKEN_KEY_ID = 'token';

function tokenKeyring(key: Buffer): AesGcmKeyring {
  return new AesGcmKeyring(new Map([[TOKEN_KEY_ID, key]]), TOKEN_KEY_ID);
}

/** As vault.db bound them before the secret store: its rows still open (sqlite-card-vault.ts). */
function boundTo({ merchantId, token }: VaultSlot): string {
  return `card-vault\n${merchantId}\n${token}`;
}
