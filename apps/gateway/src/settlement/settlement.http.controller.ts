import { ApiError } from '@gateway/contract';
import type { MerchantRegistry } from '@gateway/merchants';
import { Body, Controller, HttpCode, Inject, Post, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { GatewayClock } from '../clock/gateway-clock';
import type { GatewayConfig } from '../config/gateway.config';
import { OperatorGuard } from '../operator/operator.guard';
import { GATEWAY_CONFIG, MERCHANT_REGISTRY } from '../tokens';
import { BatchCloser } from './batch-closer';
import { batchOfDate, closingTime } from './settlement-batch';
import { renderSettlementFile } from './settlement-file';

/**
 * Operators close a test merchant's batch of a past day by hand: 200 with the acquirer's
 * settlement file (text/csv), the same file every time (docs/settlement.md). Refused with the
 * spec's error object, nothing recorded: a missing or unknown merchant, a merchant not served by
 * the simulated acquirer, a date not written yyyy-mm-dd, a day whose cut-off has not passed.
 */
@Controller('operator/acquirer/settlement')
@UseGuards(OperatorGuard)
export class SettlementHttpController {
  constructor(
    private readonly closer: BatchCloser,
    private readonly clock: GatewayClock,
    @Inject(MERCHANT_REGISTRY) private readonly merchants: Pick<MerchantRegistry, 'find'>,
    @Inject(GATEWAY_CONFIG) private readonly config: Pick<GatewayConfig, 'acquirerLater'>,
  ) {}

  @Post()
  @HttpCode(200)
  async settle(@Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const { merchantId, date } = fieldsOf(body);
    const merchant = this.merchants.find(merchantId);
    if (!merchant) throw ApiError.invalid(`Merchant '${merchantId}' is unknown`, 'merchantId');
    if (!merchant.test)
      throw ApiError.invalid(
        `Merchant '${merchantId}' is not a test merchant: only the simulated acquirer's batches close here`,
        'merchantId',
      );
    const batch = batchOfDate(date);
    if (batch === undefined)
      throw ApiError.invalid(`Value '${date}' is invalid: a day written YYYY-MM-DD`, 'date');
    const closesAt = closingTime(date, this.config.acquirerLater.settlementCutoffMs);
    if (this.clock.now() < closesAt)
      throw ApiError.invalid(
        `The batch of ${date} is still open: it closes at ${closesAt.toISOString()}`,
        'date',
      );
    const closed = await this.closer.close({ merchantId: merchant.id, batch });
    void reply.type('text/csv; charset=utf-8');
    return renderSettlementFile(closed);
  }
}

function fieldsOf(body: unknown): { merchantId: string; date: string } {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  for (const name of ['merchantId', 'date']) {
    if (fields[name] === undefined || fields[name] === '')
      throw ApiError.invalid(`Field '${name}' is missing`, name, 'MISSING');
    if (typeof fields[name] !== 'string')
      throw ApiError.invalid(`Value of '${name}' is invalid: a string`, name);
  }
  return fields as { merchantId: string; date: string };
}
