import { ApiError, isJsonObject } from '@gateway/contract';
import type { DeliveryLog } from '@gateway/webhooks';
import { Body, Controller, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import type { Consumers } from '../consumers/consumers.host';
import { idParam } from '../http/path-params';
import { CONSUMERS, WEBHOOK_DELIVERIES } from '../tokens';
import { OperatorGuard } from './operator.guard';

/**
 * Operators redeliver any merchant's webhooks (the console's Webhooks page): POST
 * /operator/webhook/delivery/<id>/redeliver, and /operator/webhook/delivery/redeliverDeadLettered
 * `{merchantId}`. The merchant's own API does the same for its deliveries alone.
 */
@Controller('operator/webhook/delivery')
@UseGuards(OperatorGuard)
export class WebhookOperatorHttpController {
  constructor(
    @Inject(WEBHOOK_DELIVERIES) private readonly deliveries: DeliveryLog,
    @Inject(CONSUMERS) private readonly consumers: Consumers,
  ) {}

  @Post('redeliverDeadLettered')
  @HttpCode(202)
  async redeliverDeadLettered(@Body() sent: unknown) {
    const merchantId = isJsonObject(sent) ? sent.merchantId : undefined;
    if (typeof merchantId !== 'string')
      throw ApiError.invalid('merchantId is missing', 'merchantId', 'MISSING');
    const redelivered = await this.deliveries.redeliverDeadLettered(
      idParam(merchantId, 'merchantId'),
      Date.now(),
    );
    this.consumers.nudge();
    return { redelivered };
  }

  @Post(':deliveryId/redeliver')
  @HttpCode(202)
  async redeliver(@Param('deliveryId') id: string) {
    const redelivered = await this.deliveries.redeliver(id, Date.now());
    this.consumers.nudge();
    if (!redelivered)
      throw ApiError.notFound(`Webhook delivery '${String(id).slice(0, 40)}' was not found`);
    return redelivered;
  }
}
