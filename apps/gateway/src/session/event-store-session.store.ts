import {
  newEventId,
  WrongExpectedRevisionError,
  type EventStore,
  type StoredEvent,
} from '@gateway/event-store';
import { randomBytes, randomUUID } from 'node:crypto';
import { AesGcmKeyring } from '../crypto/aes-gcm-keyring';
import type { SecretStore } from '../secrets/secret-store';
import type { SessionStore, SessionContent, StoredSession } from './session.store';

const RECENT_STATES = 1024;

/** Session ids are random and unique across merchants, so the payment page finds one by id alone. */
export const sessionStreamId = (id: string): string => `session:${id}`;

/** Content as a stream event holds it: sealed under a data key kept apart (a secret). */
interface Sealed {
  readonly keyId: string;
  readonly sealed: string;
}

type SessionEvent =
  | {
      type: 'SessionCreated';
      data: Sealed & { merchantId: string; version: string; expiresAt: string; orderId?: string };
    }
  | { type: 'SessionUpdated'; data: Sealed & { version: string } }
  | { type: 'SessionBoundToOrder'; data: { orderId: string } };

interface State extends Sealed {
  readonly merchantId: string;
  readonly version: string;
  readonly expiresAt: string;
  readonly orderId?: string;
  /** The stream's last revision: the expected revision of the next append. */
  readonly revision: number;
}

/**
 * Payment sessions in the event store, a stream per session, so that any node serves any step of
 * a session's flow. Version compare-and-set is an append at the revision read. A new version's
 * content is sealed under a new data key and the previous key is destroyed, so a forgotten
 * security code cannot be read back from older events (docs/sessions.md).
 */
export class EventStoreSessionStore implements SessionStore {
  /**
   * Sessions as this node last read or wrote them: a step reads its session (find) and then
   * writes it, so the write appends at the revision read instead of reading the stream again
   * (a round trip to KurrentDB). Possibly stale: only a match is trusted, and a failed append
   * reads the stream afresh.
   */
  private readonly recent = new Map<string, State>();

  constructor(
    private readonly events: EventStore,
    /** Where the data keys live, destroyable: the event store never forgets. */
    private readonly dataKeys: SecretStore,
    /** The `session` key of the keys file: a data key alone opens nothing either. */
    private readonly sessionKey: AesGcmKeyring,
  ) {}

  async create(session: StoredSession): Promise<void> {
    const sealed = await this.seal(
      session.id,
      session.expiresAt,
      session.merchantId,
      session.content,
    );
    const { merchantId, version, expiresAt, orderId } = session;
    const data = {
      merchantId,
      version,
      expiresAt,
      ...(orderId !== undefined ? { orderId } : {}),
      ...sealed,
    };
    await this.append(session.id, 'no_stream', { type: 'SessionCreated', data });
  }

  async find(merchantId: string, id: string, now: Date): Promise<StoredSession | undefined> {
    const state = await this.live(id, now);
    if (state?.merchantId !== merchantId) return undefined;
    const content = await this.open(id, merchantId, state);
    if (!content) return undefined;
    const { version, expiresAt, orderId } = state;
    return {
      merchantId,
      id,
      version,
      expiresAt,
      ...(orderId !== undefined ? { orderId } : {}),
      content,
    };
  }

  async merchantOf(id: string, now: Date): Promise<string | undefined> {
    return (await this.live(id, now))?.merchantId;
  }

  async replace(
    merchantId: string,
    id: string,
    expectedVersion: string,
    next: { version: string; content: SessionContent },
  ): Promise<boolean> {
    const matches = (state: State | undefined): state is State =>
      state?.merchantId === merchantId && state.version === expectedVersion;
    let known = this.recent.get(id);
    for (;;) {
      // What this node last read or wrote, when it agrees: an append at a stale revision fails.
      const state = matches(known) ? known : await this.state(id);
      known = undefined;
      if (!matches(state)) return false;
      const sealed = await this.seal(id, state.expiresAt, merchantId, next.content);
      const event: SessionEvent = {
        type: 'SessionUpdated',
        data: { version: next.version, ...sealed },
      };
      if (await this.appended(id, state.revision, event)) {
        this.remember(id, { ...state, ...event.data, revision: state.revision + 1 });
        await this.dataKeys.destroy(dataKeyId(id, state.keyId));
        return true;
      }
      // Another write came first; a binding leaves the version as it was, so look again.
      await this.dataKeys.destroy(dataKeyId(id, sealed.keyId));
    }
  }

