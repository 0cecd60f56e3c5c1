import { cardFacts, type Acquirer } from '@gateway/acquirer';
import { ApiError, saveCardContract, type VerificationStrategy } from '@gateway/contract';
import {
  foldToken,
  isLuhnValid,
  issuedToken,
  maskCardNumber,
  tokenStatus,
  tokenStreamId,
  wasDeleted,
  type TokenCard,
  type TokenEvent,
  type TokenState,
} from '@gateway/domain';
import { newEventId, WrongExpectedRevisionError, type EventStore } from '@gateway/event-store';
import type { Merchant } from '@gateway/merchants';
import { createHash } from 'node:crypto';
import type { KeyedMutex } from '../order/keyed-mutex';
import type { PaymentSessions } from '../session/payment-sessions';
import type { Clock } from '../tokens';
import { get, optionalString } from '../transaction/body-fields';
import type { SensitiveData } from '../transaction/sensitive-data';
import type { CardVault, VaultSlot } from './card-vault';

type Json = Record<string, unknown>;

const CARD = 'sourceOfFunds.provided.card';
const GATEWAY_CODES: Record<VerificationStrategy, string> = {
  NONE: 'NO_VERIFICATION_PERFORMED',
  BASIC: 'BASIC_VERIFICATION_SUCCESSFUL',
  ACQUIRER: 'EXTERNAL_VERIFICATION_SUCCESSFUL',
};

/** A token a payment read, at the stream revision it was read. */
export interface TokenRead {
  readonly token: string;
  readonly revision: number;
}

/** A payment's request with the token's card beneath it; `read` when the token could pay. */
export interface WithToken {
  readonly request: Json;
  readonly read?: TokenRead;
}

export interface SavedToken {
  readonly token: string;
  readonly state: TokenState;
  readonly created: boolean;
}

/**
 * Save Card, retrieve and delete (behaviour notes, Stored cards): the history in a stream per
 * token, the number in the card vault. One token at a time per stream (the orders' KeyedMutex).
 */
export class CardTokens {
  constructor(
    private readonly store: EventStore,
    private readonly acquirer: Acquirer,
    private readonly vault: CardVault,
    private readonly sensitive: SensitiveData,
    private readonly sessions: PaymentSessions,
    private readonly locks: KeyedMutex,
    private readonly clock: Clock,
  ) {}

  /** POST …/token: the card's own token (the same one each time the merchant saves the card). */
  async issue(merchant: Merchant, request: Json): Promise<SavedToken> {
    const sent = await this.sessions.beneath(merchant.id, saveCardContract.body, request);
    const number = requiredCardNumber(sent);
    const fingerprint = this.sensitive.cardFingerprint(merchant.id, number);
    for (let attempt = 0; ; attempt++) {
      const token = issuedToken(digitsOf(`${fingerprint}\n${attempt}`), number);
      const saved = await this.locked(merchant.id, token, async (history) => {
        const state = foldToken(history);
        const taken = state ? state.card.fingerprint !== fingerprint : wasDeleted(history);
        return taken ? undefined : this.save(merchant, token, history, sent);
      });
      if (saved) return saved;
    }
  }

  /** PUT …/token/{tokenid}: creates the token the merchant names, or updates it. */
  async put(merchant: Merchant, token: string, request: Json): Promise<SavedToken> {
    const sent = await this.sessions.beneath(merchant.id, saveCardContract.body, request);
    return this.locked(merchant.id, token, (history) => this.save(merchant, token, history, sent));
  }

  async retrieve(merchantId: string, token: string): Promise<TokenState> {
    const state = foldToken(await this.load(merchantId, token));
    if (!state) throw notFound(token);
    return state;
  }

