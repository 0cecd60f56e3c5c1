import { findTransaction, orderStreamId, type Order, type OrderState } from '@gateway/domain';
import { lockFailure, renderTransaction } from '@gateway/order-view';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { KeyedMutex } from '../order/keyed-mutex';
import { OrderSizeLimit } from '../order/order-size-limit';
import { OrderRepository } from '../order/order.repository';
import { CLOCK, type Clock } from '../tokens';
import { OperationAnswers } from './operation-answers';
import { get } from './body-fields';
import { toOrderRequest } from './operation-request.mapper';
import { appendDecided, refuseIfNotAllowed } from './order-writer';
import {
  ProcessTransactionCommand,
  type ProcessedTransaction,
} from './process-transaction.command';
import { SensitiveData } from './sensitive-data';

/**
 * The write path of every operation: load the order, refuse what its state does not allow, ask
 * whoever answers (acquirer, authentication server, provider), decide, append durably, answer.
 * Requests on one order, the payer's steps included, run one at a time (the shared KeyedMutex).
 */
@CommandHandler(ProcessTransactionCommand)
export class ProcessTransactionHandler implements ICommandHandler<ProcessTransactionCommand> {
  constructor(
    private readonly orders: OrderRepository,
    private readonly answers: OperationAnswers,
    private readonly locks: KeyedMutex,
    private readonly sensitive: SensitiveData,
    private readonly sizeLimit: OrderSizeLimit,
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
    const loaded = await this.orders.loadToWrite(streamId);
    const replayed = replay(loaded.state, command, correlationId);
    if (replayed) return replayed;
    this.sizeLimit.refuseIfFull(loaded.state, command.orderId, command.transactionId);

    const now = this.clock();
    const { request, instrument } = toOrderRequest(command.apiOperation, command.body, {
      merchantId: command.merchant.id,
      orderId: command.orderId,
      transactionId: command.transactionId,
      apiVersion: command.apiVersion,
      now: now.toISOString(),
      requestHash: command.requestHash,
      protect: this.sensitive.protectionFor(command.merchant, command.orderId),
    });
    refuseIfNotAllowed(request, loaded.state);
    const answered = await this.answers.answer(
      request,
      instrument,
      command.body,
      loaded.state,
      now,
    );
    const metadata = {
      merchantId: command.merchant.id,
      apiOperation: command.apiOperation,
      apiVersion: command.apiVersion,
      causedBy: `merchant.${command.merchant.id}`,
      time: request.now,
      ...(correlationId !== undefined ? { correlationId } : {}),
    };
    const recorded = (state: OrderState) => replay(state, command) !== undefined;
    const saved = await appendDecided(this.orders, streamId, loaded, answered, metadata, recorded);
    if (!saved) return { body: lockFailure(command, correlationId) };
    // The transaction as now recorded: this request's, or the identical one that won the race.
    return replay(saved.state, command, correlationId)!;
  }
}

/**
 * The same request again (same ids, same body) gets the original response; nothing moves twice.
 * A transaction of several steps (3-D Secure, browser payments) answers each step's retry with
 * that step's own response.
 */
function replay(
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
  return { body: renderTransaction(state as Order, version, correlationId, command.view) };
}
