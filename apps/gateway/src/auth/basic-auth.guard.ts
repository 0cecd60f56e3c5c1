import { ApiError } from '@gateway/contract';
import {
  createParamDecorator,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { TLSSocket } from 'node:tls';
import { matchesCertificate } from '../merchant/certificate-match';
import type { Merchant, MerchantRegistry } from '../merchant/merchant-registry';
import { MERCHANT_REGISTRY } from '../tokens';

type AuthenticatedRequest = FastifyRequest & { merchant?: Merchant; byCertificate?: boolean };

/**
 * The merchant's authentication (spec, Authentication), for the merchant of the path only, so a
 * merchant can never reach another merchant's orders:
 * 1. certificate: the TLS client certificate is valid for the configured client CA and is the
 *    one the merchant's entry names; no password is needed;
 * 2. otherwise HTTP Basic: the user is `merchant.<merchantId>`, the password the API password.
 * Every failure answers the same 401, whatever was wrong.
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(@Inject(MERCHANT_REGISTRY) private readonly merchants: MerchantRegistry) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const credentials = parseBasic(request.headers.authorization);
    const pathMerchant = (request.params as Record<string, string | undefined>).merchantId;
    const byCertificate = pathMerchant && this.certificateMerchant(request, pathMerchant);
    if (byCertificate) {
      request.merchant = byCertificate;
      request.byCertificate = true;
      return true;
    }
    if (!credentials || !pathMerchant || credentials.user !== `merchant.${pathMerchant}`)
      throw ApiError.unauthorized();
    const merchant = await this.merchants.authenticate(pathMerchant, credentials.password);
    if (!merchant) throw ApiError.unauthorized();
    request.merchant = merchant;
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
