import { ApiError } from '@gateway/contract';
import {
  createParamDecorator,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import { matchesCertificate } from '../merchant/certificate-match';
import type { Merchant, MerchantRegistry } from '../merchant/merchant-registry';
import { GatewayMetrics } from '../ops/gateway-metrics';
import { MerchantAdmission } from '../protection/merchant-admission';
import { MerchantRateLimiter } from '../protection/merchant-rate-limiter';
import { MERCHANT_REGISTRY } from '../tokens';
import { AuthLockout } from './auth-lockout';

type AuthenticatedRequest = FastifyRequest & { merchant?: Merchant; byCertificate?: boolean };

/**
 * The merchant's authentication (spec, Authentication), for the merchant of the path only, so a
 * merchant can never reach another merchant's orders:
 * 1. certificate: the TLS client certificate is valid for the configured client CA and is the
 *    one the merchant's entry names; no password is needed, and password lockouts do not apply
 *    (someone guessing passwords cannot lock a certificate holder out);
 * 2. otherwise HTTP Basic: the user is `merchant.<merchantId>`, the password the API password.
 * Every failure answers the same 401, whatever was wrong. Repeated failures lock the merchant id
 * and the client address out of Basic for a while (AuthLockout). An authenticated merchant over
 * its request rate limit gets 429. Both say when to retry in Retry-After. Last, the request is
 * counted in flight for its merchant, or refused (MerchantAdmission).
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    @Inject(MERCHANT_REGISTRY) private readonly merchants: MerchantRegistry,
    private readonly lockout: AuthLockout,
    private readonly rateLimiter: MerchantRateLimiter,
    private readonly metrics: GatewayMetrics,
    private readonly admission: MerchantAdmission,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const pathMerchant = (request.params as Record<string, string | undefined>).merchantId ?? '';
    const byCertificate = pathMerchant && this.certificateMerchant(request, pathMerchant);
    const merchant = byCertificate || (await this.byPassword(request, reply, pathMerchant));
    const wait = this.rateLimiter.take(merchant);
    if (wait) {
      this.metrics.refusals.inc({ reason: 'rate_limited' });
      void reply.header('retry-after', String(wait));
      throw ApiError.tooManyRequests(
        `The request rate limit of ${this.rateLimiter.limitOf(merchant)} per second for this merchant is exceeded. Retry after ${wait} second${wait === 1 ? '' : 's'}`,
      );
    }
    this.admission.admit(context, reply, merchant.id);
    request.merchant = merchant;
    request.byCertificate = Boolean(byCertificate);
    return true;
  }

  /** The enabled merchant of the path, when the connection's client certificate is its own. */
  private certificateMerchant(request: FastifyRequest, merchantId: string): Merchant | undefined {
    const socket = request.raw.socket as Partial<TLSSocket>;
    // `authorized`: the chain verified against GATEWAY_TLS_CLIENT_CA (plain HTTP has no such flag).
    if (!socket.encrypted || !socket.authorized) return undefined;
    const merchant = this.merchants.find(merchantId);
    const certificate = socket.getPeerX509Certificate?.();
    if (!merchant?.enabled || !merchant.certificate || !certificate) return undefined;
    return matchesCertificate(merchant.certificate, certificate) ? merchant : undefined;
  }

  /** HTTP Basic, behind the lockout: throws the 401. */
  private async byPassword(
    request: FastifyRequest,
    reply: FastifyReply,
    pathMerchant: string,
  ): Promise<Merchant> {
    const lockedFor = this.lockout.retryAfter(pathMerchant, request.ip);
    if (lockedFor) {
      this.metrics.refusals.inc({ reason: 'locked_out' });
      void reply.header('retry-after', String(lockedFor));
      throw ApiError.unauthorized();
    }
    const credentials = parseBasic(request.headers.authorization);
    const merchant =
      credentials && pathMerchant && credentials.user === `merchant.${pathMerchant}`
        ? await this.merchants.authenticate(pathMerchant, credentials.password)
        : undefined;
    if (!merchant) {
      this.lockout.failed(pathMerchant, request.ip);
      throw ApiError.unauthorized();
    }
    this.lockout.succeeded(pathMerchant, request.ip);
    return merchant;
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

/** True when the request was authenticated by the merchant's client certificate. */
export const CertificateAuthenticated = createParamDecorator(
  (_: unknown, context: ExecutionContext): boolean =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().byCertificate === true,
);
