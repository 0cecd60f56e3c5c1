import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { AuthenticatedMerchant, BasicAuthGuard } from '../auth/basic-auth.guard';
import { parseApiVersion } from '../http/path-params';
import type { Merchant } from '@gateway/merchants';
import { ListOrdersQuery } from './list-orders.query';
import { parseOrderListRequest } from './order-list.request';

/**
 * GET …/merchant/{merchantId}/order?status=&from=&to=&limit=&cursor=: the merchant's orders,
 * newest first. The guard admits only the merchant of the path, and the read model is queried by
 * that merchant's id alone, so no other merchant's row can appear.
 */
@Controller('api/rest/version/:version/merchant/:merchantId/order')
@UseGuards(BasicAuthGuard)
export class OrderListHttpController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  list(
    @Param() params: { version?: string },
    @Query() query: Record<string, unknown>,
    @AuthenticatedMerchant() merchant: Merchant,
  ) {
    parseApiVersion(params.version);
    return this.queries.execute(new ListOrdersQuery(merchant.id, parseOrderListRequest(query)));
  }
}
