import {
  ApiError,
  findEmbeddedCardNumber,
  isJsonObject,
  malformedField,
  validateBody,
  withNumberLiterals,
} from '@gateway/contract';
import { Body, Controller, Get, HttpCode, Param, Put, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  AuthenticatedMerchant,
  BasicAuthGuard,
  CertificateAuthenticated,
} from '../auth/basic-auth.guard';
import { numbersAsWritten } from '../http/body-numbers';
import { idParam, parseOrderPath } from '../http/path-params';
import type { Merchant } from '@gateway/merchants';
import { RetrieveOrderQuery } from '../order/retrieve-order.query';
import { PaymentSessions, SESSION_ID } from '../session/payment-sessions';
import { get } from './body-fields';
import { ProcessTransactionCommand } from './process-transaction.command';
import { CardTokens } from '../card-vault/card-tokens';
import { RequestFingerprint } from './request-fingerprint';
import { SensitiveData } from './sensitive-data';

type PathParams = { version?: string; orderId?: string; transactionId?: string };

/**
 * Operations that send the card to the acquirer: after them a session forgets the security code;
 * only they pay with a card token.
 */
const CHARGES_CARD = new Set(['AUTHORIZE', 'PAY', 'VERIFY']);

/** A request citing a payment session by a well-formed id; the contract judges anything else. */
function citesSession(body: unknown): body is Record<string, unknown> {
  if (!isJsonObject(body) || !isJsonObject(body.session)) return false;
  const id = body.session.id;
  return typeof id === 'string' && SESSION_ID.test(id);
}

/**
 * What the sent fields alone decide, judged before the session is looked up (issue 13: one check
 * stage): every field's form.
 */
function wellFormed(apiVersion: number, body: Record<string, unknown>): Record<string, unknown> {
  const refused = malformedField(apiVersion, body);
  if (refused) throw ApiError.fromFieldError(refused);
  return body;
}

/** PUT …/transaction/{id} runs an operation; GET retrieves one transaction. */
@Controller(
  'api/rest/version/:version/merchant/:merchantId/order/:orderId/transaction/:transactionId',
)
@UseGuards(BasicAuthGuard)
export class TransactionHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly fingerprint: RequestFingerprint,
    private readonly sessions: PaymentSessions,
    private readonly sensitive: SensitiveData,
    private readonly tokens: CardTokens,
  ) {}

  @Put()
  @HttpCode(201)
  async put(
    @Param() params: PathParams,
    @Body() sent: unknown,
    @AuthenticatedMerchant() merchant: Merchant,
    @CertificateAuthenticated() byCertificate: boolean,
  ) {
    const { apiVersion, orderId } = parseOrderPath(params);
    const transactionId = idParam(params.transactionId, 'transaction.id');
    // The operation's contract, named by the body's apiOperation, says where the numbers belong.
    const body = numbersAsWritten(sent, (object, text) =>
      withNumberLiterals(apiVersion, object, text),
    );
    const withSession = citesSession(body)
      ? await this.sessions.requestWithSession(
          merchant.id,
          orderId,
          apiVersion,
          wellFormed(apiVersion, body),
        )
      : undefined;
    const validated = validateBody(apiVersion, withSession?.body ?? body);
    if (!validated.ok) throw ApiError.fromFieldError(validated.error);
    const cardData = findEmbeddedCardNumber(validated.value);
    if (cardData) throw ApiError.fromFieldError(cardData);
    if (!merchant.test) throw ApiError.rejected('NO_ACQUIRER_LINK');
    // Spec: unmasked bank account numbers need certificate authentication and the permission.
    const unmask = get(validated.value, 'responseControls.sensitiveData') === 'UNMASK';
    if (unmask && !byCertificate) throw ApiError.rejected('UNMASK_NEEDS_CERTIFICATE');
    if (unmask && !merchant.permissions.includes('UNMASK'))
      throw ApiError.rejected('UNMASK_NOT_PERMITTED');
    const charges = CHARGES_CARD.has(validated.value.apiOperation as string);
    const { request: value, read: token } = await this.tokens.beneath(
      merchant,
      validated.value,
      charges,
    );
    const command = new ProcessTransactionCommand(
      merchant,
      value.apiOperation as string,
      apiVersion,
      orderId,
      transactionId,
      value,
      this.fingerprint.of(apiVersion, body),
      this.sensitive.viewFor(merchant, orderId, { byCertificate, unmask }),
      withSession?.session.id,
    );
    const { body: response, recorded } = await this.commands.execute(command);
    if (withSession && charges) await this.sessions.securityCodeUsed(withSession.session);
    // A retry (answered from the order) used the token no more.
    if (token && recorded) await this.tokens.used(merchant.id, token);
    return response;
  }

  @Get()
  get(
    @Param() params: PathParams,
    @AuthenticatedMerchant() merchant: Merchant,
    @CertificateAuthenticated() byCertificate: boolean,
  ) {
    const { orderId } = parseOrderPath(params);
    const transactionId = idParam(params.transactionId, 'transaction.id');
    const view = this.sensitive.viewFor(merchant, orderId, { byCertificate });
    return this.queries.execute(new RetrieveOrderQuery(merchant.id, orderId, view, transactionId));
  }
}
