/**
 * Secrets that must really be destroyable, kept apart from the event store (which never forgets):
 * payment sessions' data keys and the card vault's rows (docs/secrets.md). A secret is an opaque
 * text, already sealed by its owner, named by an id. Every node of a cluster must reach the same
 * store: the KurrentDB adapter (kurrentdb-secret-store.ts) on a cluster, a SQLite file of one node
 * otherwise. One contract suite (apps/gateway/test/secrets) runs against every adapter.
 */
export interface SecretStore {
  /** Keeps `secret` under `id`, replacing what was there; `expiresAt` lets purgeExpired destroy it. */
  put(id: string, secret: string, expiresAt?: string): Promise<void>;
  /** The secret, unless it was destroyed or never kept. */
  get(id: string): Promise<string | undefined>;
  /** Destroys the secret for good; destroying a missing one does nothing. */
  destroy(id: string): Promise<void>;
  /** Destroys the secrets whose expiry has passed (at least those put before this call). */
  purgeExpired(now: Date): Promise<void>;
  close(): Promise<void>;
}

/** Secrets held in this process only: tests and benchmarks. */
export class InMemorySecretStore implements SecretStore {
  private readonly secrets = new Map<string, { secret: string; expiresAt?: string }>();

  async put(id: string, secret: string, expiresAt?: string): Promise<void> {
    this.secrets.set(id, { secret, ...(expiresAt !== undefined ? { expiresAt } : {}) });
  }

  async get(id: string): Promise<string | undefined> {
    return this.secrets.get(id)?.secret;
  }

  async destroy(id: string): Promise<void> {
    this.secrets.delete(id);
  }

  async purgeExpired(now: Date): Promise<void> {
    const cutoff = now.toISOString();
    for (const [id, { expiresAt }] of this.secrets)
      if (expiresAt !== undefined && expiresAt <= cutoff) this.secrets.delete(id);
  }

  async close(): Promise<void> {}
}
