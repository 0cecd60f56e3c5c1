import { isLuhnValid } from '../card';

/**
 * Stored cards (behaviour notes, Save Card): a token's history is events in a stream of its own,
 * holding the masked card and the keyed fingerprint only. The card number itself is in the card
 * vault (apps/gateway/src/card-vault), never in an event.
 */

/** One stream per (merchant, token). Merchant ids cannot contain ':'. */
export function tokenStreamId(merchantId: string, token: string): string {
  return `token:${merchantId}:${token}`;
}

/** The card as a token records it: never the full number, never a security code. */
export interface TokenCard {
  /** Masked with the merchant's recorded mask. */
  readonly number: string;
  /** HMAC of the number under the installation's key, per merchant. */
  readonly fingerprint: string;
  readonly expiry: { readonly month: string; readonly year: string };
  readonly holder?: { readonly firstName?: string; readonly lastName?: string };
  /** Known from the full number when it was saved. */
  readonly brand: string;
  readonly scheme: string;
  readonly fundingMethod: string;
}

export interface TokenSaved {
  readonly card: TokenCard;
  readonly verificationStrategy: string;
  readonly gatewayCode: string;
  readonly time: string;
}

export type TokenEvent =
  | { readonly type: 'TokenCreated'; readonly data: TokenSaved }
  | { readonly type: 'TokenUpdated'; readonly data: TokenSaved }
  | { readonly type: 'TokenUsed'; readonly data: { readonly time: string } }
  | { readonly type: 'TokenDeleted'; readonly data: { readonly time: string } };

export interface TokenState extends TokenSaved {
  readonly lastUpdated: string;
  readonly lastUsedTime?: string;
}

/** The token as its events leave it; undefined when it never existed or was deleted. */
export function foldToken(events: readonly TokenEvent[]): TokenState | undefined {
  let state: TokenState | undefined;
  for (const event of events) {
    switch (event.type) {
      case 'TokenCreated':
      case 'TokenUpdated':
        state = { ...state, ...event.data, lastUpdated: event.data.time };
        break;
      case 'TokenUsed':
        if (state) state = { ...state, lastUsedTime: event.data.time };
        break;
      case 'TokenDeleted':
        state = undefined;
    }
  }
  return state;
}

/** Whether a stream ever held a deletion: a deleted token is never brought back. */
export function wasDeleted(events: readonly TokenEvent[]): boolean {
  return events.some((event) => event.type === 'TokenDeleted');
}

/** VALID until the end of the expiry month (year 2000 plus the two digits), then INVALID. */
export function tokenStatus(card: TokenCard, now: Date): 'VALID' | 'INVALID' {
  const endOfMonth = Date.UTC(2000 + Number(card.expiry.year), Number(card.expiry.month), 1);
  return now.getTime() < endOfMonth ? 'VALID' : 'INVALID';
}

/**
 * An issued token (behaviour notes): 16 digits, a leading 9, eleven digits drawn from `digits`
 * (decimal digits derived from the card's fingerprint, so one card gets one token per merchant),
 * the card's last four, and never passing the Luhn check, so it cannot be taken for a card.
 */
export function issuedToken(digits: string, cardNumber: string): string {
  const middle = digits.slice(0, 11);
  if (!/^\d{11}$/.test(middle)) throw new Error('eleven digits are needed to issue a token');
  const candidate = `9${middle}${cardNumber.slice(-4)}`;
  if (!isLuhnValid(candidate)) return candidate;
  // Changing one digit changes the Luhn sum by 1-9 (mod 10): never a multiple of 10 again.
  const bumped = String((Number(candidate[11]) + 1) % 10);
  return `${candidate.slice(0, 11)}${bumped}${candidate.slice(12)}`;
}
