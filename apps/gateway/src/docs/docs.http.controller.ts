import { buildOpenApiDocument } from '@gateway/contract';
import { buildOrderEventsAsyncApi } from '@gateway/order-view';
import { Controller, Get, Header } from '@nestjs/common';
import { renderDocsPage } from './docs.page';

/**
 * The API description, open to anyone (no guard): the OpenAPI document generated from the
 * contract, the same rendered as a page, and the AsyncAPI document of the order events (Kafka,
 * live feed, webhooks). All are built on first use and kept: they are fixed for the life of the
 * process.
 */
@Controller('api')
export class DocsHttpController {
  private document?: Record<string, unknown>;
  private page?: string;
  private events?: Record<string, unknown>;

  @Get('openapi.json')
  @Header('Cache-Control', 'public, max-age=300')
  openApi(): Record<string, unknown> {
    this.document ??= buildOpenApiDocument();
    return this.document;
  }

  @Get('asyncapi.json')
  @Header('Cache-Control', 'public, max-age=300')
  asyncApi(): Record<string, unknown> {
    this.events ??= buildOrderEventsAsyncApi();
    return this.events;
  }

  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  docs(): string {
    this.page ??= renderDocsPage(this.openApi());
    return this.page;
  }
}
