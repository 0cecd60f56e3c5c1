import { ApiError } from '@gateway/contract';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import type { GatewayConfig } from '../config/gateway.config';
import { isLoopback } from '@gateway/config';
import { GATEWAY_CONFIG } from '../tokens';

/**
 * The operator API (/operator/…): what operators do by hand, such as raising a dispute on a test
 * merchant's order. With GATEWAY_OPERATOR_TOKEN set, a request needs `Authorization: Bearer
 * <token>`; without it, only clients on this machine (loopback) are let in.
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  private readonly token?: Buffer;

  constructor(@Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'acquirerLater'>) {
    const { operatorToken } = config.acquirerLater;
    if (operatorToken) this.token = Buffer.from(operatorToken);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!this.token) {
      if (isLoopback(request.socket.remoteAddress ?? '')) return true;
      throw ApiError.unauthorized();
    }
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const candidate = Buffer.from(given ?? '');
    if (candidate.length === this.token.length && timingSafeEqual(candidate, this.token))
      return true;
    throw ApiError.unauthorized();
  }
}
