import type { Pay } from '@gateway/domain';
import { askToFund, fundingOf, paymentOf, type FundingParsed } from '../funding';
import type { OperationSlice } from '../slice';

/** PAY: authorizes and captures at once; the acquirer answers. */
export const pay: OperationSlice<FundingParsed<Pay>> = {
  parse(body, ctx) {
    const { sourceOfFunds, ...forAcquirer } = fundingOf(body, ctx);
    const request: Pay = { ...paymentOf(body, ctx), sourceOfFunds, type: 'PAY' };
    return { request, ...forAcquirer };
  },
  ask: (parsed, ctx) => askToFund(parsed, 'PAY', ctx),
};