  /**
   * The request with the token's card beneath the card fields it holds (spec: explicit card
   * details override the session's, which override the token's), and the token as read (its
   * usage is recorded at that revision: `used`). Another merchant's token, a deleted or an
   * unknown one leaves the request without card fields, so that it is INVALID on
   * sourceOfFunds.token when parsed (source-of-funds.mapper.ts), with nothing recorded; a retry
   * of a payment made before the token was deleted is still answered as first (the pipeline's
   * replay comes before the parse). Only a request that `takesToken` uses one (behaviour notes:
   * AUTHORIZE, PAY and VERIFY pay with a token; Payment Options Inquiry asks about its card).
   */
  async beneath(merchant: Merchant, request: Json, takesToken: boolean): Promise<WithToken> {
    const token = get(request, 'sourceOfFunds.token');
    if (typeof token !== 'string') return { request };
    const history = takesToken ? await this.load(merchant.id, token) : [];
    const state = foldToken(history);
    const number = state && (await this.vault.get(slotOf(merchant.id, token, history)));
    const source = request.sourceOfFunds as Json;
    const provided = (source.provided ?? {}) as Json;
    const { card: sentCard, ...others } = provided;
    if (!state || number === undefined)
      return { request: { ...request, sourceOfFunds: { ...source, provided: others } } };
    const sent = (sentCard ?? {}) as Json;
    const { expiry, holder } = state.card;
    const card = {
      number,
      ...sent,
      expiry: { ...expiry, ...(sent.expiry as Json | undefined) },
      ...(holder || sent.holder ? { holder: { ...holder, ...(sent.holder as Json) } } : {}),
    };
    return {
      request: { ...request, sourceOfFunds: { ...source, provided: { ...provided, card } } },
      read: { token, revision: revisionOf(history) },
    };
  }

  /**
   * Records that a new payment used the token (usage.lastUsedTime), appended at the revision
   * `beneath` read, so the stream is read once. Only when another write came in between (a
   * concurrent use, an update, its deletion) is it read again: a deleted token gets nothing.
   */
  used(merchantId: string, { token, revision }: TokenRead): Promise<void> {
    const used: TokenEvent = { type: 'TokenUsed', data: { time: this.clock().toISOString() } };
    return this.locks.run(tokenStreamId(merchantId, token), async () => {
      try {
        await this.append(merchantId, token, revision, [used]);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        const history = await this.load(merchantId, token);
        if (foldToken(history)) await this.append(merchantId, token, revisionOf(history), [used]);
      }
    });
  }

  /** The deletion is recorded, then the token's key destroyed: nothing can give the number back. */
  delete(merchantId: string, token: string): Promise<void> {
    return this.locked(merchantId, token, async (history) => {
      if (!foldToken(history)) throw notFound(token);
      const time = this.clock().toISOString();
      const deleted: TokenEvent = { type: 'TokenDeleted', data: { time } };
      await this.append(merchantId, token, revisionOf(history), [deleted]);
      await this.vault.destroy(slotOf(merchantId, token, history));
    });
  }

  private async save(
    merchant: Merchant,
    token: string,
    history: readonly TokenEvent[],
    sent: Json,
  ): Promise<SavedToken> {
    const before = foldToken(history);
    const number = before ? optionalString(sent, `${CARD}.number`) : requiredCardNumber(sent);
    const card = this.cardOf(merchant, sent, number, before?.card);
    const strategy = (optionalString(sent, 'verificationStrategy') ??
      'NONE') as VerificationStrategy;
    if (strategy === 'BASIC') this.verifyBasic(card, number);
    const slot = slotOf(merchant.id, token, history);
    if (strategy === 'ACQUIRER')
      await this.verifyWithAcquirer(
        merchant.id,
        token,
        card,
        number ?? (await this.vault.get(slot))!,
      );
    if (number !== undefined) await this.vault.put(slot, number);
    const data = {
      card,
      verificationStrategy: strategy,
      gatewayCode: GATEWAY_CODES[strategy],
      time: this.clock().toISOString(),
    };
    const event: TokenEvent = before
      ? { type: 'TokenUpdated', data }
      : { type: 'TokenCreated', data };
    await this.append(merchant.id, token, revisionOf(history), [event]);
    return { token, state: foldToken([...history, event])!, created: !before };
  }

  /** The card to record: the sent fields over what the token held (holder and expiry may change alone). */
  private cardOf(
    merchant: Merchant,
    sent: Json,
    number: string | undefined,
    before: TokenCard | undefined,
  ): TokenCard {
    const month = optionalString(sent, `${CARD}.expiry.month`) ?? before?.expiry.month;
    const year = optionalString(sent, `${CARD}.expiry.year`) ?? before?.expiry.year;
    if (month === undefined || year === undefined)
      throw ApiError.invalid(
        `Field '${CARD}.expiry' is required to save a card`,
        `${CARD}.expiry`,
        'MISSING',
      );
    const holder = (get(sent, `${CARD}.holder`) as TokenCard['holder']) ?? before?.holder;
    const recorded =
      number !== undefined
        ? {
            number: maskCardNumber(number, merchant.cardMask),
            fingerprint: this.sensitive.cardFingerprint(merchant.id, number),
            ...cardFacts(number),
          }
        : pick(before!);
    return { ...recorded, expiry: { month, year }, ...(holder ? { holder } : {}) };
  }

