import { ApiError } from '@gateway/contract';
import { Controller, Get, HttpCode, Inject, Param, Post, Query, UseGuards } from '@nestjs/common';
import { DELIVERY_STATUSES, type DeliveryLog, type DeliveryStatus } from '@gateway/webhooks';
import { AuthenticatedMerchant, BasicAuthGuard } from '../auth/basic-auth.guard';
import { parseOrderPath } from '../http/path-params';
import type { Merchant } from '@gateway/merchants';
import type { Consumers } from '../consumers/consumers.host';
import { CONSUMERS, WEBHOOK_DELIVERIES } from '../tokens';

type ListQuery = { status?: string; limit?: string; before?: string };

/**
 * A merchant's webhook delivery log: list deliveries (newest first, by status, paginated), show
 * one with every attempt, redeliver one, or redeliver every dead-lettered one. A merchant sees
 * only its own deliveries (the guard ties the credentials to the path's merchant).
 */
@Controller('api/rest/version/:version/merchant/:merchantId/webhook/delivery')
@UseGuards(BasicAuthGuard)
export class WebhookDeliveryHttpController {
  constructor(
    @Inject(WEBHOOK_DELIVERIES) private readonly deliveries: DeliveryLog,
    @Inject(CONSUMERS) private readonly consumers: Consumers,
  ) {}

  @Get()
  list(
    @Param('version') version: string,
    @Query() query: ListQuery,
    @AuthenticatedMerchant() merchant: Merchant,
  ) {
    versionOf(version);
    const page = this.deliveries.list({
      merchantId: merchant.id,
      ...listFilter(query),
    });
    return { ...page, ...(page.next !== undefined ? { next: String(page.next) } : {}) };
  }

  @Get(':deliveryId')
  show(
    @Param('version') version: string,
    @Param('deliveryId') id: string,
    @AuthenticatedMerchant() merchant: Merchant,
  ) {
    versionOf(version);
    return this.deliveries.get(id, merchant.id) ?? notFound(id);
  }

  @Post('redeliverDeadLettered')
  @HttpCode(202)
  async redeliverDeadLettered(
    @Param('version') version: string,
    @AuthenticatedMerchant() merchant: Merchant,
  ) {
    versionOf(version);
    const redelivered = await this.deliveries.redeliverDeadLettered(merchant.id, Date.now());
    this.consumers.nudge();
    return { redelivered };
  }

  @Post(':deliveryId/redeliver')
  @HttpCode(202)
  async redeliver(
    @Param('version') version: string,
    @Param('deliveryId') id: string,
    @AuthenticatedMerchant() merchant: Merchant,
  ) {
    versionOf(version);
    const redelivered = await this.deliveries.redeliver(id, Date.now(), merchant.id);
    this.consumers.nudge();
    return redelivered ?? notFound(id);
  }
}

/** The path's version follows the rules for orders. */
function versionOf(version: string): number {
  return parseOrderPath({ version, orderId: 'webhook' }).apiVersion;
}

function listFilter(query: ListQuery): { status?: DeliveryStatus; limit: number; before?: number } {
  const { status, limit = '20', before } = query;
  if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status))
    throw ApiError.invalid(
      `Value '${String(status).slice(0, 40)}' is invalid. It must be one of ${DELIVERY_STATUSES.join(', ')}`,
      'status',
    );
  if (!/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > 100)
    throw ApiError.invalid(
      `Value '${String(limit).slice(0, 40)}' is invalid. It must be a whole number from 1 to 100`,
      'limit',
    );
  if (before !== undefined && !/^\d{1,15}$/.test(before))
    throw ApiError.invalid(
      `Value '${String(before).slice(0, 40)}' is invalid. Use the 'next' of the previous page`,
      'before',
    );
  return {
    limit: Number(limit),
    ...(status !== undefined ? { status: status as DeliveryStatus } : {}),
    ...(before !== undefined ? { before: Number(before) } : {}),
  };
}

function notFound(id: string): never {
  throw ApiError.notFound(`Webhook delivery '${String(id).slice(0, 40)}' was not found`);
}
