import { ApiError } from '@gateway/contract';
import {
  createParamDecorator,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Merchant, MerchantRegistry } from '../merchant/merchant-registry';
import { MERCHANT_REGISTRY } from '../tokens';

type AuthenticatedRequest = FastifyRequest & { merchant?: Merchant };

/**
 * HTTP Basic authentication (spec, Authentication): the user is `merchant.<merchantId>` and must
 * name the merchant of the path, so a merchant can never reach another merchant's orders.
 * Every failure answers the same 401, whatever was wrong.
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(@Inject(MERCHANT_REGISTRY) private readonly merchants: MerchantRegistry) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const credentials = parseBasic(request.headers.authorization);
    const pathMerchant = (request.params as Record<string, string | undefined>).merchantId;
    if (!credentials || !pathMerchant || credentials.user !== `merchant.${pathMerchant}`)
      throw ApiError.unauthorized();
    const merchant = await this.merchants.authenticate(pathMerchant, credentials.password);
    if (!merchant) throw ApiError.unauthorized();
    request.merchant = merchant;
    return true;
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
