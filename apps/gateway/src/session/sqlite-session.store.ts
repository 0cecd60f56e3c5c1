import Database from 'better-sqlite3';
import type { AesGcmKeyring } from '../crypto/aes-gcm-keyring';
import type { SessionContent, SessionStore, StoredSession } from './session.store';

interface Row {
  merchant_id: string;
  id: string;
  version: string;
  expires_at: string;
  order_id: string | null;
  key_id: string;
  nonce: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/**
 * Sessions in their own SQLite file (GATEWAY_DATA_DIR/sessions.db), apart from the event store:
 * they are short-lived, updated in place and deleted, which an append-only log is not for.
 * Everything a merchant stored is in `ciphertext`; only ids, version and times are plain.
 */
export class SqliteSessionStore implements SessionStore {
  private readonly db: Database.Database;

  constructor(
    filename: string,
    private readonly cipher: AesGcmKeyring,
  ) {
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS sessions (
      merchant_id TEXT NOT NULL,
      id TEXT NOT NULL,
      version TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      order_id TEXT,
      key_id TEXT NOT NULL,
      nonce BLOB NOT NULL,
      ciphertext BLOB NOT NULL,
      tag BLOB NOT NULL,
      PRIMARY KEY (merchant_id, id)
    ) WITHOUT ROWID`);
    // The payment page finds a checkout session by its id alone (merchantOf).
    this.db.exec('CREATE INDEX IF NOT EXISTS sessions_by_id ON sessions (id)');
  }

  async create(session: StoredSession): Promise<void> {
    const sealed = this.seal(session.merchantId, session.id, session.content);
    this.db
      .prepare(
        `INSERT INTO sessions (merchant_id, id, version, expires_at, order_id, key_id, nonce, ciphertext, tag)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        session.merchantId,
        session.id,
        session.version,
        session.expiresAt,
        session.orderId ?? null,
        sealed.keyId,
        sealed.nonce,
        sealed.ciphertext,
        sealed.tag,
      );
  }

  async find(merchantId: string, id: string, now: Date): Promise<StoredSession | undefined> {
    const row = this.db
      .prepare('SELECT * FROM sessions WHERE merchant_id = ? AND id = ? AND expires_at > ?')
      .get(merchantId, id, now.toISOString()) as Row | undefined;
    if (!row) return undefined;
    const plaintext = this.cipher.open(
      { keyId: row.key_id, nonce: row.nonce, ciphertext: row.ciphertext, tag: row.tag },
      boundTo(merchantId, id),
    );
    if (plaintext === undefined) return undefined;
    return {
      merchantId,
      id,
      version: row.version,
      expiresAt: row.expires_at,
      ...(row.order_id !== null ? { orderId: row.order_id } : {}),
      content: JSON.parse(plaintext) as SessionContent,
    };
  }

  async merchantOf(id: string, now: Date): Promise<string | undefined> {
    const row = this.db
      .prepare('SELECT merchant_id FROM sessions WHERE id = ? AND expires_at > ?')
      .get(id, now.toISOString()) as Pick<Row, 'merchant_id'> | undefined;
    return row?.merchant_id;
  }

  async replace(
    merchantId: string,
    id: string,
    expectedVersion: string,
    next: { version: string; content: SessionContent },
  ): Promise<boolean> {
    const sealed = this.seal(merchantId, id, next.content);
    const { changes } = this.db
      .prepare(
        `UPDATE sessions SET version = ?, key_id = ?, nonce = ?, ciphertext = ?, tag = ?
         WHERE merchant_id = ? AND id = ? AND version = ?`,
      )
      .run(
        next.version,
        sealed.keyId,
        sealed.nonce,
        sealed.ciphertext,
        sealed.tag,
        merchantId,
        id,
        expectedVersion,
      );
    return changes === 1;
  }

  async bindToOrder(merchantId: string, id: string, orderId: string): Promise<boolean> {
    const { changes } = this.db
      .prepare(
        `UPDATE sessions SET order_id = ?
         WHERE merchant_id = ? AND id = ? AND (order_id IS NULL OR order_id = ?)`,
      )
      .run(orderId, merchantId, id, orderId);
    return changes === 1;
  }

  async purgeExpired(now: Date): Promise<void> {
    this.db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(now.toISOString());
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private seal(merchantId: string, id: string, content: SessionContent) {
    return this.cipher.seal(JSON.stringify(content), boundTo(merchantId, id));
  }
}

function boundTo(merchantId: string, id: string): string {
  return `${merchantId}\n${id}`;
}
