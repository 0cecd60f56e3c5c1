import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { AesGcmKeyring } from '../crypto/aes-gcm-keyring';

/**
 * The one place a full card number is kept (docs/card-vault.md): GATEWAY_DATA_DIR/vault.db, one
 * row per token, the number sealed (AES-256-GCM) under a key of the token's own, that key sealed
 * by the data key (the keyring of bank data, rotatable). Deleting the row destroys the token's key:
 * secure_delete overwrites the freed bytes, and the WAL is checkpointed and truncated, so no copy
 * of it is left in the directory and nothing can open the number again (crypto-shredding).
 */
export class SqliteCardVault {
  private readonly db: Database.Database;
  /** Prepared once: a payment with a token reads its row (preparing costs more than the read). */
  private readonly select: Database.Statement;

  constructor(
    filename: string,
    private readonly dataKeys: AesGcmKeyring,
  ) {
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('secure_delete = ON');
    this.db.exec(`CREATE TABLE IF NOT EXISTS card_vault (
      merchant_id TEXT NOT NULL,
      token TEXT NOT NULL,
      wrapped_key TEXT NOT NULL,
      sealed_number TEXT NOT NULL,
      PRIMARY KEY (merchant_id, token)
    ) WITHOUT ROWID`);
    this.select = this.db.prepare(
      'SELECT wrapped_key, sealed_number FROM card_vault WHERE merchant_id = ? AND token = ?',
    );
  }

  /** Keeps `number` for the token under a new key of its own (replacing the one before). */
  put(merchantId: string, token: string, number: string): void {
    const key = randomBytes(32);
    const bound = boundTo(merchantId, token);
    const wrapped = this.dataKeys.sealText(key.toString('base64'), bound);
    const sealed = tokenKeyring(key).sealText(number, bound);
    this.db
      .prepare(
        `INSERT INTO card_vault (merchant_id, token, wrapped_key, sealed_number) VALUES (?, ?, ?, ?)
         ON CONFLICT (merchant_id, token) DO UPDATE SET wrapped_key = excluded.wrapped_key, sealed_number = excluded.sealed_number`,
      )
      .run(merchantId, token, wrapped, sealed);
    this.dropOldPages();
  }

  /** The number, or undefined when the token has none (deleted) or its data key is gone. */
  get(merchantId: string, token: string): string | undefined {
    const row = this.select.get(merchantId, token) as
      { wrapped_key: string; sealed_number: string } | undefined;
    if (!row) return undefined;
    const bound = boundTo(merchantId, token);
    const key = this.dataKeys.openText(row.wrapped_key, bound);
    if (key === undefined) return undefined;
    return tokenKeyring(Buffer.from(key, 'base64')).openText(row.sealed_number, bound);
  }

  /** Destroys the token's key and sealed number (crypto-shredding). */
  destroy(merchantId: string, token: string): void {
    this.db
      .prepare('DELETE FROM card_vault WHERE merchant_id = ? AND token = ?')
      .run(merchantId, token);
    this.dropOldPages();
  }

  close(): void {
    this.db.close();
  }

  /** The WAL still holds the pages as they were before: copied into the file and cut away. */
  private dropOldPages(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }
}

const TOKEN_KEY_ID = 'token';

function tokenKeyring(key: Buffer): AesGcmKeyring {
  return new AesGcmKeyring(new Map([[TOKEN_KEY_ID, key]]), TOKEN_KEY_ID);
}

function boundTo(merchantId: string, token: string): string {
  return `card-vault\n${merchantId}\n${token}`;
}
