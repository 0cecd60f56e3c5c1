import { ApiError } from '@gateway/contract';
import { Body, Controller, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import {
  AuthenticatedMerchant,
  BasicAuthGuard,
  CertificateAuthenticated,
} from '../auth/basic-auth.guard';
import { parseOrderPath, refuseCardNumber } from '../http/path-params';
import type { Merchant } from '@gateway/merchants';
import { cardMaskFor } from '@gateway/order-view';
import { PaymentSessions, SESSION_ID } from './payment-sessions';
import { renderSession } from './session.response';

/** Create (POST), Update (PUT) and Retrieve (GET) a payment session. */
@Controller('api/rest/version/:version/merchant/:merchantId/session')
@UseGuards(BasicAuthGuard)
export class SessionHttpController {
  constructor(private readonly sessions: PaymentSessions) {}

  @Post()
  @HttpCode(201)
  create(@Param() params: { version?: string }, @AuthenticatedMerchant() merchant: Merchant) {
    checkVersion(params);
    return renderSession(this.sessions.create(merchant.id), 'NO_UPDATE', true);
  }

  @Put(':sessionId')
  update(
    @Param() params: { version?: string; sessionId?: string },
    @Body() body: unknown,
    @AuthenticatedMerchant() merchant: Merchant,
    @CertificateAuthenticated() byCertificate: boolean,
  ) {
    checkVersion(params);
    const session = this.sessions.update(merchant.id, sessionIdOf(params), body);
    return renderSession(session, 'SUCCESS', false, cardMaskFor(merchant, byCertificate));
  }

  @Get(':sessionId')
  retrieve(
    @Param() params: { version?: string; sessionId?: string },
    @AuthenticatedMerchant() merchant: Merchant,
    @CertificateAuthenticated() byCertificate: boolean,
  ) {
    checkVersion(params);
    const session = this.sessions.retrieve(merchant.id, sessionIdOf(params));
    return renderSession(session, 'NO_UPDATE', false, cardMaskFor(merchant, byCertificate));
  }
}

/** The path's version follows the same rules as for orders. */
function checkVersion(params: { version?: string }): void {
  parseOrderPath({ version: params.version, orderId: 'session' });
}

function sessionIdOf(params: { sessionId?: string }): string {
  const id = params.sessionId ?? '';
  refuseCardNumber(id, 'session.id');
  if (!SESSION_ID.test(id))
    throw ApiError.notFound(`Session '${id.slice(0, 40)}' was not found or has expired`);
  return id;
}
