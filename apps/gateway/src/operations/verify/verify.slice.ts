import type { Verify } from '@gateway/domain';
import { optionalString, requiredString } from '../../transaction/body-fields';
import { askToFund, fundingOf, type FundingParsed } from '../funding';
import { requestBase } from '../request-base';
import type { OperationSlice } from '../slice';

/** VERIFY: checks the card or account with the acquirer; no money is asked for. */
export const verify: OperationSlice<FundingParsed<Verify>> = {
  parse(body, ctx) {
    const { sourceOfFunds, ...forAcquirer } = fundingOf(body, ctx);
    // Version 16 names the currency transaction.currency; 29 names it order.currency.
    const currency =
      optionalString(body, 'transaction.currency') ?? requiredString(body, 'order.currency');
    const request: Verify = {
      ...requestBase(body, ctx),
      type: 'VERIFY',
      amount: 0,
      currency,
      sourceOfFunds,
    };
    return { request, ...forAcquirer };
  },
  ask: (parsed, ctx) => askToFund(parsed, 'VERIFY', ctx),
};
