import { group, pick } from '../model/compose';
import type { LeafField } from '../model/field';
import { address } from './address.group';
import { contactFields } from './customer.group';

const method: LeafField = {
  kind: 'enum',
  values: ['ELECTRONIC', 'GROUND', 'OVERNIGHT', 'PRIORITY', 'SAME_DAY'],
  description: 'Shipping method: GROUND 4 or more days, PRIORITY 2-3 days',
};

export const shipping = group('Shipping details', {
  address,
  contact: group('The recipient', contactFields),
  method,
});

/** Verify version 16 puts the recipient's names and phone directly under shipping. */
export const shippingV16 = group('Shipping details', {
  address,
  ...pick(contactFields, 'firstName', 'lastName', 'phone'),
  method,
});
