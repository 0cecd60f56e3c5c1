import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  AuthenticatedMerchant,
  BasicAuthGuard,
  CertificateAuthenticated,
} from '../auth/basic-auth.guard';
import { parseOrderPath } from '../http/path-params';
import type { Merchant } from '@gateway/merchants';
import { SensitiveData } from '../transaction/sensitive-data';
import { RetrieveOrderQuery } from './retrieve-order.query';

/** GET …/order/{orderid}: the order with every transaction. */
@Controller('api/rest/version/:version/merchant/:merchantId/order/:orderId')
@UseGuards(BasicAuthGuard)
export class OrderHttpController {
  constructor(
    private readonly queries: QueryBus,
    private readonly sensitive: SensitiveData,
  ) {}

  @Get()
  get(
    @Param() params: { version?: string; orderId?: string },
    @AuthenticatedMerchant() merchant: Merchant,
    @CertificateAuthenticated() byCertificate: boolean,
  ) {
    const { orderId } = parseOrderPath(params);
    const view = this.sensitive.viewFor(merchant, orderId, { byCertificate });
    return this.queries.execute(new RetrieveOrderQuery(merchant.id, orderId, view));
  }
}
