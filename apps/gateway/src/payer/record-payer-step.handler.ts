import type { AuthenticationServer } from '@gateway/acquirer';
import { ApiError } from '@gateway/contract';
import {
  findTransaction,
  orderStreamId,
  rejectionOf,
  type DeciderCommand,
  type Order,
  type OrderRequest,
  type PayerStepBase,
  type TransactionState,
} from '@gateway/domain';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { KeyedMutex } from '../order/keyed-mutex';
import { OrderRepository } from '../order/order.repository';
import { PaymentSessions } from '../session/payment-sessions';
import { AUTHENTICATION_SERVER, CLOCK, type Clock } from '../tokens';
import { encryptForMerchant } from '../transaction/encrypted-data';
import { appendDecided } from '../transaction/order-writer';
import { providerAnswer } from './provider-answer';
import {
  RecordPayerStepCommand,
  type PayerStep,
  type PayerStepOutcome,
} from './record-payer-step.command';

const OPERATION: Readonly<Record<PayerStep['kind'], string>> = {
  challenge: 'PAYER_CHALLENGE_RESULT',
  redirect: 'PAYER_REDIRECTED_TO_PROVIDER',
  return: 'PAYER_RETURNED_FROM_PROVIDER',
};

/**
 * The payer's steps take the same path as the merchant's operations: under the order's lock,
 * checked by the decider, appended with optimistic concurrency. A step the order's state does not
 * allow (a challenge answered twice, a provider page reused) is not recorded; the page says so.
 */
@CommandHandler(RecordPayerStepCommand)
export class RecordPayerStepHandler implements ICommandHandler<RecordPayerStepCommand> {
  constructor(
    private readonly orders: OrderRepository,
    private readonly locks: KeyedMutex,
    private readonly sessions: PaymentSessions,
    @Inject(AUTHENTICATION_SERVER) private readonly authentication: AuthenticationServer,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute({ target, step }: RecordPayerStepCommand): Promise<PayerStepOutcome> {
    const streamId = orderStreamId(target.merchantId, target.orderId);
    return this.locks.run(streamId, async () => {
      const loaded = await this.orders.load(streamId);
      const now = this.clock();
      const ids = {
        merchantId: target.merchantId,
        orderId: target.orderId,
        transactionId: target.transactionId,
        now: now.toISOString(),
      };
      const { request, answer } = this.prepare(step, ids, now);
      const rejection = rejectionOf(request, loaded.state);
      if (rejection) return { recorded: false, reason: rejection.explanation };
      const command = answer(findTransaction(loaded.state, target.transactionId)!);
      let saved;
      try {
        saved = await appendDecided(this.orders, streamId, loaded, command, {
          merchantId: target.merchantId,
          apiOperation: OPERATION[step.kind],
          causedBy: 'payer',
          time: ids.now,
        });
      } catch (error) {
        // Another process took a step first, and the order no longer allows this one.
        if (error instanceof ApiError && error.httpStatus === 400)
          return { recorded: false, reason: error.message };
        throw error;
      }
      if (!saved) return { recorded: false, reason: 'Another step is in progress; try again' };
      return {
        recorded: true,
        order: saved.state as Order,
        tx: findTransaction(saved.state, target.transactionId)!,
      };
    });
  }

  /**
   * The request the step makes, and how to answer it once the decider accepts it: the ACS's
   * result of the challenge, or the provider's answer to the payer's decision.
   */
  private prepare(
    step: PayerStep,
    ids: PayerStepBase,
    now: Date,
  ): { request: OrderRequest; answer: (tx: TransactionState) => DeciderCommand } {
    switch (step.kind) {
      case 'redirect': {
        const request = { ...ids, type: 'RedirectToProvider' as const };
        return { request, answer: () => request };
      }
      case 'return': {
        const request = { ...ids, type: 'ReturnFromProvider' as const, decision: step.decision };
        return {
          request,
          answer: (tx) => ({ ...request, outcome: providerAnswer(step.decision, tx, now) }),
        };
      }
      case 'challenge': {
        const request = { ...ids, type: 'CompleteChallenge' as const };
        return {
          request,
          answer: (tx) => {
            const record = tx.authentication!;
            const result = this.authentication.completeChallenge({
              ...ids,
              acsReference: record.acsReference ?? '',
              choice: step.choice,
            });
            const key = record.sessionId
              ? this.sessions.keyOf(ids.merchantId, record.sessionId)
              : undefined;
            return {
              ...request,
              outcome: {
                result,
                ...(key ? { encryptedData: encryptForMerchant(key, ids, result) } : {}),
              },
            };
          },
        };
      }
    }
  }
}
