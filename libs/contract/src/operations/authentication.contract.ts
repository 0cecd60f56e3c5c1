import { agreement } from '../groups/agreement.group';
import { authenticationFields } from '../groups/authentication.group';
import { authenticationBilling } from '../groups/billing.group';
import { customer } from '../groups/customer.group';
import { authenticationDevice } from '../groups/device.group';
import { generalFields } from '../groups/general.group';
import { orderFields } from '../groups/order.group';
import { shipping } from '../groups/shipping.group';
import { sourceOfFunds } from '../groups/source-of-funds.group';
import { contract, group, pick, required } from '../model/compose';

/** Opens a 3-D Secure authentication; not specified beyond the behaviour notes, so one shape for all versions. */
export const initiateAuthentication = contract(
  'INITIATE_AUTHENTICATION',
  undefined,
  'Find out whether 3-D Secure authentication is available for the card',
  {
    authentication: group(
      'The authentication',
      pick(authenticationFields, 'acceptVersions', 'channel', 'purpose'),
    ),
    order: required(
      group('The order', {
        currency: required(orderFields.currency),
        notificationUrl: orderFields.notificationUrl,
      }),
    ),
    sourceOfFunds,
    ...generalFields,
  },
  [{ check: 'oneOf', fields: ['sourceOfFunds', 'session.id'] }],
);

/** Version 54; continues the transaction that Initiate Authentication opened. */
export const authenticatePayerV54 = contract(
  'AUTHENTICATE_PAYER',
  54,
  'Authenticate the cardholder (3-D Secure)',
  {
    agreement,
    authentication: group(
      'The authentication',
      pick(
        authenticationFields,
        '3ds2',
        'challengePreference',
        'channel',
        'goodsDescription',
        'psd2',
        'redirectResponseUrl',
      ),
    ),
    billing: authenticationBilling,
    customer,
    device: authenticationDevice,
    order: group(
      'The order',
      pick(orderFields, 'amount', 'currency', 'custom', 'description', 'merchantCategoryCode'),
    ),
    shipping,
    sourceOfFunds,
    ...generalFields,
  },
  [
    {
      check: 'requiredWhen',
      field: 'device.browser',
      when: { field: 'authentication.channel', equals: 'PAYER_BROWSER' },
    },
  ],
);
