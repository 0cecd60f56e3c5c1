import {
  ApiError,
  findEmbeddedCardNumber,
  isJsonObject,
  paymentOptionsInquiryContract,
  validatePaymentOptionsInquiry,
} from '@gateway/contract';
import type { Merchant } from '@gateway/merchants';
import { Body, Controller, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { AuthenticatedMerchant, BasicAuthGuard } from '../auth/basic-auth.guard';
import { literalsAlong, numbersAsWritten } from '../http/body-numbers';
import { parseApiVersion } from '../http/path-params';
import { CardTokens } from '../card-vault/card-tokens';
import { PaymentSessions } from '../session/payment-sessions';
import { get } from '../transaction/body-fields';
import { CLOCK, type Clock } from '../tokens';
import { QuoteUptake } from '../currency-conversion/quote-uptake';
import { paymentOptions } from './payment-options';

const INQUIRY_NUMBERS = literalsAlong(paymentOptionsInquiryContract);

/**
 * POST …/merchant/{m}/paymentOptionsInquiry: what the merchant may use, and a currency-conversion
 * offer for a foreign card (behaviour notes, Payment Options Inquiry). It records nothing; an
 * empty body is the empty object (http/empty-body.ts).
 */
@Controller('api/rest/version/:version/merchant/:merchantId/paymentOptionsInquiry')
@UseGuards(BasicAuthGuard)
export class PaymentOptionsHttpController {
  constructor(
    private readonly sessions: PaymentSessions,
    private readonly tokens: CardTokens,
    private readonly quotes: QuoteUptake,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(200)
  async inquire(
    @Param('version') version: string | undefined,
    @Body() sent: unknown,
    @AuthenticatedMerchant() merchant: Merchant,
  ) {
    parseApiVersion(version);
    if (!isJsonObject(sent)) throw ApiError.invalid('The request body must be a JSON object');
    const validated = validatePaymentOptionsInquiry(numbersAsWritten(sent, INQUIRY_NUMBERS));
    if (!validated.ok) throw ApiError.fromFieldError(validated.error);
    const cardData = findEmbeddedCardNumber(validated.value);
    if (cardData) throw ApiError.fromFieldError(cardData);
    if (!merchant.test) throw ApiError.rejected('NO_ACQUIRER_LINK');
    const withSession = await this.sessions.beneath(
      merchant.id,
      paymentOptionsInquiryContract.body,
      validated.value,
    );
    // The token's card beneath the sent and session's (spec's precedence), as for a payment.
    const { request, read } = await this.tokens.beneath(merchant, withSession, true);
    // Another merchant's, a deleted or an unknown token: as for a payment (behaviour notes).
    if (!read && get(request, 'sourceOfFunds.token') !== undefined)
      throw ApiError.invalid(
        'Value is invalid. This gateway holds no stored card details for it',
        'sourceOfFunds.token',
      );
    return paymentOptions(merchant.id, request, this.quotes, this.clock());
  }
}
