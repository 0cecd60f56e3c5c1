import { Injectable, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { GatewayMetrics } from '../ops/gateway-metrics';
import { refusalErrors, RETRY_AFTER_SECONDS } from './refusals';
import { RequestAdmission } from './request-admission';

const LONG_LIVED = 'gateway:long-lived';

/**
 * Marks a handler whose response stays open (the live feed): it counts among the merchant's open
 * feeds, never among requests in progress.
 */
export const LongLived = () => SetMetadata(LONG_LIVED, true);

/** The merchant guard's last step: the authenticated request is counted, or refused. */
@Injectable()
export class MerchantAdmission {
  private readonly errors: ReturnType<typeof refusalErrors>;

  constructor(
    private readonly reflector: Reflector,
    private readonly admission: RequestAdmission,
    private readonly metrics: GatewayMetrics,
  ) {
    this.errors = refusalErrors(admission.limits);
  }

  /** Throws the refusal (429 or 503, with Retry-After). */
  admit(context: ExecutionContext, reply: FastifyReply, merchantId: string): void {
    const refusal = this.reflector.get<boolean | undefined>(LONG_LIVED, context.getHandler())
      ? this.admission.admitFeed(merchantId, reply.raw)
      : this.admission.admitMerchant(merchantId, reply.raw);
    if (!refusal) return;
    this.metrics.refusals.inc({ reason: refusal });
    void reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    throw this.errors[refusal];
  }
}
