import { ApiError } from '@gateway/contract';
import { Controller, Get, Headers, Param, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AuthenticatedMerchant, BasicAuthGuard } from '../auth/basic-auth.guard';
import { parseApiVersion } from '../http/path-params';
import { LongLived } from '../protection/merchant-admission';
import type { Merchant } from '../merchant/merchant-registry';
import { OrderEventFeed } from './order-event.feed';

/** GET …/merchant/{m}/events: the merchant's own order events, live (text/event-stream). */
@Controller('api/rest/version/:version/merchant/:merchantId/events')
@UseGuards(BasicAuthGuard)
export class OrderEventsHttpController {
  constructor(private readonly feed: OrderEventFeed) {}

  @Get()
  @LongLived()
  async stream(
    @Param('version') version: string | undefined,
    @Headers('last-event-id') lastEventId: string | undefined,
    @AuthenticatedMerchant() merchant: Merchant,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    parseApiVersion(version);
    const after = parseLastEventId(lastEventId);
    // From here the stream writes to the socket itself; Fastify sends nothing more.
    reply.hijack();
    await this.feed.stream(merchant.id, after, reply.raw);
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
