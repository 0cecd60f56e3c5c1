import { group } from '../model/compose';
import { address, authenticationBillingAddress } from './address.group';
import { contactFields } from './customer.group';

export const billing = group('Billing details', { address });

/** Verify version 16 keeps the phone under billing. */
export const billingV16 = group('Billing details', { address, phone: contactFields.phone });

export const authenticationBilling = group('Billing details', {
  address: authenticationBillingAddress,
});
