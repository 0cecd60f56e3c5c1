import Database from 'better-sqlite3';
import type { SessionDataKeys } from './session-data-keys';

const SCHEMA = `
  PRAGMA journal_mode = DELETE;
  PRAGMA secure_delete = ON;
  CREATE TABLE IF NOT EXISTS session_data_keys (
    session_id TEXT NOT NULL,
    key_id TEXT NOT NULL,
    key BLOB NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (session_id, key_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS session_data_keys_by_expiry ON session_data_keys (expires_at);
`;

/**
 * Session data keys in a SQLite file of their own, for a single node. Destroying must leave no
 * copy in the file: secure_delete zeroes freed space, and a rollback journal (not WAL, whose
 * frames would keep the old pages until a checkpoint) is removed at each commit.
 */
export class SqliteSessionDataKeys implements SessionDataKeys {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(filename: string) {
    this.db = new Database(filename);
    this.db.exec(SCHEMA);
    this.statements = {
      put: this.db.prepare(
        'INSERT INTO session_data_keys (session_id, key_id, key, expires_at) VALUES (?, ?, ?, ?)',
      ),
      get: this.db.prepare('SELECT key FROM session_data_keys WHERE session_id = ? AND key_id = ?'),
      destroy: this.db.prepare('DELETE FROM session_data_keys WHERE session_id = ? AND key_id = ?'),
      purge: this.db.prepare('DELETE FROM session_data_keys WHERE expires_at <= ?'),
    };
  }

  async put(sessionId: string, keyId: string, key: Buffer, expiresAt: string): Promise<void> {
    this.statements.put.run(sessionId, keyId, key, expiresAt);
  }

  async get(sessionId: string, keyId: string): Promise<Buffer | undefined> {
    const row = this.statements.get.get(sessionId, keyId) as { key: Buffer } | undefined;
    return row?.key;
  }

  async destroy(sessionId: string, keyId: string): Promise<void> {
    this.statements.destroy.run(sessionId, keyId);
  }

  async purgeExpired(now: Date): Promise<void> {
    this.statements.purge.run(now.toISOString());
  }

  close(): void {
    this.db.close();
  }
}
