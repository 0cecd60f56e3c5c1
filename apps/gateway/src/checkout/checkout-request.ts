import { validateBody, validateSessionUpdate, type RequestError } from '@gateway/contract';
import { notifiedOf, type CheckoutTerms } from './checkout-terms';

type Json = Record<string, unknown>;

/** The card as the page's form sends it, by the contract's paths under sourceOfFunds.provided.card. */
export const CARD_INPUTS = {
  number: 'number',
  expiryMonth: 'expiry.month',
  expiryYear: 'expiry.year',
  securityCode: 'securityCode',
  firstName: 'holder.firstName',
  lastName: 'holder.lastName',
} as const;
export type CardInput = keyof typeof CARD_INPUTS;
export type CardForm = Partial<Record<CardInput | 'saveCard', string>>;

const CARD_PATH = 'sourceOfFunds.provided.card.';
const OPERATION_OF = { PURCHASE: 'PAY', AUTHORIZE: 'AUTHORIZE', VERIFY: 'VERIFY' } as const;
/** The request of NONE: the session's fields, as Update Session stores them. */
export const KEEP_CARD = 'UPDATE_SESSION';

/** Why the page cannot make the payment from what the payer typed: the input and the contract's words. */
export interface CardRefusal {
  readonly input?: CardInput;
  readonly message: string;
}

/** A request the contract accepted, ready to run. */
export interface CheckoutRequest {
  readonly apiOperation: string;
  readonly value: Json;
  /** The payer asked to save the card, where the page offered it. */
  readonly saveCard?: boolean;
}

/** The card group from the form: blanks left out, spaces and dashes of the number dropped (format help). */
export function cardOf(form: CardForm): Json {
  const card: Json = {};
  for (const [input, path] of Object.entries(CARD_INPUTS) as [CardInput, string][]) {
    let text = form[input]?.trim();
    if (input === 'number') text = text?.replace(/[\s-]/g, '');
    if (!text) continue;
    const [outer, inner] = path.split('.');
    if (inner) card[outer] = { ...(card[outer] as Json | undefined), [inner]: text };
    else card[outer] = text;
  }
  return card;
}

/**
 * The page's payment as the API's request (PAY for PURCHASE, AUTHORIZE, VERIFY), judged by the
 * same contract as a merchant's PUT at the session's API version: one set of card rules.
 */
export function checkoutRequest(
  terms: CheckoutTerms,
  form: CardForm,
): CheckoutRequest | CardRefusal {
  const card = cardOf(form);
  const missing = (['number', 'expiryMonth', 'expiryYear'] as const).find(
    (input) => !form[input]?.trim(),
  );
  if (missing)
    return { input: missing, message: 'Enter the card number and its expiry month and year' };
  if (terms.operation === 'NONE') return keptCard(card);
  const apiOperation = OPERATION_OF[terms.operation as keyof typeof OPERATION_OF];
  const { amount, currency, description } = terms.order;
  const notified = notifiedOf(terms);
  const order =
    apiOperation === 'VERIFY'
      ? { currency, ...notified }
      : { amount, currency, ...(description ? { description } : {}), ...notified };
  const body = {
    apiOperation,
    order,
    sourceOfFunds: { type: 'CARD', provided: { card } },
  };
  const validated = validateBody(terms.apiVersion, body);
  if (!validated.ok) return refusalOf(validated.error);
  const saveCard = terms.offersSaveCard === true && form.saveCard === 'yes';
  return { apiOperation, value: validated.value, ...(saveCard ? { saveCard } : {}) };
}

/**
 * NONE: no payment, the card kept in the session for the merchant's own operations, judged as
 * Update Session judges it (the same card rules).
 */
function keptCard(card: Json): CheckoutRequest | CardRefusal {
  const validated = validateSessionUpdate({ sourceOfFunds: { type: 'CARD', provided: { card } } });
  if (!validated.ok) return refusalOf(validated.error);
  return { apiOperation: KEEP_CARD, value: validated.value };
}

function refusalOf(error: RequestError): CardRefusal {
  const path = error.field?.startsWith(CARD_PATH) ? error.field.slice(CARD_PATH.length) : '';
  const input = (Object.keys(CARD_INPUTS) as CardInput[]).find((key) => CARD_INPUTS[key] === path);
  return input ? { input, message: error.explanation } : { message: error.explanation };
}
