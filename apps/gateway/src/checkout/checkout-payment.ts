import { ApiError, validateBody, validateSaveCard } from '@gateway/contract';
import type { MerchantRegistry } from '@gateway/merchants';
import type { CommandBus } from '@nestjs/cqrs';
import type { CardTokens } from '../card-vault/card-tokens';
import { ProcessTransactionCommand } from '../transaction/process-transaction.command';
import type { RequestFingerprint } from '../transaction/request-fingerprint';
import type { SensitiveData } from '../transaction/sensitive-data';
import type { CheckoutRequest } from './checkout-request';
import type { CheckoutTerms } from './checkout-terms';

type Json = Record<string, unknown>;

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
