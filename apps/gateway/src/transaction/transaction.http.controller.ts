import { ApiError, findEmbeddedCardNumber, validateBody } from '@gateway/contract';
import { Body, Controller, Get, HttpCode, Param, Put, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { AuthenticatedMerchant, BasicAuthGuard } from '../auth/basic-auth.guard';
import { idParam, parseOrderPath } from '../http/path-params';
import type { Merchant } from '../merchant/merchant-registry';
import { RetrieveOrderQuery } from '../order/retrieve-order.query';
import { get } from './operation-request.mapper';
import { ProcessTransactionCommand } from './process-transaction.command';
import { RequestFingerprint } from './request-fingerprint';

type PathParams = { version?: string; orderId?: string; transactionId?: string };

/** PUT …/transaction/{id} runs an operation; GET retrieves one transaction. */
@Controller(
  'api/rest/version/:version/merchant/:merchantId/order/:orderId/transaction/:transactionId',
)
@UseGuards(BasicAuthGuard)
export class TransactionHttpController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly fingerprint: RequestFingerprint,
  ) {}

  @Put()
  @HttpCode(201)
  async put(
    @Param() params: PathParams,
    @Body() body: unknown,
    @AuthenticatedMerchant() merchant: Merchant,
  ) {
    const { apiVersion, orderId } = parseOrderPath(params);
    const transactionId = idParam(params.transactionId, 'transaction.id');
    const validated = validateBody(apiVersion, body);
    if (!validated.ok) throw ApiError.fromFieldError(validated.error);
    const cardData = findEmbeddedCardNumber(validated.value);
    if (cardData) throw ApiError.fromFieldError(cardData);
    if (!merchant.test) throw ApiError.rejected('NO_ACQUIRER_LINK');
    // Spec: unmasked bank data needs certificate authentication, which this gateway does not offer yet.
    if (get(validated.value, 'responseControls.sensitiveData') === 'UNMASK')
      throw ApiError.rejected('UNMASK_NOT_PERMITTED');
    const { value } = validated;
    const command = new ProcessTransactionCommand(
      merchant,
      value.apiOperation as string,
      apiVersion,
      orderId,
      transactionId,
      value,
      this.fingerprint.of(apiVersion, body),
    );
    return (await this.commands.execute(command)).body;
  }

  @Get()
  get(@Param() params: PathParams, @AuthenticatedMerchant() merchant: Merchant) {
    const { orderId } = parseOrderPath(params);
    return this.queries.execute(
      new RetrieveOrderQuery(merchant.id, orderId, idParam(params.transactionId, 'transaction.id')),
    );
  }
}
