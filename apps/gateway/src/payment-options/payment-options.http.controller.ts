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
import { PaymentSessions } from '../session/payment-sessions';
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
    private readonly quotes: QuoteUptake,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(200)
  inquire(
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
    return paymentOptions(
      merchant.id,
      this.sessions.beneath(merchant.id, paymentOptionsInquiryContract.body, validated.value),
      this.quotes,
      this.clock(),
    );
  }
}