  async bindToOrder(merchantId: string, id: string, orderId: string): Promise<boolean> {
    let known = this.recent.get(id);
    for (;;) {
      // A session's merchant and binding never change: a stale state only fails the append.
      const state = known ?? (await this.state(id));
      known = undefined;
      if (state?.merchantId !== merchantId) return false;
      if (state.orderId !== undefined) return state.orderId === orderId;
      const event: SessionEvent = { type: 'SessionBoundToOrder', data: { orderId } };
      if (await this.appended(id, state.revision, event)) {
        this.remember(id, { ...state, orderId, revision: state.revision + 1 });
        return true;
      }
    }
  }

  /** The streams stay; their content becomes unreadable with their keys. */
  purgeExpired(now: Date): Promise<void> {
    return this.dataKeys.purgeExpired(now);
  }

  /** The event store is the application's, closed by its owner. */
  async close(): Promise<void> {}

  private async live(id: string, now: Date): Promise<State | undefined> {
    const state = await this.state(id);
    return state && state.expiresAt > now.toISOString() ? state : undefined;
  }

  private async state(id: string): Promise<State | undefined> {
    const state = fold(await this.events.readStream(sessionStreamId(id)));
    if (state) this.remember(id, state);
    return state;
  }

  /** The latest RECENT_STATES states this node read or wrote, the newest last. */
  private remember(id: string, state: State): void {
    this.recent.delete(id);
    this.recent.set(id, state);
    if (this.recent.size > RECENT_STATES) this.recent.delete(this.recent.keys().next().value!);
  }

  private async seal(
    id: string,
    expiresAt: string,
    merchantId: string,
    content: SessionContent,
  ): Promise<Sealed> {
    const keyId = randomUUID();
    const key = randomBytes(32);
    await this.dataKeys.put(dataKeyId(id, keyId), key.toString('base64'), expiresAt);
    const inner = AesGcmKeyring.ofKey(key).sealText(
      JSON.stringify(content),
      boundTo(merchantId, id),
    );
    return { keyId, sealed: this.sessionKey.sealText(inner, boundTo(merchantId, id)) };
  }

  private async open(
    id: string,
    merchantId: string,
    { keyId, sealed }: Sealed,
  ): Promise<SessionContent | undefined> {
    const stored = await this.dataKeys.get(dataKeyId(id, keyId));
    const key = stored === undefined ? undefined : Buffer.from(stored, 'base64');
    const inner = key && this.sessionKey.openText(sealed, boundTo(merchantId, id));
    const plaintext = inner && AesGcmKeyring.ofKey(key).openText(inner, boundTo(merchantId, id));
    return plaintext ? (JSON.parse(plaintext) as SessionContent) : undefined;
  }

  /** False when the stream moved past `revision` (nothing was appended). */
  private async appended(id: string, revision: number, event: SessionEvent): Promise<boolean> {
    try {
      await this.append(id, revision, event);
      return true;
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return false;
      throw error;
    }
  }

  private async append(
    id: string,
    expected: number | 'no_stream',
    event: SessionEvent,
  ): Promise<void> {
    const newEvent = { eventId: newEventId(), ...event, metadata: {} };
    await this.events.appendToStream(sessionStreamId(id), [newEvent], expected);
  }
}

function fold(history: readonly StoredEvent[]): State | undefined {
  let state: State | undefined;
  for (const { type, data, revision } of history) {
    const event = { type, data } as SessionEvent;
    if (event.type === 'SessionCreated') state = { ...event.data, revision };
    else if (!state) continue;
    else if (event.type === 'SessionUpdated') state = { ...state, ...event.data, revision };
    else state = { ...state, orderId: event.data.orderId, revision };
  }
  return state;
}

/** The secret holding one version's data key. */
const dataKeyId = (sessionId: string, keyId: string): string => `session:${sessionId}:${keyId}`;

function boundTo(merchantId: string, id: string): string {
  return `${merchantId}\n${id}`;
}