  private verifyBasic(card: TokenCard, number: string | undefined): void {
    if (number !== undefined && !isLuhnValid(number))
      throw ApiError.invalid(
        'Value is invalid. The card number does not pass the Luhn check',
        `${CARD}.number`,
      );
    if (tokenStatus(card, this.clock()) === 'INVALID')
      throw ApiError.invalid('Value is invalid. The card has expired', `${CARD}.expiry.year`);
  }

  /**
   * A zero-amount VERIFY with the acquirer (recorded nowhere: no order is made); anything but
   * APPROVED refuses the token, response.gatewayCode saying why.
   */
  private async verifyWithAcquirer(
    merchantId: string,
    token: string,
    card: TokenCard,
    number: string,
  ): Promise<void> {
    const now = this.clock();
    const answer = await this.acquirer.process({
      operation: 'VERIFY',
      merchantId,
      orderId: `token-${token}`,
      transactionId: now.toISOString(),
      amount: 0,
      currency: 'USD',
      now,
      card: {
        number,
        expiryMonth: Number(card.expiry.month),
        expiryYear: Number(card.expiry.year),
      },
    });
    if (answer.gatewayCode !== 'APPROVED') throw declined(answer.gatewayCode);
  }

  private locked<T>(
    merchantId: string,
    token: string,
    task: (history: readonly TokenEvent[]) => Promise<T>,
  ): Promise<T> {
    return this.locks.run(tokenStreamId(merchantId, token), async () =>
      task(await this.load(merchantId, token)),
    );
  }

  /** The token's events, oldest first. */
  private async load(merchantId: string, token: string): Promise<TokenEvent[]> {
    const stored = await this.store.readStream(tokenStreamId(merchantId, token));
    return stored.map((e) => ({ type: e.type, data: e.data }) as TokenEvent);
  }

  /** `revision`: the stream's last revision as read (-1: no stream yet). */
  private async append(
    merchantId: string,
    token: string,
    revision: number,
    events: readonly TokenEvent[],
  ): Promise<void> {
    await this.store.appendToStream(
      tokenStreamId(merchantId, token),
      events.map((e) => ({ eventId: newEventId(), type: e.type, data: e.data, metadata: {} })),
      revision >= 0 ? revision : 'no_stream',
    );
  }
}

/** The token's life in `history`: its number is a secret of that life's own. */
function slotOf(merchantId: string, token: string, history: readonly TokenEvent[]): VaultSlot {
  const incarnation = history.filter((event) => event.type === 'TokenDeleted').length;
  return { merchantId, token, incarnation };
}

/** The revision `history` was read at (-1: the stream did not exist). */
function revisionOf(history: readonly TokenEvent[]): number {
  return history.length - 1;
}

/** What a token keeps of its card when only expiry or holder change. */
function pick({ number, fingerprint, brand, scheme, fundingMethod }: TokenCard) {
  return { number, fingerprint, brand, scheme, fundingMethod };
}

function requiredCardNumber(sent: Json): string {
  const number = optionalString(sent, `${CARD}.number`);
  if (number === undefined)
    throw ApiError.invalid(
      `Field '${CARD}.number' is required to save a card`,
      `${CARD}.number`,
      'MISSING',
    );
  return number;
}

/** Eleven decimal digits drawn from a keyed fingerprint. */
function digitsOf(text: string): string {
  const hash = createHash('sha256').update(text).digest();
  return (hash.readBigUInt64BE(0) % 100_000_000_000n).toString().padStart(11, '0');
}

/** The acquirer declined the card: the spec's error object, and response.gatewayCode. */
function declined(gatewayCode: string): ApiError {
  const body = {
    result: 'ERROR' as const,
    error: {
      cause: 'REQUEST_REJECTED' as const,
      explanation: `The acquirer did not verify the card: ${gatewayCode}`,
      field: CARD,
      validationType: 'INVALID' as const,
    },
    response: { gatewayCode },
  };
  return new ApiError(400, body);
}

function notFound(token: string): ApiError {
  return ApiError.notFound(`Token '${token}' was not found`);
}
