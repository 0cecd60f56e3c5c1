/**
 * Where a session's data keys live: apart from the event store, because a key must really be
 * destroyable and the event store never forgets. Each version of a session's content is sealed
 * under its own random key; destroying the key makes that version unreadable for good, wherever
 * its ciphertext was copied (events, backups, Kafka). See docs/sessions.md.
 */
export interface SessionDataKeys {
  put(sessionId: string, keyId: string, key: Buffer, expiresAt: string): Promise<void>;
  /** The key, unless it was destroyed or never made. */
  get(sessionId: string, keyId: string): Promise<Buffer | undefined>;
  destroy(sessionId: string, keyId: string): Promise<void>;
  /** Destroys the keys of expired sessions. */
  purgeExpired(now: Date): Promise<void>;
}

/** Keys held in this process only: for tests, and a single node that may lose its sessions. */
export class InMemorySessionDataKeys implements SessionDataKeys {
  private readonly keys = new Map<string, { key: Buffer; expiresAt: string }>();

  async put(sessionId: string, keyId: string, key: Buffer, expiresAt: string): Promise<void> {
    this.keys.set(slot(sessionId, keyId), { key, expiresAt });
  }

  async get(sessionId: string, keyId: string): Promise<Buffer | undefined> {
    return this.keys.get(slot(sessionId, keyId))?.key;
  }

  async destroy(sessionId: string, keyId: string): Promise<void> {
    this.keys.get(slot(sessionId, keyId))?.key.fill(0);
    this.keys.delete(slot(sessionId, keyId));
  }

  async purgeExpired(now: Date): Promise<void> {
    const cutoff = now.toISOString();
    for (const [name, held] of this.keys)
      if (held.expiresAt <= cutoff) {
        held.key.fill(0);
        this.keys.delete(name);
      }
  }
}

const slot = (sessionId: string, keyId: string): string => `${sessionId}\n${keyId}`;
