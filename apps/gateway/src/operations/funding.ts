import { type Authorize, type DeciderCommand, type Pay, type Verify } from '@gateway/domain';
import { amount, get, optionalString, requiredString, type Body } from '../transaction/body-fields';
import { sourceOf, type Instrument } from '../transaction/source-of-funds.mapper';
import { askAcquirer } from './acquirer.ask';
import { referenceOf, requestBase } from './request-base';
import type { AskContext, Parsed, ParseContext } from './slice';

/** AUTHORIZE, PAY and VERIFY: the instrument and what the acquirer alone reads of the body. */
export interface FundingParsed<R extends Authorize | Pay | Verify> extends Parsed<R> {
  readonly instrument: Instrument;
  readonly customerEmail: string | undefined;
  readonly billingStreet: string | undefined;
  readonly acceptPartialAmount: boolean;
}

/** The amount and currency of AUTHORIZE and PAY, the authentication they may cite or name, their reference. */
export function paymentOf(body: Body, ctx: ParseContext) {
  const cited = optionalString(body, 'authentication.transactionId');
  const threeDSecureId = optionalString(body, '3DSecureId');
  return {
    ...requestBase(body, ctx),
    amount: amount(body, 'order.amount'),
    currency: requiredString(body, 'order.currency'),
    ...(cited !== undefined ? { authenticationTransactionId: cited } : {}),
    ...(threeDSecureId !== undefined ? { threeDSecureId } : {}),
    ...referenceOf(body),
  };
}

/** The source of funds as recorded, and the card or account as the acquirer needs it. */
export function fundingOf(body: Body, ctx: ParseContext) {
  const { instrument, recorded } = sourceOf(body, ctx.protect);
  return {
    instrument,
    sourceOfFunds: recorded,
    customerEmail: optionalString(body, 'customer.email'),
    billingStreet: optionalString(body, 'billing.address.street'),
    acceptPartialAmount: get(body, 'order.acceptPartialAmount') === true,
  };
}

/** Asks the acquirer to charge (or verify) the card or account. */
export function askToFund(
  parsed: FundingParsed<Authorize | Pay | Verify>,
  operation: 'AUTHORIZE' | 'PAY' | 'VERIFY',
  ctx: AskContext,
): Promise<DeciderCommand> {
  const { request, instrument, acceptPartialAmount } = parsed;
  const funds = {
    operation,
    amount: request.amount,
    currency: request.currency,
    customerEmail: parsed.customerEmail,
  };
  if (instrument.kind !== 'card') {
    const { sourceType, giftCardNumber } = instrument;
    return askAcquirer(
      request,
      { ...funds, sourceType, acceptPartialAmount, ...(giftCardNumber ? { giftCardNumber } : {}) },
      ctx,
    );
  }
  const { card } = instrument;
  return askAcquirer(
    request,
    { ...funds, card, billingStreet: parsed.billingStreet, acceptPartialAmount },
    ctx,
  );
}
