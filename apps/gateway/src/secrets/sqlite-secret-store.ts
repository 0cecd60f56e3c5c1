import Database from 'better-sqlite3';
import type { SecretStore } from './secret-store';

const SCHEMA = `
  PRAGMA journal_mode = DELETE;
  PRAGMA secure_delete = ON;
  CREATE TABLE IF NOT EXISTS secrets (
    id TEXT PRIMARY KEY,
    secret TEXT NOT NULL,
    expires_at TEXT
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS secrets_by_expiry ON secrets (expires_at) WHERE expires_at IS NOT NULL;
`;

/**
 * Secrets in a SQLite file of one node. Destroying must leave no copy in the file: secure_delete
 * zeroes freed space, and a rollback journal (not WAL, whose frames would keep the old pages until
 * a checkpoint) is removed at each commit.
 */
export class SqliteSecretStore implements SecretStore {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(filename: string) {
    this.db = new Database(filename);
    this.db.exec(SCHEMA);
    this.statements = {
      put: this.db.prepare(
        `INSERT INTO secrets (id, secret, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET secret = excluded.secret, expires_at = excluded.expires_at`,
      ),
      get: this.db.prepare('SELECT secret FROM secrets WHERE id = ?').pluck(),
      destroy: this.db.prepare('DELETE FROM secrets WHERE id = ?'),
      purge: this.db.prepare('DELETE FROM secrets WHERE expires_at <= ?'),
    };
  }

  /** The open database, for a one-time migration of rows kept there before (vault.db). */
  get database(): Database.Database {
    return this.db;
  }

  async put(id: string, secret: string, expiresAt?: string): Promise<void> {
    this.statements.put.run(id, secret, expiresAt ?? null);
  }

  async get(id: string): Promise<string | undefined> {
    return this.statements.get.get(id) as string | undefined;
  }

  async destroy(id: string): Promise<void> {
    this.statements.destroy.run(id);
  }

  async purgeExpired(now: Date): Promise<void> {
    this.statements.purge.run(now.toISOString());
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
