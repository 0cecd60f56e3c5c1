import type { CheckoutTerms } from '../checkout/checkout-terms';

/** What a payment session holds. Only ever stored encrypted: `fields` may carry a full card number. */
export interface SessionContent {
  /** The AES-256 key (base64) the merchant decrypts encryptedData with. */
  readonly aes256Key: string;
  /** Request fields stored by Update Session, as sent. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** A checkout session's terms (INITIATE_CHECKOUT): what the payment page does. */
  readonly checkout?: CheckoutTerms;
}

export interface StoredSession {
  readonly merchantId: string;
  readonly id: string;
  readonly version: string;
  readonly expiresAt: string;
  /** The order the session was first used for; it serves no other. */
  readonly orderId?: string;
  readonly content: SessionContent;
}

/**
 * A session store of this node (embedded SQLite, answering in microseconds), hence synchronous.
 * Adapters keep the content encrypted at rest and drop expired sessions. The application uses it
 * through the asynchronous port below, as it would use the event store's.
 */
export interface SessionStore {
  create(session: StoredSession): void;
  /** The session, unless it does not exist, belongs to another merchant, or has expired. */
  find(merchantId: string, id: string, now: Date): StoredSession | undefined;
  /** The merchant of a live session, found by its id alone (the payment page knows no more). */
  merchantOf(id: string, now: Date): string | undefined;
  /** Replaces the content if the version is still `expectedVersion`; false if another update won. */
  replace(
    merchantId: string,
    id: string,
    expectedVersion: string,
    next: { version: string; content: SessionContent },
  ): boolean;
  /** Binds the session to an order; false if it is bound to another one already. */
  bindToOrder(merchantId: string, id: string, orderId: string): boolean;
  /** Forgets expired sessions. */
  purgeExpired(now: Date): void;
  close(): void;
}

/**
 * The session port as every node of a cluster reaches it: over the network (the event store),
 * so each method answers later. The SQLite adapter takes this shape through `asyncSessionStore`.
 */
export type AsyncSessionStore = {
  readonly [M in keyof SessionStore]: (
    ...args: Parameters<SessionStore[M]>
  ) => Promise<ReturnType<SessionStore[M]>>;
};

/** A synchronous adapter behind the asynchronous port. */
export function asyncSessionStore(store: SessionStore): AsyncSessionStore {
  return {
    create: async (session) => store.create(session),
    find: async (merchantId, id, now) => store.find(merchantId, id, now),
    merchantOf: async (id, now) => store.merchantOf(id, now),
    replace: async (merchantId, id, expectedVersion, next) =>
      store.replace(merchantId, id, expectedVersion, next),
    bindToOrder: async (merchantId, id, orderId) => store.bindToOrder(merchantId, id, orderId),
    purgeExpired: async (now) => store.purgeExpired(now),
    close: async () => store.close(),
  };
}
