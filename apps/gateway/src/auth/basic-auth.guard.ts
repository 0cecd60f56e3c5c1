import { ApiError } from '@gateway/contract';
import {
  createParamDecorator,
  Inject,
  Injectable,
  SetMetadata,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import {
  AuthLockout,
  matchesCertificate,
  merchantIdProblem,
  type Merchant,
  type MerchantRegistry,
} from '@gateway/merchants';
import { GatewayMetrics } from '../ops/gateway-metrics';
import { MerchantAdmission } from '../protection/merchant-admission';
import { MerchantRateLimiter } from '../protection/merchant-rate-limiter';
import { PaymentSessions } from '../session/payment-sessions';
import { MERCHANT_REGISTRY } from '../tokens';
import { offeredSessionId, passwordIn } from './session-credentials';

const SESSION_ID_AS_PASSWORD = 'gateway:sessionIdAsPassword';

/**
 * Marks the one route where the path's session id is a password (Update Session, `PUT
 * …/session/{sessionId}`): the mobile SDKs send it from the payer's device, which never holds the
 * API password. No other route, and no other method, takes a session id.
 */
export const SessionIdAsPassword = () => SetMetadata(SESSION_ID_AS_PASSWORD, true);

type AuthenticatedRequest = FastifyRequest & { merchant?: Merchant; byCertificate?: boolean };

/**
 * The merchant's authentication (spec, Authentication), for the merchant of the path only, so a
 * merchant can never reach another merchant's orders:
 * 1. certificate: the TLS client certificate is valid for the configured client CA and is the
 *    one the merchant's entry names; no password is needed, and password lockouts do not apply
 *    (someone guessing passwords cannot lock a certificate holder out);
 * 2. on Update Session only (API version 50 and above), the session: the path's session id as the
 *    password, for that request on that live session (session-credentials.ts);
 * 3. otherwise HTTP Basic: the user is `merchant.<merchantId>`, the password the API password.
 * Every failure answers the same 401 (with the Basic challenge), whatever was wrong. Refused
 * passwords lock the merchant id and the client address out of Basic for a while (AuthLockout);
 * refused session ids lock the address out of session authentication only.
 * An authenticated merchant over its request rate limit gets 429. Both say when to retry in
 * Retry-After. Last, the request is counted in flight for its merchant, or refused
 * (MerchantAdmission).
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    @Inject(MERCHANT_REGISTRY) private readonly merchants: MerchantRegistry,
    private readonly lockout: AuthLockout,
    private readonly rateLimiter: MerchantRateLimiter,
    private readonly metrics: GatewayMetrics,
    private readonly admission: MerchantAdmission,
    private readonly sessions: PaymentSessions,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const pathMerchant = (request.params as Record<string, string | undefined>).merchantId ?? '';
    const byCertificate = pathMerchant && this.certificateMerchant(request, pathMerchant);
    const sessionId = byCertificate
      ? undefined
      : this.sessionOffered(context, request, pathMerchant);
    const merchant =
      byCertificate ||
      (sessionId !== undefined &&
        (await this.bySession(request, reply, pathMerchant, sessionId))) ||
      (await this.byPassword(request, reply, pathMerchant));
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

  /**
   * The session id offered as credentials on the route marked for them, if any: checked apart,
   * so that other requests do not wait for the session store (an await costs ~0.14 µs).
   */
  private sessionOffered(
    context: ExecutionContext,
    request: FastifyRequest,
    pathMerchant: string,
  ): string | undefined {
    if (request.method !== 'PUT') return undefined;
    if (!this.reflector.get<boolean>(SESSION_ID_AS_PASSWORD, context.getHandler()))
      return undefined;
    if (merchantIdProblem(pathMerchant)) return undefined;
    return offeredSessionId(request, pathMerchant);
  }

  /**
   * Session credentials: the merchant when its session of the path is live (not expired), else a
   * 401 counted against the client address's session-id count. The API password is never checked
   * here, so a session id cannot probe it, and its lockout neither counts these nor stops them.
   */
  private async bySession(
    request: FastifyRequest,
    reply: FastifyReply,
    pathMerchant: string,
    sessionId: string,
  ): Promise<Merchant> {
    const lockedFor = this.lockout.sessionRetryAfter(request.ip);
    if (lockedFor) throw this.lockedOut(reply, lockedFor);
    const merchant = this.merchants.find(pathMerchant);
    if (merchant?.enabled && (await this.sessions.isLive(pathMerchant, sessionId))) return merchant;
    this.lockout.sessionRefused(request.ip);
    throw ApiError.unauthorized();
  }

  /**
   * HTTP Basic, behind the lockout: throws the 401. Credentials that cannot be this merchant's
   * (none, another scheme, another user) are no guess at its password: refused without a check,
   * and not counted.
   */
  private async byPassword(
    request: FastifyRequest,
    reply: FastifyReply,
    pathMerchant: string,
  ): Promise<Merchant> {
    const password = passwordFor(request.headers.authorization, pathMerchant);
    if (password === undefined) throw ApiError.unauthorized();
    const lockedFor = this.lockout.retryAfter(pathMerchant, request.ip);
    if (lockedFor) throw this.lockedOut(reply, lockedFor);
    const merchant = await this.checkPassword(pathMerchant, request.ip, password, reply);
    if (!merchant) throw ApiError.unauthorized();
    return merchant;
  }

  /**
   * The remembered password at once; any other waits for a check, which the lockout admits only
   * while failures could not yet lock. Credentials identical to some being checked join that
   * check, uncounted: they are no new guess, and a merchant's burst of requests after a start or
   * a reload of the merchants file must not be refused as one.
   */
  private async checkPassword(
    merchantId: string,
    address: string,
    password: string,
    reply: FastifyReply,
  ): Promise<Merchant | undefined> {
    const mayCheck = this.lockout.mayCheck(merchantId, address);
    const remembered = mayCheck ? this.merchants.remembered(merchantId, password) : undefined;
    if (remembered) return remembered;
    // Joined before a check of its own: a burst of one merchant's requests is one check, so it
    // cannot spend its address's budget and lock out another merchant behind the same address.
    if (this.merchants.isChecking(merchantId, password))
      return this.merchants.authenticate(merchantId, password);
    if (mayCheck) return this.verify(merchantId, address, password);
    throw this.lockedOut(reply, 1);
  }

  /** A full check (scrypt), counted by the lockout while it runs and when it refuses. */
  private async verify(merchantId: string, address: string, password: string) {
    this.lockout.checking(merchantId, address);
    let refused = false;
    try {
      const merchant = await this.merchants.authenticate(merchantId, password);
      refused = !merchant;
      return merchant;
    } finally {
      this.lockout.checked(merchantId, address, refused);
    }
  }

  private lockedOut(reply: FastifyReply, seconds: number): ApiError {
    this.metrics.refusals.inc({ reason: 'locked_out' });
    void reply.header('retry-after', String(seconds));
    return ApiError.unauthorized();
  }
}

/** The password of Basic credentials naming the user `merchant.<merchantId>`, a valid id. */
function passwordFor(header: string | undefined, merchantId: string): string | undefined {
  if (!header || !/^basic /i.test(header) || merchantIdProblem(merchantId)) return undefined;
  return passwordIn(header.slice(6), merchantId);
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
