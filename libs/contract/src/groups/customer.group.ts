import { group, pick } from '../model/compose';
import type { Fields } from '../model/field';

/** Contact details, shared by customer.* and shipping.contact.*. */
export const contactFields = {
  email: { kind: 'email', description: 'Email address (longer than 3 characters)' },
  firstName: { kind: 'string', min: 1, max: 50, description: 'First name' },
  lastName: { kind: 'string', min: 1, max: 50, description: 'Last name' },
  mobilePhone: { kind: 'string', min: 1, max: 20, description: 'Mobile phone number' },
  phone: { kind: 'string', min: 1, max: 20, description: 'Phone number' },
} satisfies Fields;

export const customer = group('The payer', contactFields);

/** Initiate Browser Payment takes only the payer's email. */
export const customerEmailOnly = group('The payer', pick(contactFields, 'email'));
