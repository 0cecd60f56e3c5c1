import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { AuthenticatedMerchant, BasicAuthGuard } from '../auth/basic-auth.guard';
import { parseOrderPath } from '../http/path-params';
import type { Merchant } from '../merchant/merchant-registry';
import { RetrieveOrderQuery } from './retrieve-order.query';

/** GET …/order/{orderid}: the order with every transaction. */
@Controller('api/rest/version/:version/merchant/:merchantId/order/:orderId')
@UseGuards(BasicAuthGuard)
export class OrderHttpController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  get(
    @Param() params: { version?: string; orderId?: string },
    @AuthenticatedMerchant() merchant: Merchant,
  ) {
    return this.queries.execute(
      new RetrieveOrderQuery(merchant.id, parseOrderPath(params).orderId),
    );
  }
}
