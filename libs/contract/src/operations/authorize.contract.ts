import { agreement } from '../groups/agreement.group';
import { authenticationFields } from '../groups/authentication.group';
import { billing } from '../groups/billing.group';
import { currencyConversion } from '../groups/currency-conversion.group';
import { customer } from '../groups/customer.group';
import { device } from '../groups/device.group';
import { generalFields } from '../groups/general.group';
import { orderFields, orderTotalChecks } from '../groups/order.group';
import { risk } from '../groups/risk.group';
import { shipping } from '../groups/shipping.group';
import { sourceOfFunds } from '../groups/source-of-funds.group';
import { threeDSecure, threeDSecureId } from '../groups/three-d-secure.group';
import { transactionFields } from '../groups/transaction.group';
import { contract, group, pick, required } from '../model/compose';
import type { CrossCheck, Fields } from '../model/field';

/** The version 39 Authorize body. Pay (authorize and capture at once) takes the same fields. */
const fields = {
  '3DSecure': threeDSecure,
  '3DSecureId': threeDSecureId,
  agreement,
  authentication: group(
    'Proof of a 3-D Secure authentication',
    pick(authenticationFields, 'transactionId'),
  ),
  billing,
  currencyConversion,
  customer,
  device,
  order: required(
    group(
      'The order',
      {
        ...orderFields,
        amount: required(orderFields.amount),
        currency: required(orderFields.currency),
      },
      orderTotalChecks,
    ),
  ),
  risk,
  shipping,
  sourceOfFunds,
  transaction: group(
    'The transaction',
    pick(transactionFields, 'frequency', 'merchantNote', 'reference', 'source', 'taxAmount'),
  ),
  ...generalFields,
} satisfies Fields;

const checks: readonly CrossCheck[] = [
  // The card may also come from the payment session; one of the two must be there.
  { check: 'oneOf', fields: ['sourceOfFunds', 'session.id'] },
  { check: 'differs', field: 'currencyConversion.payerCurrency', from: 'order.currency' },
];

export const authorizeV39 = contract('AUTHORIZE', 39, 'Obtain an authorization', fields, checks);

/** Pay has no shown version: the Authorize shape serves every version. */
export const pay = contract('PAY', undefined, 'Authorize and capture in one step', fields, checks);
