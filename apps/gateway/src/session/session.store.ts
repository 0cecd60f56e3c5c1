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
 * The session port. Adapters keep the content encrypted at rest and drop expired sessions. It is
 * asynchronous as every node of a cluster reaches it over the network (the event store adapter);
 * the embedded SQLite adapter answers in microseconds.
 */
export interface SessionStore {
  create(session: StoredSession): Promise<void>;
  /** The session, unless it does not exist, belongs to another merchant, or has expired. */
  find(merchantId: string, id: string, now: Date): Promise<StoredSession | undefined>;
  /** The merchant of a live session, found by its id alone (the payment page knows no more). */
  merchantOf(id: string, now: Date): Promise<string | undefined>;
  /** Replaces the content if the version is still `expectedVersion`; false if another update won. */
  replace(
    merchantId: string,
    id: string,
    expectedVersion: string,
    next: { version: string; content: SessionContent },
  ): Promise<boolean>;
  /** Binds the session to an order; false if it is bound to another one already. */
  bindToOrder(merchantId: string, id: string, orderId: string): Promise<boolean>;
  /** Forgets expired sessions. */
  purgeExpired(now: Date): Promise<void>;
  close(): Promise<void>;
}
