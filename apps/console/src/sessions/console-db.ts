import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Role } from '../users/console-users';

/** Sessions end after this long without a request, and this long after sign-in whatever. */
export const IDLE_MS = 30 * 60_000;
export const ABSOLUTE_MS = 12 * 60 * 60_000;
/** last_seen is written at most this often per session: a page view is not a write. */
const TOUCH_MS = 60_000;

export interface ConsoleSession {
  readonly username: string;
  readonly role: Role;
  readonly merchantId?: string;
  /** The token every form of the session carries (CSRF). */
  readonly csrf: string;
}

export interface AuditEntry {
  readonly id: number;
  readonly time: string;
  readonly username: string;
  readonly role: string;
  readonly action: string;
  readonly target: string;
  readonly outcome: string;
  readonly client: string;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS session (
    id_hash    TEXT PRIMARY KEY,
    username   TEXT NOT NULL,
    role       TEXT NOT NULL,
    merchant_id TEXT,
    csrf       TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_seen  INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS audit (
    id       INTEGER PRIMARY KEY,
    time     TEXT NOT NULL,
    username TEXT NOT NULL,
    role     TEXT NOT NULL,
    action   TEXT NOT NULL,
    target   TEXT NOT NULL,
    outcome  TEXT NOT NULL,
    client   TEXT NOT NULL
  ) STRICT;
  CREATE INDEX IF NOT EXISTS audit_by_user ON audit (username, id);`;

/** Only a hash of a session id is stored: a copy of console.db signs no one in. */
const hashOf = (id: string) => createHash('sha256').update(id).digest('base64url');

/**
 * console.db: the console's sessions and its audit trail, in its own SQLite file (the gateway's
 * files are only read). Appends to the audit are synchronous=FULL: an action reported done is
 * in the trail after a power cut.
 */
export class ConsoleDb {
  private readonly db: Database.Database;
  private readonly statements;

  constructor(
    filename: string,
    private readonly clock: () => number = Date.now,
  ) {
    mkdirSync(dirname(filename), { recursive: true });
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    this.statements = {
      insert: this.db.prepare(
        'INSERT INTO session VALUES (@idHash, @username, @role, @merchantId, @csrf, @now, @now)',
      ),
      find: this.db.prepare('SELECT * FROM session WHERE id_hash = ?'),
      touch: this.db.prepare('UPDATE session SET last_seen = ? WHERE id_hash = ?'),
      remove: this.db.prepare('DELETE FROM session WHERE id_hash = ?'),
      expire: this.db.prepare('DELETE FROM session WHERE last_seen < ? OR created_at < ?'),
      audit: this.db.prepare(
        `INSERT INTO audit (time, username, role, action, target, outcome, client)
         VALUES (@time, @username, @role, @action, @target, @outcome, @client)`,
      ),
      auditPage: this.db.prepare(
        'SELECT * FROM audit WHERE id < @before ORDER BY id DESC LIMIT @limit',
      ),
      auditPageOf: this.db.prepare(
        'SELECT * FROM audit INDEXED BY audit_by_user WHERE username = @username AND id < @before ORDER BY id DESC LIMIT @limit',
      ),
    };
  }

  /** A new session; returns its id, for the cookie only. */
  createSession(user: Omit<ConsoleSession, 'csrf'>): string {
    const now = this.clock();
    this.statements.expire.run(now - IDLE_MS, now - ABSOLUTE_MS);
    const id = randomBytes(32).toString('base64url');
    this.statements.insert.run({
      idHash: hashOf(id),
      username: user.username,
      role: user.role,
      merchantId: user.merchantId ?? null,
      csrf: randomBytes(32).toString('base64url'),
      now,
    });
    return id;
  }

  /** The live session of this id; an expired one is removed and undefined. */
  session(id: string): ConsoleSession | undefined {
    const idHash = hashOf(id);
    const row = this.statements.find.get(idHash) as SessionRow | undefined;
    if (!row) return undefined;
    const now = this.clock();
    if (row.last_seen < now - IDLE_MS || row.created_at < now - ABSOLUTE_MS) {
      this.statements.remove.run(idHash);
      return undefined;
    }
    if (now - row.last_seen >= TOUCH_MS) this.statements.touch.run(now, idHash);
    return {
      username: row.username,
      role: row.role as Role,
      ...(row.merchant_id !== null ? { merchantId: row.merchant_id } : {}),
      csrf: row.csrf,
    };
  }

  endSession(id: string): void {
    this.statements.remove.run(hashOf(id));
  }

  audit(entry: Omit<AuditEntry, 'id' | 'time'>): void {
    this.statements.audit.run({ ...entry, time: new Date(this.clock()).toISOString() });
  }

  /** What a signed-in user did, from the client address `client`. */
  auditAction(
    session: ConsoleSession,
    client: string,
    action: string,
    target: string,
    outcome = 'ok',
  ): void {
    this.audit({ username: session.username, role: session.role, action, target, outcome, client });
  }

  /** Newest first, before the entry `before` (keyset); one user's only when `username` is given. */
  auditPage(limit: number, before = Number.MAX_SAFE_INTEGER, username?: string): AuditEntry[] {
    const statement = username ? this.statements.auditPageOf : this.statements.auditPage;
    return statement.all({ limit, before, username }) as AuditEntry[];
  }

  close(): void {
    this.db.close();
  }
}

interface SessionRow {
  username: string;
  role: string;
  merchant_id: string | null;
  csrf: string;
  created_at: number;
  last_seen: number;
}
