import type { Order, PayerDecision, TransactionState } from '@gateway/domain';
import type { PayerChoice } from '@gateway/acquirer';
import { Command } from '@nestjs/cqrs';
import type { PageTarget } from './page-token';

export type PayerStep =
  | { readonly kind: 'challenge'; readonly choice: PayerChoice }
  | { readonly kind: 'redirect' }
  | { readonly kind: 'return'; readonly decision: PayerDecision };

/** The order and transaction after the step, or why the step was not taken. */
export type PayerStepOutcome =
  | { readonly recorded: true; readonly order: Order; readonly tx: TransactionState }
  | { readonly recorded: false; readonly reason: string };

/** What the payer did on one of the gateway's pages, recorded as events like any operation. */
export class RecordPayerStepCommand extends Command<PayerStepOutcome> {
  constructor(
    readonly target: PageTarget,
    readonly step: PayerStep,
  ) {
    super();
  }
}
