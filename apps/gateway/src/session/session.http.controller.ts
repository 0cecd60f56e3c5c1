import {
  ApiError,
  initiateCheckoutContract,
  updateSessionContract,
  validateSessionCreate,
} from '@gateway/contract';
import { Body, Controller, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import {
  AuthenticatedMerchant,
  BasicAuthGuard,
  CertificateAuthenticated,
  SessionIdAsPassword,
} from '../auth/basic-auth.guard';
import { literalsAlong, numbersAsWritten } from '../http/body-numbers';
import { parseOrderPath, refuseCardNumber } from '../http/path-params';
import type { Merchant } from '@gateway/merchants';
import { cardMaskFor } from '@gateway/order-view';
import { CheckoutSessions } from '../checkout/checkout-sessions';
import { PaymentSessions, SESSION_ID } from './payment-sessions';
import { renderSession, withCorrelationId } from './session.response';

const UPDATE_NUMBERS = literalsAlong(updateSessionContract);
/** Both versions' checkout contracts have the same fields. */
const CHECKOUT_NUMBERS = literalsAlong(initiateCheckoutContract);

/** Create (POST), Update (PUT) and Retrieve (GET) a payment session. */
@Controller('api/rest/version/:version/merchant/:merchantId/session')
@UseGuards(BasicAuthGuard)
export class SessionHttpController {
  constructor(
    private readonly sessions: PaymentSessions,
    private readonly checkouts: CheckoutSessions,
  ) {}

  /**
   * Nothing asked for is ignored: a body asking for more than an empty session is refused, but
   * for a checkout session (INITIATE_CHECKOUT). An empty body arrives as `{}` (http/empty-body.ts).
   */
  @Post()
  @HttpCode(201)
  async create(
    @Param() params: { version?: string },
    @Body() sent: unknown,
    @AuthenticatedMerchant() merchant: Merchant,
  ) {
    const version = checkVersion(params);
    const body = numbersAsWritten(sent, CHECKOUT_NUMBERS);
    const validated = validateSessionCreate(version, body);
    if (!validated.ok) throw ApiError.fromFieldError(validated.error);
    if (validated.value.apiOperation !== undefined)
      return withCorrelationId(
        await this.checkouts.create(merchant.id, version, validated.value),
        body,
      );
    const session = await this.sessions.create(merchant.id);
    return withCorrelationId(renderSession(session, 'NO_UPDATE', true), body);
  }

  /** Also authenticated by the session id itself, from the payer's device (mobile SDKs). */
  @Put(':sessionId')
  @SessionIdAsPassword()
  async update(
    @Param() params: { version?: string; sessionId?: string },
    @Body() sent: unknown,
    @AuthenticatedMerchant() merchant: Merchant,
    @CertificateAuthenticated() byCertificate: boolean,
  ) {
    checkVersion(params);
    const body = numbersAsWritten(sent, UPDATE_NUMBERS);
    const session = await this.sessions.update(merchant.id, sessionIdOf(params), body);
    const cardMask = cardMaskFor(merchant, byCertificate);
    return withCorrelationId(renderSession(session, 'SUCCESS', false, cardMask), body);
  }

  @Get(':sessionId')
  async retrieve(
    @Param() params: { version?: string; sessionId?: string },
    @AuthenticatedMerchant() merchant: Merchant,
    @CertificateAuthenticated() byCertificate: boolean,
  ) {
    checkVersion(params);
    const session = await this.sessions.retrieve(merchant.id, sessionIdOf(params));
    return renderSession(session, 'NO_UPDATE', false, cardMaskFor(merchant, byCertificate));
  }
}

/** The path's version follows the same rules as for orders. */
function checkVersion(params: { version?: string }): number {
  return parseOrderPath({ version: params.version, orderId: 'session' }).apiVersion;
}

function sessionIdOf(params: { sessionId?: string }): string {
  const id = params.sessionId ?? '';
  refuseCardNumber(id, 'session.id');
  if (!SESSION_ID.test(id))
    throw ApiError.notFound(`Session '${id.slice(0, 40)}' was not found or has expired`);
  return id;
}
