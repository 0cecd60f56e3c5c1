import {
  ApiError,
  findEmbeddedCardNumber,
  isJsonObject,
  saveCardContract,
  validateSaveCard,
} from '@gateway/contract';
import type { Merchant } from '@gateway/merchants';
import { cardMaskFor } from '@gateway/order-view';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  AuthenticatedMerchant,
  BasicAuthGuard,
  CertificateAuthenticated,
} from '../auth/basic-auth.guard';
import { literalsAlong, numbersAsWritten } from '../http/body-numbers';
import { parseApiVersion, refuseCardNumber } from '../http/path-params';
import { CLOCK, type Clock } from '../tokens';
import { CardTokens, type SavedToken } from './card-tokens';
import { renderToken } from './token.response';

type Json = Record<string, unknown>;
type Params = { version?: string; tokenId?: string };

const SAVE_NUMBERS = literalsAlong(saveCardContract);
/** Behaviour notes: a token the merchant names is 1-40 alphanumeric characters. */
const TOKEN_ID = /^[A-Za-z0-9]{1,40}$/;

/** Save Card (POST, PUT), retrieve (GET) and delete (DELETE) a merchant's card tokens. */
@Controller('api/rest/version/:version/merchant/:merchantId/token')
@UseGuards(BasicAuthGuard)
export class TokenHttpController {
  constructor(
    private readonly tokens: CardTokens,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  async issue(
    @Param() params: Params,
    @Body() sent: unknown,
    @AuthenticatedMerchant() merchant: Merchant,
    @CertificateAuthenticated() byCertificate: boolean,
  ) {
    parseApiVersion(params.version);
    const request = validated(sent);
    const saved = await this.tokens.issue(merchant, request);
    return this.render(merchant, byCertificate, saved, request.correlationId);
  }

  /** 201 when the token was created, 200 when it was updated. */
  @Put(':tokenId')
  async put(
    @Param() params: Params,
    @Body() sent: unknown,
    @AuthenticatedMerchant() merchant: Merchant,
    @CertificateAuthenticated() byCertificate: boolean,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    parseApiVersion(params.version);
    const token = params.tokenId ?? '';
    refuseCardNumber(token, 'token');
    if (!TOKEN_ID.test(token))
      throw ApiError.invalid(
        `Value '${token.slice(0, 50)}' is invalid. A token is 1-40 letters and digits`,
        'token',
      );
    const request = validated(sent);
    const saved = await this.tokens.put(merchant, token, request);
    void reply.status(saved.created ? 201 : 200);
    return this.render(merchant, byCertificate, saved, request.correlationId);
  }

  @Get(':tokenId')
  async retrieve(
    @Param() params: Params,
    @AuthenticatedMerchant() merchant: Merchant,
    @CertificateAuthenticated() byCertificate: boolean,
  ) {
    parseApiVersion(params.version);
    const token = tokenIdOf(params);
    const state = await this.tokens.retrieve(merchant.id, token);
    return this.render(merchant, byCertificate, { token, state, created: false });
  }

  @Delete(':tokenId')
  async delete(@Param() params: Params, @AuthenticatedMerchant() merchant: Merchant) {
    parseApiVersion(params.version);
    await this.tokens.delete(merchant.id, tokenIdOf(params));
    return { result: 'SUCCESS' };
  }

  private render(
    merchant: Merchant,
    byCertificate: boolean,
    saved: SavedToken,
    correlationId?: unknown,
  ) {
    return renderToken(merchant.id, saved.token, saved.state, {
      cardMask: cardMaskFor(merchant, byCertificate),
      now: this.clock(),
      correlationId,
    });
  }
}

function validated(sent: unknown): Json {
  if (!isJsonObject(sent)) throw ApiError.invalid('The request body must be a JSON object');
  const result = validateSaveCard(numbersAsWritten(sent, SAVE_NUMBERS));
  if (!result.ok) throw ApiError.fromFieldError(result.error);
  const cardData = findEmbeddedCardNumber(result.value);
  if (cardData) throw ApiError.fromFieldError(cardData);
  return result.value;
}

/** A path that cannot name a token names none: 404, as for a token that does not exist. */
function tokenIdOf(params: Params): string {
  const token = params.tokenId ?? '';
  refuseCardNumber(token, 'token');
  if (!TOKEN_ID.test(token)) throw ApiError.notFound(`Token '${token.slice(0, 40)}' was not found`);
  return token;
}
