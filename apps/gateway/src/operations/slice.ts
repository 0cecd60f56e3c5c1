import type { Acquirer, AuthenticationServer } from '@gateway/acquirer';
import type { ApiOperation } from '@gateway/contract';
import type { DeciderCommand, OrderRequest, OrderState, PayerStepBase } from '@gateway/domain';
import type { PayerLinks } from '../payer/payer-links';
import type { PayerStep } from '../payer/record-payer-step.command';
import type { PaymentSessions } from '../session/payment-sessions';
import type { Body } from '../transaction/body-fields';
import type { RecordProtection } from '../transaction/sensitive-data';

/** Whoever answers a request besides the order itself: acquirer, 3-D Secure server, pages. */
export interface Ports {
  readonly acquirer: Acquirer;
  readonly authentication: AuthenticationServer;
  readonly links: PayerLinks;
  readonly sessions: PaymentSessions;
}

/** The ids, time and version of one merchant request: passed in so parsing stays pure. */
export interface ParseContext {
  readonly merchantId: string;
  readonly orderId: string;
  readonly transactionId: string;
  readonly apiVersion: number;
  readonly now: string;
  readonly requestHash: string;
  /** Masks, fingerprints and seals card and bank data as this merchant's order records them. */
  readonly protect: RecordProtection;
}

/** What ask sees: the order as loaded, the request's time, the ports. */
export interface AskContext {
  readonly state: OrderState;
  readonly now: Date;
  readonly ports: Ports;
}

/** A typed request: the domain's request, plus what only the answering party needs. */
export interface Parsed<R extends OrderRequest = OrderRequest> {
  readonly request: R;
}

/**
 * One merchant operation (apiOperation): how a validated body becomes its typed request (nothing
 * reads the body after parse), and whom it asks. Its contract is in libs/contract/src/operations,
 * its decider branch in libs/domain/src/order/operations.
 */
export interface OperationSlice<P extends Parsed = Parsed> {
  parse(body: Body, ctx: ParseContext): P;
  ask(parsed: P, ctx: AskContext): DeciderCommand | Promise<DeciderCommand>;
}

/** One step the payer takes on the gateway's pages, recorded like an operation. */
export interface PayerStepSlice<S extends PayerStep = PayerStep, P extends Parsed = Parsed> {
  /** The apiOperation its events are recorded under. */
  readonly apiOperation: string;
  parse(step: S, ids: PayerStepBase): P;
  ask(parsed: P, ctx: AskContext): DeciderCommand | Promise<DeciderCommand>;
}

export type OperationRegistry = { readonly [op in ApiOperation]: OperationSlice };
export type PayerStepRegistry = {
  readonly [kind in PayerStep['kind']]: PayerStepSlice<Extract<PayerStep, { kind: kind }>>;
};
