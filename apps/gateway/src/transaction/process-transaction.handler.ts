import type { ApiOperation } from '@gateway/contract';
import { ApiError } from '@gateway/contract';
import { findTransaction, orderStreamId, type Order, type OrderState } from '@gateway/domain';
import { lockFailure, renderTransaction } from '@gateway/order-view';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Agreements, type AdmitBody } from '../agreements/agreements';
import { QuoteUptake } from '../currency-conversion/quote-uptake';
import { OperationPipeline } from '../operations/pipeline';
import { OPERATIONS } from '../operations/registry';
import { OrderSizeLimit } from '../order/order-size-limit';
import { PaymentSessions } from '../session/payment-sessions';
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
    private readonly agreements: Agreements,
    private readonly quotes: QuoteUptake,
    private readonly sessions: PaymentSessions,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(command: ProcessTransactionCommand): Promise<ProcessedTransaction> {
    const now = this.clock();
    const { merchant, orderId, transactionId, apiOperation, body } = command;
    const request = { merchantId: merchant.id, orderId, transactionId, apiOperation, body };
    return this.agreements.run(request, now, (admit) => this.process(command, now, admit));
  }

  private process(
    command: ProcessTransactionCommand,
    now: Date,
    admit: AdmitBody,
  ): Promise<ProcessedTransaction> {
    const { merchant, orderId, transactionId, apiVersion, requestHash } = command;
    const slice = OPERATIONS[command.apiOperation as ApiOperation];
    const correlationId = get(command.body, 'correlationId') as string | undefined;
    const replay = (state: OrderState) => replayOf(state, command, correlationId);
    // The currency-conversion quote the request takes up: judged after the replay (a retry is
    // answered even once it has expired). It and the payment session the request cites are bound
    // to the order only once the order allows the request, before the acquirer is asked, so a
    // refused request leaves both free.
    let quote: string | undefined;
    const claim = async () => {
      if (command.sessionId)
        await this.sessions.bindToOrder(merchant.id, command.sessionId, orderId);
      if (quote) await this.quotes.bind(merchant.id, quote, orderId, now);
    };
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
        const sent = admit(command.body);
        const parsed = slice.parse(sent, ctx);
        const uptake = this.quotes.judge(merchant.id, sent, now);
        quote = uptake.requestId;
        // A quote taken up adds its terms, to be recorded with the transaction.
        return uptake.body === sent ? parsed : slice.parse(uptake.body, ctx);
      },
      ask: (parsed, ctx) =>
        quote || command.sessionId
          ? claim().then(() => slice.ask(parsed, ctx))
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
