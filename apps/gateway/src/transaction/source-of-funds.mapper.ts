import { ApiError } from '@gateway/contract';
import {
  isLuhnValid,
  maskAccountNumber,
  maskCardNumber,
  type RecordedSourceOfFunds,
} from '@gateway/domain';
import { get, optionalString, requiredString, type Body } from './body-fields';
import type { RecordProtection } from './sensitive-data';

/** Card details as the merchant sent them. They exist only in memory, for the processor; never recorded. */
export interface CardInput {
  readonly number: string;
  readonly expiryMonth: number;
  readonly expiryYear: number;
  readonly securityCode?: string;
}

/** What the processor needs to charge: a card, or another kind of account. */
export type Instrument =
  | { readonly kind: 'card'; readonly card: CardInput }
  | {
      readonly kind: 'account';
      readonly sourceType: AccountType;
      readonly giftCardNumber?: string;
    };

type AccountType = 'ACH' | 'GIFT_CARD' | 'PROVIDER_B' | 'PROVIDER_C';

/** The sourceOfFunds.provided group each account type is paid from. */
const ACCOUNT_GROUPS: Record<AccountType, string> = {
  ACH: 'ach',
  GIFT_CARD: 'giftCard',
  PROVIDER_B: 'providerB',
  PROVIDER_C: 'providerC',
};

/** Masked on record: the numbers that could move money. Security codes and PINs are dropped. */
const MASKED_MEMBERS = new Set(['bankAccountNumber', 'iban', 'number']);
/** Spec: UNMASK returns bank account numbers (and IBANs) in clear; these are sealed for it. */
export const UNMASKABLE_MEMBERS = new Set(['bankAccountNumber', 'iban']);
const DROPPED_MEMBERS = new Set(['pin', 'securityCode']);

/**
 * Reads and checks the source of funds: the instrument for the processor (in memory only) and its
 * masked record. The type names the provided group to pay from; without a type, the group decides.
 */
export function sourceOf(
  body: Body,
  protect: RecordProtection,
): { instrument: Instrument; recorded: RecordedSourceOfFunds } {
  const provided = (get(body, 'sourceOfFunds.provided') ?? {}) as Body;
  // A token's card is beneath the sent fields once the controller found the token (CardTokens.beneath).
  const token = optionalString(body, 'sourceOfFunds.token');
  if (token !== undefined && provided.card) {
    const { card, recorded } = cardOf(body, protect);
    return { instrument: { kind: 'card', card }, recorded: { ...recorded, token } };
  }
  if (token !== undefined || get(body, 'sourceOfFunds.session') !== undefined) {
    throw ApiError.invalid(
      'Value is invalid. This gateway holds no stored card details for it',
      token !== undefined ? 'sourceOfFunds.token' : 'sourceOfFunds.session',
    );
  }
  const type =
    optionalString(body, 'sourceOfFunds.type') ??
    (provided.card ? 'CARD' : Object.entries(ACCOUNT_GROUPS).find(([, g]) => provided[g])?.[0]);
  if (type === undefined || type === 'CARD') {
    const { card, recorded } = cardOf(body, protect);
    return { instrument: { kind: 'card', card }, recorded };
  }
  const group = ACCOUNT_GROUPS[type as AccountType];
  if (!group) {
    throw ApiError.invalid(
      `Value '${type}' is invalid. ${type} is a browser payment provider: use INITIATE_BROWSER_PAYMENT`,
      'sourceOfFunds.type',
    );
  }
  const details = provided[group] as Body | undefined;
  if (!details)
    throw ApiError.invalid(
      `Field 'sourceOfFunds.provided.${group}' is required for type ${type}`,
      `sourceOfFunds.provided.${group}`,
      'MISSING',
    );
  const giftCardNumber = type === 'GIFT_CARD' ? (details.number as string | undefined) : undefined;
  return {
    instrument: {
      kind: 'account',
      sourceType: type as AccountType,
      ...(giftCardNumber ? { giftCardNumber } : {}),
    },
    recorded: { type, ...recordedGroup(group, details, protect) },
  };
}

/**
 * A provided group as recorded: numbers masked, security codes and PINs dropped, and the bank
 * numbers sealed beside it when the merchant may UNMASK them.
 */
export function recordedGroup(
  group: string,
  details: Body,
  protect: RecordProtection,
): Pick<RecordedSourceOfFunds, 'provided' | 'sealed'> {
  const sealed: Record<string, string> = {};
  if (protect.seal) {
    for (const key of UNMASKABLE_MEMBERS) {
      const value = details[key];
      const field = `${group}.${key}`;
      if (typeof value === 'string') sealed[field] = protect.seal(value, field);
    }
  }
  return {
    provided: { [group]: maskedAccountDetails(details) },
    ...(Object.keys(sealed).length ? { sealed } : {}),
  };
}

/** An account group (not a card) as it may be shown: numbers masked, security codes and PINs dropped. */
export function maskedAccountDetails(details: Body): Body {
  const out: Body = {};
  for (const [key, value] of Object.entries(details)) {
    if (DROPPED_MEMBERS.has(key)) continue;
    out[key] =
      MASKED_MEMBERS.has(key) && typeof value === 'string' ? maskAccountNumber(value) : value;
  }
  return out;
}

export function cardOf(
  body: Body,
  protect: RecordProtection,
): { card: CardInput; recorded: RecordedSourceOfFunds } {
  const base = 'sourceOfFunds.provided.card';
  const number = requiredString(body, `${base}.number`);
  if (!isLuhnValid(number))
    throw ApiError.invalid(
      'Value is invalid. The card number must be 9-19 digits and pass the Luhn check',
      `${base}.number`,
    );
  const month = requiredString(body, `${base}.expiry.month`);
  const year = requiredString(body, `${base}.expiry.year`);
  const securityCode = optionalString(body, `${base}.securityCode`);
  const holder = get(body, `${base}.holder`);
  return {
    card: {
      number,
      expiryMonth: Number(month),
      expiryYear: Number(year),
      ...(securityCode ? { securityCode } : {}),
    },
    recorded: {
      type: 'CARD',
      provided: {
        card: {
          number: maskCardNumber(number, protect.cardMask),
          fingerprint: protect.fingerprint(number),
          expiry: { month, year },
          ...(holder ? { holder } : {}),
        },
      },
    },
  };
}
