import type { Authorize } from '@gateway/domain';
import { askToFund, fundingOf, paymentOf, type FundingParsed } from '../funding';
import type { OperationSlice } from '../slice';

/** AUTHORIZE: holds the amount on the card or account; the acquirer answers. */
export const authorize: OperationSlice<FundingParsed<Authorize>> = {
  parse(body, ctx) {
    const { sourceOfFunds, ...forAcquirer } = fundingOf(body, ctx);
    const request: Authorize = { ...paymentOf(body, ctx), sourceOfFunds, type: 'AUTHORIZE' };
    return { request, ...forAcquirer };
  },
  ask: (parsed, ctx) => askToFund(parsed, 'AUTHORIZE', ctx),
};
