import { SECRET_STREAM_PREFIX } from '@gateway/event-store';
import {
  BACKWARDS,
  END,
  FORWARDS,
  jsonEvent,
  KurrentDBClient,
  START,
  StreamDeletedError,
  StreamNotFoundError,
  streamNameFilter,
  type Position,
} from '@kurrent/kurrentdb-client';
import type { SecretStore } from './secret-store';

export interface KurrentDbSecretStoreOptions {
  readonly connectionString: string;
  /** The event store's namespace (kurrentdb-event-store.ts), so that secrets share its server. */
  readonly namespace?: string;
  /** How often purgeExpired looks for expired secrets at most (default 10 s). */
  readonly purgeEveryMs?: number;
}

interface Kept {
  readonly secret: string;
  readonly expiresAt?: string;
}

const SCAN_BATCH = 1000;

/**
 * Secrets on KurrentDB, a stream per secret (`secret:{id}`), so that every node reaches them.
 * Destroying tombstones the stream (a hard delete): reads fail as deleted, nothing can be
 * appended again, and the server removes its events at its next scavenge. A replaced secret's
 * earlier versions are cut off by the stream's truncate-before, removed by the same scavenge.
 * Until a scavenge has run, the server's files and backups still hold the events: operators
 * schedule scavenges (docs/secrets.md). These streams are not the ledger's: they carry no hash
 * chain, and the relay, the ledger CLI and `ledger verify` skip them (SECRET_STREAM_PREFIX).
 */
export class KurrentDbSecretStore implements SecretStore {
  private readonly client: KurrentDBClient;
  private readonly prefix: string;
  private readonly purgeEveryMs: number;
  /** Secrets with an expiry seen in the log (by any node), by stream: what purgeExpired destroys. */
  private readonly expiring = new Map<string, string>();
  private scanned: Position | undefined;
  private nextPurgeMs = 0;
  private purging: Promise<void> | undefined;

  constructor(options: KurrentDbSecretStoreOptions) {
    this.client = KurrentDBClient.connectionString(options.connectionString);
    this.prefix = (options.namespace ?? '') + SECRET_STREAM_PREFIX;
    this.purgeEveryMs = options.purgeEveryMs ?? 10_000;
  }

  async put(id: string, secret: string, expiresAt?: string): Promise<void> {
    const stream = this.prefix + id;
    const data: Kept = expiresAt === undefined ? { secret } : { secret, expiresAt };
    const { nextExpectedRevision } = await this.client.appendToStream(
      stream,
      jsonEvent({ type: 'SecretKept', data: { ...data } }),
    );
    if (nextExpectedRevision > 0n)
      await this.client.setStreamMetadata(stream, {
        truncateBefore: Number(nextExpectedRevision),
      });
  }

  async get(id: string): Promise<string | undefined> {
    try {
      for await (const resolved of this.client.readStream(this.prefix + id, {
        fromRevision: END,
        direction: BACKWARDS,
        maxCount: 1,
      })) {
        return (resolved.event?.data as Kept | undefined)?.secret;
      }
    } catch (error) {
      if (!gone(error)) throw error;
    }
    return undefined;
  }

  async destroy(id: string): Promise<void> {
    await this.tombstone(this.prefix + id);
  }

  /** At most every purgeEveryMs, one at a time: it reads the log's new secrets first. */
  purgeExpired(now: Date): Promise<void> {
    if (this.purging) return this.purging;
    if (Date.now() < this.nextPurgeMs) return Promise.resolve();
    this.nextPurgeMs = Date.now() + this.purgeEveryMs;
    this.purging = this.purge(now.toISOString()).finally(() => (this.purging = undefined));
    return this.purging;
  }

  close(): Promise<void> {
    return this.client.dispose();
  }

  private async purge(cutoff: string): Promise<void> {
    await this.scan();
    for (const [stream, expiresAt] of this.expiring)
      if (expiresAt <= cutoff) {
        await this.tombstone(stream);
        this.expiring.delete(stream);
      }
  }

  /** Reads the secrets kept since the last scan: every node learns the expiry of every secret. */
  private async scan(): Promise<void> {
    for (let read = SCAN_BATCH; read === SCAN_BATCH;) {
      read = 0;
      for await (const resolved of this.client.readAll({
        fromPosition: this.scanned ?? START,
        direction: FORWARDS,
        maxCount: SCAN_BATCH,
        filter: streamNameFilter({ prefixes: [this.prefix] }),
      })) {
        read += 1;
        const event = resolved.event;
        const at = event?.position;
        // A forward read includes the event at its start: the last one of the previous scan.
        if (!event || !at || (this.scanned && at.commit <= this.scanned.commit)) continue;
        this.scanned = at;
        const { expiresAt } = event.data as Partial<Kept>;
        if (expiresAt !== undefined) this.expiring.set(event.streamId, expiresAt);
      }
    }
  }

  private async tombstone(stream: string): Promise<void> {
    try {
      await this.client.tombstoneStream(stream);
    } catch (error) {
      if (!(error instanceof StreamDeletedError)) throw error;
    }
  }
}

const gone = (error: unknown): boolean =>
  error instanceof StreamNotFoundError || error instanceof StreamDeletedError;
