import type { ApiOperation } from '@gateway/contract';
import { ApiError } from '@gateway/contract';
import { findTransaction, orderStreamId, type Order, type OrderState } from '@gateway/domain';
import { lockFailure, renderTransaction } from '@gateway/order-view';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { QuoteUptake } from '../currency-conversion/quote-uptake';
import { OperationPipeline } from '../operations/pipeline';
import { OPERATIONS } from '../operations/registry';
import { OrderSizeLimit } from '../order/order-size-limit';
import { CLOCK, type Clock } from '../tokens';
import { get } from './body-fields';
import {
  ProcessTransactionCommand,
  type ProcessedTransaction,
} from './process-transaction.command';
import { SensitiveData } from './sensitive-data';

/**
 * A merchant's operation: its slice (OPERATIONS[apiOperation]) through the one pipeline. A retry
 * gets the original response; a refusal is the spec's INVALID_REQUEST.
 */
@CommandHandler(ProcessTransactionCommand)
export class ProcessTransactionHandler implements ICommandHandler<ProcessTransactionCommand> {
  constructor(
    private readonly pipeline: OperationPipeline,
    private readonly sensitive: SensitiveData,
    private readonly sizeLimit: OrderSizeLimit,
    private readonly quotes: QuoteUptake,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(command: ProcessTransactionCommand): Promise<ProcessedTransaction> {
    const { merchant, orderId, transactionId, apiVersion, requestHash } = command;
    const slice = OPERATIONS[command.apiOperation as ApiOperation];
    const correlationId = get(command.body, 'correlationId') as string | undefined;
    const now = this.clock();
    const replay = (state: OrderState) => replayOf(state, command, correlationId);
    // The currency-conversion quote the request takes up: judged after the replay (a retry is
    // answered even once it has expired), bound to the order only once the order allows the
    // request, before the acquirer is asked.
    let quote: string | undefined;
    return this.pipeline.run({
      streamId: orderStreamId(merchant.id, orderId),
      now,
      metadata: {
        merchantId: merchant.id,
        apiOperation: command.apiOperation,
        apiVersion,
        causedBy: `merchant.${merchant.id}`,
        time: now.toISOString(),
        ...(correlationId !== undefined ? { correlationId } : {}),
      },
      replay,
      parse: (state) => {
        this.sizeLimit.refuseIfFull(state, orderId, transactionId);
        if (!slice) throw unsupported(command.apiOperation);
        const ctx = {
          merchantId: merchant.id,
          orderId,
          transactionId,
          apiVersion,
          now: now.toISOString(),
          requestHash,
          protect: this.sensitive.protectionFor(merchant, orderId),
        };
        // The request's own faults first (a deleted token is INVALID on sourceOfFunds.token).
        const parsed = slice.parse(command.body, ctx);
        const uptake = this.quotes.judge(merchant.id, command.body, now);
        quote = uptake.requestId;
        // A quote taken up adds its terms, to be recorded with the transaction.
        return uptake.body === command.body ? parsed : slice.parse(uptake.body, ctx);
      },
      ask: (parsed, ctx) =>
        quote
          ? this.quotes.bind(merchant.id, quote, orderId, now).then(() => slice.ask(parsed, ctx))
          : slice.ask(parsed, ctx),
      refused: (rejection) => {
        throw ApiError.invalid(rejection.explanation, rejection.field, rejection.validationType);
      },
      lockLost: () => ({ body: lockFailure(command, correlationId), recorded: false }),
      // The transaction as now recorded by this very request.
      render: (state) => ({ ...replay(state)!, recorded: true }),
    });
  }
}

function unsupported(operation: string): ApiError {
  return ApiError.invalid(
    `Value '${operation}' is invalid. This gateway does not support it yet`,
    'apiOperation',
  );
}

/**
 * The same request again (same ids, same body) gets the original response; nothing moves twice.
 * A transaction of several steps (3-D Secure, browser payments) answers each step's retry with
 * that step's own response.
 */
function replayOf(
  state: OrderState,
  command: ProcessTransactionCommand,
  correlationId?: string,
): ProcessedTransaction | undefined {
  const existing = findTransaction(state, command.transactionId);
  if (!existing) return undefined;
  const version = [...(existing.earlier ?? []), existing].find(
    (v) => v.requestHash === command.requestHash,
  );
  if (!version) return undefined;
  const body = renderTransaction(state as Order, version, correlationId, command.view);
  return { body, recorded: false };
}
