import { buildOpenApiDocument } from '@gateway/contract';
import { Controller, Get, Header } from '@nestjs/common';
import { renderDocsPage } from './docs.page';

/**
 * The API description, open to anyone (no guard): the OpenAPI document generated from the
 * contract, and the same rendered as a page. Both are built on first use and kept: the contract
 * is fixed for the life of the process.
 */
@Controller('api')
export class DocsHttpController {
  private document?: Record<string, unknown>;
  private page?: string;

  @Get('openapi.json')
  @Header('Cache-Control', 'public, max-age=300')
  openApi(): Record<string, unknown> {
    this.document ??= buildOpenApiDocument();
    return this.document;
  }

  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=300')
  docs(): string {
    this.page ??= renderDocsPage(this.openApi());
    return this.page;
  }
}
