import { ApiError, validateBody, validateSaveCard, type RequestError } from '@gateway/contract';
import type { CardTokens } from '../card-vault/card-tokens';
import type { MerchantRegistry } from '@gateway/merchants';
import type { CommandBus } from '@nestjs/cqrs';
import { ProcessTransactionCommand } from '../transaction/process-transaction.command';
import type { RequestFingerprint } from '../transaction/request-fingerprint';
import type { SensitiveData } from '../transaction/sensitive-data';
import type { CheckoutTerms } from './checkout-terms';

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
  const apiOperation = OPERATION_OF[terms.operation as keyof typeof OPERATION_OF];
  const { amount, currency, description } = terms.order;
  const order =
    apiOperation === 'VERIFY'
      ? { currency }
      : { amount, currency, ...(description ? { description } : {}) };
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

function refusalOf(error: RequestError): CardRefusal {
  const path = error.field?.startsWith(CARD_PATH) ? error.field.slice(CARD_PATH.length) : '';
  const input = (Object.keys(CARD_INPUTS) as CardInput[]).find((key) => CARD_INPUTS[key] === path);
  return input ? { input, message: error.explanation } : { message: error.explanation };
}

/** What the acquirer said: approved, or the gateway code the payer is shown. */
export type PaymentResult = { readonly approved: boolean; readonly gatewayCode: string };

/**
 * Runs the page's operations through the command the API's PUT …/transaction/{id} sends: the
 * same contract, pipeline, events, webhooks and retrieval. The merchant is the session's, as if
 * it had sent them.
 */
export class CheckoutPayments {
  constructor(
    private readonly commands: CommandBus,
    private readonly merchants: MerchantRegistry,
    private readonly fingerprint: RequestFingerprint,
    private readonly sensitive: SensitiveData,
    private readonly cards: CardTokens,
  ) {}

  /**
   * One operation on the checkout's order: `body` judged by the contract at the session's API
   * version (a refusal is thrown as the API's error), then `gatewayFields` added: values the
   * gateway sets itself, such as its own return address, which no merchant sends.
   */
  async execute(
    merchantId: string,
    terms: CheckoutTerms,
    transactionId: string,
    body: Json,
    gatewayFields: (value: Json) => Json = (value) => value,
  ): Promise<Json> {
    const merchant = this.merchants.find(merchantId);
    if (!merchant?.test) throw ApiError.rejected('NO_ACQUIRER_LINK');
    const validated = validateBody(terms.apiVersion, body);
    if (!validated.ok) throw ApiError.fromFieldError(validated.error);
    const value = gatewayFields(validated.value);
    const orderId = terms.order.id;
    const { body: response } = await this.commands.execute(
      new ProcessTransactionCommand(
        merchant,
        String(value.apiOperation),
        terms.apiVersion,
        orderId,
        transactionId,
        value,
        this.fingerprint.of(terms.apiVersion, value),
        this.sensitive.viewFor(merchant, orderId, { byCertificate: false }),
      ),
    );
    return response;
  }

  /**
   * Save Card for the payer who asked, after the payment: the card as paid with, less the
   * security code (never stored), through the same contract and vault as POST …/token.
   */
  async saveCard(merchantId: string, request: CheckoutRequest): Promise<string> {
    const merchant = this.merchants.find(merchantId)!;
    const { securityCode: _never, ...card } = (
      (request.value.sourceOfFunds as Json).provided as Json
    ).card as Json;
    const validated = validateSaveCard({ sourceOfFunds: { type: 'CARD', provided: { card } } });
    if (!validated.ok) throw ApiError.fromFieldError(validated.error);
    return (await this.cards.issue(merchant, validated.value)).token;
  }

  /** The payment itself, citing the 3-D Secure authentication when there was one. */
  async pay(
    merchantId: string,
    terms: CheckoutTerms,
    transactionId: string,
    request: CheckoutRequest,
    authenticationId?: string,
  ): Promise<PaymentResult> {
    const body = authenticationId
      ? { ...request.value, authentication: { transactionId: authenticationId } }
      : request.value;
    const answer = await this.execute(merchantId, terms, transactionId, body);
    const response = answer.response as Json | undefined;
    return {
      approved: answer.result === 'SUCCESS',
      gatewayCode: String(response?.gatewayCode ?? answer.result),
    };
  }
}
