import type { Acquirer, AcquirerRequest, AuthenticationServer } from '@gateway/acquirer';
import {
  findTransaction,
  paymentForbiddenByAuthentication,
  type DeciderCommand,
  type OrderRequest,
  type OrderState,
} from '@gateway/domain';
import type { PayerLinks } from '../payer/payer-links';
import { providerAnswer } from '../payer/provider-answer';
import type { PaymentSessions } from '../session/payment-sessions';
import { encryptForMerchant } from './encrypted-data';
import { get } from './body-fields';
import type { Instrument } from './source-of-funds.mapper';
import { toProcessorOutcome, withCardFacts } from './processor-outcome';

/**
 * Asks whoever answers a merchant's request, and returns the request with the answer: the decider's
 * input. Payments go to the acquirer, 3-D Secure steps to the authentication server, a browser
 * payment gets the provider page the payer is sent to, a confirmation goes to the provider.
 */
export class OperationAnswers {
  constructor(
    private readonly acquirer: Acquirer,
    private readonly authentication: AuthenticationServer,
    private readonly links: PayerLinks,
    private readonly sessions: PaymentSessions,
  ) {}

  async answer(
    request: OrderRequest,
    instrument: Instrument | undefined,
    body: Record<string, unknown>,
    state: OrderState,
    now: Date,
  ): Promise<DeciderCommand> {
    const ids = {
      merchantId: request.merchantId,
      orderId: request.orderId,
      transactionId: request.transactionId,
    };
    switch (request.type) {
      case 'Authorize':
      case 'Pay':
        // The issuer asked not to proceed: the acquirer is not asked (behaviour notes, 3-D Secure).
        if (paymentForbiddenByAuthentication(request, state))
          return {
            ...request,
            outcome: { gatewayCode: 'AUTHENTICATION_FAILED', approvedAmount: 0, details: {} },
          };
        return this.acquirerAnswer(request, instrument, body, state, now);
      case 'Verify':
      case 'Capture':
      case 'Refund':
      case 'Void':
        return this.acquirerAnswer(request, instrument, body, state, now);
      case 'InitiateAuthentication': {
        // The mapper reads INITIATE_AUTHENTICATION's card, or refuses the request.
        if (instrument?.kind !== 'card') throw new Error('INITIATE_AUTHENTICATION without a card');
        return {
          ...request,
          outcome: this.authentication.lookup({ ...ids, cardNumber: instrument.card.number }),
        };
      }
      case 'AuthenticatePayer': {
        const record = findTransaction(state, request.transactionId)!.authentication!;
        const channel = request.authentication.channel ?? record.request.channel;
        const response = this.authentication.authenticate({
          ...ids,
          acsReference: record.acsReference ?? '',
          ...(typeof channel === 'string' ? { channel } : {}),
          ...(typeof request.authentication.challengePreference === 'string'
            ? { challengePreference: request.authentication.challengePreference }
            : {}),
        });
        if (response.kind === 'challenge') {
          return {
            ...request,
            outcome: {
              kind: 'challenge',
              challenge: { acsUrl: this.links.challenge(ids), cReq: response.cReq },
            },
          };
        }
        const sessionId = request.sessionId ?? record.sessionId;
        const key = sessionId ? this.sessions.keyOf(request.merchantId, sessionId) : undefined;
        return {
          ...request,
          outcome: {
            kind: 'result',
            result: response.result,
            ...(key ? { encryptedData: encryptForMerchant(key, ids, response.result) } : {}),
          },
        };
      }
      case 'InitiateBrowserPayment':
        return { ...request, outcome: { redirectUrl: this.links.provider(ids) } };
      case 'ConfirmBrowserPayment': {
        const tx = findTransaction(state, request.transactionId)!;
        return { ...request, outcome: providerAnswer('APPROVED', tx, now) };
      }
      case 'CompleteChallenge':
      case 'RedirectToProvider':
      case 'ReturnFromProvider':
        throw new Error(`${request.type} is the payer's step, not a merchant operation`);
    }
  }

  private async acquirerAnswer(
    request: AcquirerAnswered,
    instrument: Instrument | undefined,
    body: Record<string, unknown>,
    state: OrderState,
    now: Date,
  ): Promise<DeciderCommand> {
    const answer = await this.acquirer.process(
      acquirerRequest(request, instrument, body, state, now),
    );
    return {
      ...request,
      ...('sourceOfFunds' in request && request.sourceOfFunds
        ? { sourceOfFunds: withCardFacts(request.sourceOfFunds, answer) }
        : {}),
      outcome: toProcessorOutcome(answer),
    };
  }
}

/** The requests the acquirer answers. */
type AcquirerAnswered = Extract<
  OrderRequest,
  { type: 'Authorize' | 'Pay' | 'Verify' | 'Capture' | 'Refund' | 'Void' }
>;

function acquirerRequest(
  request: AcquirerAnswered,
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
