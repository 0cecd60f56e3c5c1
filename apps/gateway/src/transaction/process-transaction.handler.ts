import type { Acquirer, AcquirerRequest } from '@gateway/acquirer';
import { ApiError } from '@gateway/contract';
import {
  decide,
  findTransaction,
  orderStreamId,
  rejectionOf,
  type Order,
  type OrderRequest,
  type OrderState,
} from '@gateway/domain';
import { WrongExpectedRevisionError } from '@gateway/event-store';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ACQUIRER, CLOCK, type Clock } from '../tokens';
import { KeyedMutex } from '../order/keyed-mutex';
import { OrderRepository } from '../order/order.repository';
import { get, toOrderRequest, type Instrument } from './operation-request.mapper';
import {
  ProcessTransactionCommand,
  type ProcessedTransaction,
} from './process-transaction.command';
import { toProcessorOutcome, withCardFacts } from './processor-outcome';
import { lockFailure, renderTransaction } from './transaction.response';

/** How often a request is re-decided when another writer got to the order's stream first. */
const CONFLICT_RETRIES = 3;

/**
 * The write path of every operation: load the order, refuse what its state does not allow, ask the
 * acquirer, decide, append durably, answer. Requests on one order run one at a time (KeyedMutex).
 */
@CommandHandler(ProcessTransactionCommand)
export class ProcessTransactionHandler implements ICommandHandler<ProcessTransactionCommand> {
  private readonly locks = new KeyedMutex();

  constructor(
    private readonly orders: OrderRepository,
    @Inject(ACQUIRER) private readonly acquirer: Acquirer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(command: ProcessTransactionCommand): Promise<ProcessedTransaction> {
    const streamId = orderStreamId(command.merchant.id, command.orderId);
    return this.locks.run(streamId, () => this.process(command, streamId));
  }

  private async process(
    command: ProcessTransactionCommand,
    streamId: string,
  ): Promise<ProcessedTransaction> {
    const correlationId = get(command.body, 'correlationId') as string | undefined;
    let loaded = await this.orders.load(streamId);
    const replayed = replay(loaded.state, command, correlationId);
    if (replayed) return replayed;

    const now = this.clock();
    const { request, instrument } = toOrderRequest(command.apiOperation, command.body, {
      merchantId: command.merchant.id,
      orderId: command.orderId,
      transactionId: command.transactionId,
      apiVersion: command.apiVersion,
      now: now.toISOString(),
      requestHash: command.requestHash,
    });
    refuseIfNotAllowed(request, loaded.state);

    const answer = await this.acquirer.process(
      acquirerRequest(request, instrument, command.body, loaded.state, now),
    );
    const decided = {
      ...request,
      ...('sourceOfFunds' in request && request.sourceOfFunds
        ? { sourceOfFunds: withCardFacts(request.sourceOfFunds, answer) }
        : {}),
      outcome: toProcessorOutcome(answer),
    };
    const metadata = {
      merchantId: command.merchant.id,
      apiOperation: command.apiOperation,
      apiVersion: command.apiVersion,
      causedBy: `merchant.${command.merchant.id}`,
      time: request.now,
      ...(correlationId !== undefined ? { correlationId } : {}),
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const saved = await this.orders.append(
          streamId,
          loaded,
          decide(decided, loaded.state),
          metadata,
        );
        return {
          body: renderTransaction(
            saved.state as Order,
            findTransaction(saved.state, request.transactionId)!,
            correlationId,
          ),
        };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt === CONFLICT_RETRIES) return { body: lockFailure(command, correlationId) };
        loaded = await this.orders.load(streamId);
        refuseIfNotAllowed(request, loaded.state);
      }
    }
  }
}

/** The same request again (same ids, same body) gets the original response; nothing moves twice. */
function replay(
  state: OrderState,
  command: ProcessTransactionCommand,
  correlationId?: string,
): ProcessedTransaction | undefined {
  const existing = findTransaction(state, command.transactionId);
  if (!existing || existing.requestHash !== command.requestHash) return undefined;
  return { body: renderTransaction(state as Order, existing, correlationId) };
}

function refuseIfNotAllowed(request: OrderRequest, state: OrderState): void {
  const rejection = rejectionOf(request, state);
  if (rejection)
    throw ApiError.invalid(rejection.explanation, rejection.field, rejection.validationType);
}

function acquirerRequest(
  request: OrderRequest,
  instrument: Instrument | undefined,
  body: Record<string, unknown>,
  state: OrderState,
  now: Date,
): AcquirerRequest {
  const base = {
    merchantId: request.merchantId,
    orderId: request.orderId,
    transactionId: request.transactionId,
    now,
  };
  switch (request.type) {
    case 'Authorize':
    case 'Pay':
    case 'Verify': {
      const operation =
        request.type === 'Authorize' ? 'AUTHORIZE' : request.type === 'Pay' ? 'PAY' : 'VERIFY';
      const funds = {
        ...base,
        operation,
        amount: request.amount,
        currency: request.currency,
        customerEmail: get(body, 'customer.email') as string | undefined,
      } as const;
      const acceptPartialAmount = get(body, 'order.acceptPartialAmount') === true;
      if (instrument?.kind !== 'card') {
        const { sourceType, giftCardNumber } = instrument!;
        return {
          ...funds,
          sourceType,
          acceptPartialAmount,
          ...(giftCardNumber ? { giftCardNumber } : {}),
        };
      }
      const billingStreet = get(body, 'billing.address.street') as string | undefined;
      return { ...funds, card: instrument.card, billingStreet, acceptPartialAmount };
    }
    case 'Capture':
    case 'Refund':
      return {
        ...base,
        operation: request.type === 'Capture' ? 'CAPTURE' : 'REFUND',
        amount: request.amount,
        currency: request.currency,
      };
    case 'Void': {
      const target = findTransaction(state, request.targetTransactionId)!;
      return { ...base, operation: 'VOID', amount: target.amount, currency: target.currency };
    }
  }
}
