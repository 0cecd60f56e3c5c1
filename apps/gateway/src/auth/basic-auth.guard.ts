import { ApiError } from '@gateway/contract';
import {
  createParamDecorator,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Merchant, MerchantRegistry } from '../merchant/merchant-registry';
import { GatewayMetrics } from '../ops/gateway-metrics';
import { MerchantRateLimiter } from '../protection/merchant-rate-limiter';
import { MERCHANT_REGISTRY } from '../tokens';
import { AuthLockout } from './auth-lockout';

type AuthenticatedRequest = FastifyRequest & { merchant?: Merchant };

/**
 * HTTP Basic authentication (spec, Authentication): the user is `merchant.<merchantId>` and must
 * name the merchant of the path, so a merchant can never reach another merchant's orders.
 * Every failure answers the same 401, whatever was wrong. Repeated failures lock the merchant id
 * and the client address out for a while (AuthLockout); an authenticated merchant over its
 * request rate limit gets 429. Both say when to retry in Retry-After.
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    @Inject(MERCHANT_REGISTRY) private readonly merchants: MerchantRegistry,
    private readonly lockout: AuthLockout,
    private readonly rateLimiter: MerchantRateLimiter,
    private readonly metrics: GatewayMetrics,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const pathMerchant = (request.params as Record<string, string | undefined>).merchantId ?? '';
    const lockedFor = this.lockout.retryAfter(pathMerchant, request.ip);
    if (lockedFor) {
      this.metrics.refusals.inc({ reason: 'locked_out' });
      void reply.header('retry-after', String(lockedFor));
      throw ApiError.unauthorized();
    }
    const merchant = await this.authenticate(request, pathMerchant);
    if (!merchant) {
      this.lockout.failed(pathMerchant, request.ip);
      throw ApiError.unauthorized();
    }
    this.lockout.succeeded(pathMerchant, request.ip);
    const wait = this.rateLimiter.take(merchant);
    if (wait) {
      this.metrics.refusals.inc({ reason: 'rate_limited' });
      void reply.header('retry-after', String(wait));
      throw ApiError.tooManyRequests(
        `The request rate limit of ${this.rateLimiter.limitOf(merchant)} per second for this merchant is exceeded. Retry after ${wait} second${wait === 1 ? '' : 's'}`,
      );
    }
    request.merchant = merchant;
    return true;
  }

  private authenticate(
    request: AuthenticatedRequest,
    pathMerchant: string,
  ): Promise<Merchant | undefined> {
    const credentials = parseBasic(request.headers.authorization);
    if (!credentials || !pathMerchant || credentials.user !== `merchant.${pathMerchant}`)
      return Promise.resolve(undefined);
    return this.merchants.authenticate(pathMerchant, credentials.password);
  }
}

function parseBasic(header: string | undefined): { user: string; password: string } | undefined {
  if (!header || !header.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0
    ? undefined
    : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The merchant the guard authenticated. */
export const AuthenticatedMerchant = createParamDecorator(
  (_: unknown, context: ExecutionContext): Merchant =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().merchant!,
);
