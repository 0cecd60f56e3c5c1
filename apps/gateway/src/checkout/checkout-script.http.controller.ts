import { Controller, Get, Headers, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CHECKOUT_ASSET } from './checkout-script';

/**
 * /static/checkout/checkout.min.js, open to anyone. Cached for an hour and revalidated by ETag
 * (a new gateway version changes it); CORS-readable, as a script tag with `integrity` needs.
 */
@Controller('static/checkout')
export class CheckoutScriptHttpController {
  @Get('checkout.min.js')
  script(@Headers('if-none-match') ifNoneMatch: string | undefined, @Res() reply: FastifyReply) {
    void reply
      .header('cache-control', 'public, max-age=3600')
      .header('etag', CHECKOUT_ASSET.etag)
      .header('access-control-allow-origin', '*')
      .header('x-content-type-options', 'nosniff');
    if (ifNoneMatch === CHECKOUT_ASSET.etag) return reply.status(304).send();
    return reply
      .status(200)
      .header('content-type', 'text/javascript; charset=utf-8')
      .send(CHECKOUT_ASSET.bytes);
  }
}
