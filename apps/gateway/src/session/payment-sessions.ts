import {
  ApiError,
  findEmbeddedCardNumber,
  resolveContract,
  validateSessionUpdate,
  type GroupField,
} from '@gateway/contract';
import { holdsCardNumber } from '@gateway/domain';
import { randomBytes } from 'node:crypto';
import type { CheckoutTerms } from '../checkout/checkout-terms';
import type { Clock } from '../tokens';
import { mergeUpdate, withSessionFields, withoutSecurityCode } from './session-fields';
import type { SessionStore, StoredSession } from './session.store';

type Json = Record<string, unknown>;

const ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Spec: session.id is ASCII, 31-35 characters. */
export const SESSION_ID = /^[\x20-\x7e]{31,35}$/;

/**
 * `SESSION` and 25 random characters: 32 ASCII characters, within the spec's 31-35. Ids are
 * refused when they hold a card number, so none is made that does (about one in 10^8 would).
 */
function newSessionId(): string {
  let id: string;
  do {
    id = 'SESSION';
    for (const byte of randomBytes(25)) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  } while (holdsCardNumber(id));
  return id;
}

/** 10 hex characters (spec: session.version is exactly 10). */
export const newVersion = (): string => randomBytes(5).toString('hex');

/**
 * Payment sessions: created empty with their own AES-256 key, filled by Update Session, and read
 * by the operations that cite session.id. A session serves one order, expires, and gives up the
 * card security code once an operation has used it.
 */
export class PaymentSessions {
  constructor(
    private readonly store: SessionStore,
    private readonly clock: Clock,
    private readonly ttlSeconds: number,
  ) {}

  /** A checkout session (with `checkout`) serves the order its terms name from the start. */
  async create(merchantId: string, checkout?: CheckoutTerms): Promise<StoredSession> {
    const now = this.clock();
    await this.store.purgeExpired(now);
    const content = { aes256Key: randomBytes(32).toString('base64'), fields: {} };
    const session: StoredSession = {
      merchantId,
      id: newSessionId(),
      version: newVersion(),
      expiresAt: new Date(now.getTime() + this.ttlSeconds * 1000).toISOString(),
      ...(checkout ? { orderId: checkout.order.id } : {}),
      content: checkout ? { ...content, checkout } : content,
    };
    await this.store.create(session);
    return session;
  }

  async retrieve(merchantId: string, id: string): Promise<StoredSession> {
    const session = await this.store.find(merchantId, id, this.clock());
    if (!session) throw ApiError.notFound(`Session '${id}' was not found or has expired`);
    return session;
  }

  /**
   * The request with the session it cites (`session.id`) beneath it: the fields `contract`
   * declares, sent fields winning. A session that does not exist is INVALID on session.id.
   */
  async beneath(merchantId: string, contract: GroupField, request: Json): Promise<Json> {
    const id = (request.session as Json | undefined)?.id;
    if (typeof id !== 'string') return request;
    return withSessionFields(contract, (await this.cited(merchantId, id)).content.fields, request);
  }

  /** Whether the merchant's session exists and has not expired: session authentication's test. */
  async isLive(merchantId: string, id: string): Promise<boolean> {
    return (
      SESSION_ID.test(id) && (await this.store.find(merchantId, id, this.clock())) !== undefined
    );
  }

  async update(merchantId: string, id: string, body: unknown): Promise<StoredSession> {
    const session = await this.retrieve(merchantId, id);
    const validated = validateSessionUpdate(body);
    if (!validated.ok) throw ApiError.fromFieldError(validated.error);
    // Retrieve Session shows what was stored: card numbers only where they are masked.
    const cardData = findEmbeddedCardNumber(validated.value);
    if (cardData) throw ApiError.fromFieldError(cardData);
    const { session: lock, correlationId: _transient, ...fields } = validated.value;
    checkVersion(session, (lock as Json | undefined)?.version);
    const next = {
      version: newVersion(),
      content: { ...session.content, fields: mergeUpdate(session.content.fields, fields) },
    };
    if (!(await this.store.replace(merchantId, id, session.version, next)))
      throw versionMismatch('The session was updated by another request; retrieve it again');
    return { ...session, ...next };
  }

  /**
   * The request with the session's fields beneath it, for an operation that cites session.id.
   * Refuses an unknown or expired session, a stale session.version, and a session already used
   * for another order.
   */
  async requestWithSession(
    merchantId: string,
    orderId: string,
    apiVersion: number,
    body: Json,
  ): Promise<{ body: Json; session: StoredSession }> {
    const sessionGroup = body.session as Json;
    const id = sessionGroup.id as string;
    const session = await this.cited(merchantId, id);
    checkVersion(session, sessionGroup.version);
    if (session.orderId !== undefined && session.orderId !== orderId)
      throw ApiError.invalid(
        `Value '${id}' is invalid. The session was already used for another order`,
        'session.id',
      );
    const contract = resolveContract(String(body.apiOperation), apiVersion);
    return {
      body: contract ? withSessionFields(contract.body, session.content.fields, body) : body,
      session,
    };
  }

  /**
   * A session serves one order: the first operation that cites it and that the order allows
   * binds it (a refused request leaves it free).
   */
  async bindToOrder(merchantId: string, sessionId: string, orderId: string): Promise<void> {
    if (!(await this.store.bindToOrder(merchantId, sessionId, orderId)))
      throw ApiError.invalid(
        `Value '${sessionId}' is invalid. The session was already used for another order`,
        'session.id',
      );
  }

  /**
   * After a card was sent to the acquirer the security code is forgotten. The version stays: it
   * guards what the merchant stored, and this is the gateway's own clean-up.
   */
  async securityCodeUsed(session: StoredSession): Promise<void> {
    const fields = withoutSecurityCode(session.content.fields);
    if (fields === session.content.fields) return;
    await this.store.replace(session.merchantId, session.id, session.version, {
      version: session.version,
      content: { ...session.content, fields },
    });
  }

  /** The session a request cites by id: INVALID on session.id when it does not exist or has expired. */
  private async cited(merchantId: string, id: string): Promise<StoredSession> {
    const session = await this.store.find(merchantId, id, this.clock());
    if (!session)
      throw ApiError.invalid(
        `Value '${id}' is invalid. No such session, or it has expired`,
        'session.id',
      );
    return session;
  }

  /** The session's AES-256 key, for encryptedData; undefined once the session has expired. */
  async keyOf(merchantId: string, id: string): Promise<Buffer | undefined> {
    const session = await this.store.find(merchantId, id, this.clock());
    return session ? Buffer.from(session.content.aes256Key, 'base64') : undefined;
  }
}

function checkVersion(session: StoredSession, sent: unknown): void {
  if (sent !== undefined && sent !== session.version)
    throw versionMismatch(
      `Value '${String(sent)}' is invalid. The session's version is ${session.version}`,
    );
}

function versionMismatch(explanation: string): ApiError {
  return ApiError.invalid(explanation, 'session.version');
}
