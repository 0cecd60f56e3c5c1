import { ApiError, isJsonObject } from '@gateway/contract';
import {
  orderStreamId,
  parseAmount,
  toDecimal,
  OrderRejection,
  type AcquirerFact,
  type Order,
  type Thousandths,
} from '@gateway/domain';
import type { MerchantRegistry } from '@gateway/merchants';
import { renderOrder } from '@gateway/order-view';
import { Body, Controller, HttpCode, Inject, Post, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AcquirerFactRecorder, type RecordedFact } from '../acquirer-facts/acquirer-fact.recorder';
import { GatewayClock } from '../clock/gateway-clock';
import { idParam } from '../http/path-params';
import { OrderRepository } from '../order/order.repository';
import { MERCHANT_REGISTRY } from '../tokens';
import { OperatorGuard } from './operator.guard';
import { operatorChargeback, operatorDispute } from './operator-facts';

type Json = Record<string, unknown>;

/**
 * Operators raise what the acquirer would say later on a test merchant's order (docs/acquirer.md):
 * POST /operator/acquirer/dispute and /chargeback `{merchantId, orderId, amount?}`. 201 with the
 * dispute or chargeback and the order as GET shows it (masked); 200 when the same one was already
 * recorded; a refusal is the spec's error object and records nothing.
 */
@Controller('operator/acquirer')
@UseGuards(OperatorGuard)
export class AcquirerOperatorHttpController {
  constructor(
    @Inject(MERCHANT_REGISTRY) private readonly merchants: MerchantRegistry,
    private readonly orders: OrderRepository,
    private readonly recorder: AcquirerFactRecorder,
    private readonly clock: GatewayClock,
  ) {}

  @Post('dispute')
  @HttpCode(201)
  async dispute(@Body() sent: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const { fact, order } = await this.raise(sent, reply, operatorDispute);
    const { disputeId, targetTransactionId, amount, currency, now } = fact;
    return {
      result: 'SUCCESS',
      dispute: {
        id: disputeId,
        transactionId: targetTransactionId,
        amount: toDecimal(amount),
        currency,
        time: now,
      },
      order,
    };
  }

  @Post('chargeback')
  @HttpCode(201)
  async chargeback(@Body() sent: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const { fact, order } = await this.raise(sent, reply, operatorChargeback);
    const { transactionId, targetTransactionId, amount, currency, disputeId, now } = fact;
    return {
      result: 'SUCCESS',
      chargeback: {
        transactionId,
        targetTransactionId,
        amount: toDecimal(amount),
        currency,
        ...(disputeId !== undefined ? { disputeId } : {}),
        time: now,
      },
      order,
    };
  }

  /** The fact planned on the order as it stands, recorded: the order as GET then shows it. */
  private async raise<F extends AcquirerFact>(
    sent: unknown,
    reply: FastifyReply,
    plan: (order: Order, amount: Thousandths | undefined, now: string) => F | OrderRejection,
  ): Promise<{ fact: F; order: Json }> {
    const planned = plan(await this.orderOf(sent), amountOf(sent), this.clock.now().toISOString());
    if (planned instanceof OrderRejection) throw refusal(planned);
    return { fact: planned, order: await this.record(planned, reply) };
  }

  /** The test merchant's order the body names, as it stands. */
  private async orderOf(sent: unknown): Promise<Order> {
    if (!isJsonObject(sent)) throw ApiError.invalid('The request body must be a JSON object');
    const merchantId = idParam(stringAt(sent, 'merchantId'), 'merchantId');
    const orderId = idParam(stringAt(sent, 'orderId'), 'orderId');
    const merchant = this.merchants.find(merchantId);
    if (!merchant) throw ApiError.invalid(`Merchant '${merchantId}' is unknown`, 'merchantId');
    if (!merchant.test)
      throw ApiError.invalid(
        `Value '${merchantId}' is invalid. Only a test merchant's orders (ids starting with TEST) take an operator's dispute or chargeback`,
        'merchantId',
      );
    const { state } = await this.orders.load(orderStreamId(merchantId, orderId));
    if (state.kind !== 'Order') throw ApiError.notFound(`Order '${orderId}' was not found`);
    return state;
  }

  /** 201 recorded, 200 already recorded (the same command twice at once), or the refusal. */
  private async record(fact: AcquirerFact, reply: FastifyReply): Promise<Json> {
    const recorded: RecordedFact = await this.recorder.record(fact);
    switch (recorded.kind) {
      case 'no-order':
        throw ApiError.notFound(`Order '${fact.orderId}' was not found`);
      case 'refused':
        throw refusal(recorded.rejection);
      case 'already-recorded':
        void reply.status(200);
        return renderOrder(recorded.state as Order);
      case 'recorded':
        return renderOrder(recorded.state as Order);
    }
  }
}

function stringAt(body: Json, field: string): string {
  const value = body[field];
  if (value === undefined) throw ApiError.invalid(`${field} is missing`, field, 'MISSING');
  if (typeof value !== 'string')
    throw ApiError.invalid(`Value of ${field} must be a string`, field);
  return value;
}

/** `amount` as a decimal string or JSON number, positive, at most 3 decimals; absent: the default. */
function amountOf(body: unknown): Thousandths | undefined {
  const value = (body as Json).amount;
  if (value === undefined) return undefined;
  const text = typeof value === 'number' || typeof value === 'string' ? String(value) : '';
  const amount = parseAmount(text);
  if (amount === undefined || amount <= 0)
    throw ApiError.invalid(
      `Value '${text.slice(0, 30)}' is invalid. The amount must be a positive decimal with at most 3 decimals`,
      'amount',
    );
  return amount;
}

/** The decider's refusal, its field named as the operator's body names it. */
function refusal(rejection: OrderRejection): ApiError {
  const field = /amount/i.test(rejection.field) ? 'amount' : 'orderId';
  return ApiError.invalid(rejection.explanation, field, rejection.validationType);
}
