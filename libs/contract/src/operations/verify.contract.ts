import { agreement } from '../groups/agreement.group';
import { billing, billingV16 } from '../groups/billing.group';
import { contactFields, customer } from '../groups/customer.group';
import { device, deviceFields } from '../groups/device.group';
import { generalFields } from '../groups/general.group';
import { orderFields, orderTotalChecks } from '../groups/order.group';
import { shipping, shippingV16 } from '../groups/shipping.group';
import { sourceOfFunds, sourceOfFundsV16 } from '../groups/source-of-funds.group';
import { transactionFields } from '../groups/transaction.group';
import { contract, group, pick, required } from '../model/compose';

/** Version 29: order.* (the amount only feeds risk assessment) and shipping.contact. */
export const verifyV29 = contract('VERIFY', 29, 'Verify a card account', {
  agreement,
  billing,
  customer,
  device,
  order: required(
    group(
      'The order',
      { ...orderFields, currency: required(orderFields.currency) },
      orderTotalChecks,
    ),
  ),
  shipping,
  sourceOfFunds,
  ...generalFields,
});

/** Version 16: source of funds and transaction are required; device data sits under customer. */
export const verifyV16 = contract('VERIFY', 16, 'Verify a card account', {
  billing: billingV16,
  customer: group('The payer and the payer device', {
    ...contactFields,
    ...pick(deviceFields, 'ani', 'aniCallType', 'browser', 'hostname', 'ipAddress'),
  }),
  order: group('The order', pick(orderFields, 'notificationUrl', 'reference')),
  shipping: shippingV16,
  sourceOfFunds: sourceOfFundsV16,
  transaction: required(
    group('The verification', { currency: required(transactionFields.currency) }),
  ),
  ...generalFields,
});
