import { ApiError } from '@gateway/contract';
import { Controller, Get, Headers, Inject, Param, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { TLSSocket } from 'node:tls';
import {
  AuthenticatedMerchant,
  BasicAuthGuard,
  CertificateAuthenticated,
} from '../auth/basic-auth.guard';
import { parseApiVersion } from '../http/path-params';
import type { Merchant, MerchantRegistry } from '@gateway/merchants';
import { LongLived } from '../protection/merchant-admission';
import { MERCHANT_REGISTRY } from '../tokens';
import { feedAccess } from './feed-access';
import { OrderEventFeed } from './order-event.feed';

/** GET …/merchant/{m}/events: the merchant's own order events, live (text/event-stream). */
@Controller('api/rest/version/:version/merchant/:merchantId/events')
@UseGuards(BasicAuthGuard)
export class OrderEventsHttpController {
  constructor(
    private readonly feed: OrderEventFeed,
    @Inject(MERCHANT_REGISTRY) private readonly merchants: MerchantRegistry,
  ) {}

  @Get()
  @LongLived()
  async stream(
    @Param('version') version: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @AuthenticatedMerchant() merchant: Merchant,
    @CertificateAuthenticated() byCertificate: boolean,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    parseApiVersion(version);
    const after = await this.feed.startAfter(parseLastEventId(lastEventId));
    const certificate = byCertificate
      ? (reply.request.raw.socket as TLSSocket).getPeerX509Certificate()
      : undefined;
    const access = feedAccess(this.merchants, merchant, certificate);
    // From here the stream writes to the socket itself; Fastify sends nothing more.
    reply.hijack();
    await this.feed.stream(access, after, reply.raw);
  }
}

/** A global position as this feed wrote it in `id:`; absent means "from now". */
function parseLastEventId(value: string | undefined): bigint | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,20}$/.test(value))
    throw ApiError.invalid(
      `Value '${value.slice(0, 30)}' is invalid. Last-Event-ID must be an event id this feed sent (a whole number)`,
      'Last-Event-ID',
    );
  return BigInt(value);
}
