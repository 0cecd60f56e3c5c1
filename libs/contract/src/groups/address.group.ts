import { group } from '../model/compose';
import type { Fields, LeafField } from '../model/field';

/** Used for billing.address, shipping.address, order.statementDescriptor.address and order.subMerchant.address. */
export const addressFields = {
  city: { kind: 'string', min: 1, max: 100, description: 'City or town' },
  company: { kind: 'string', min: 1, max: 100, description: 'Company name at the address' },
  country: { kind: 'alpha3Upper', description: 'Country, ISO 3166 alpha-3' },
  postcodeZip: {
    kind: 'string',
    min: 1,
    max: 10,
    pattern: '^[0-9A-Za-z -]*$',
    format: "made of the characters 0-9 a-z A-Z, space and '-'",
    description: 'Postcode or ZIP code',
  },
  stateProvince: { kind: 'string', min: 1, max: 20, description: 'State or province' },
  street: { kind: 'string', min: 1, max: 100, description: 'Street name and number' },
  street2: { kind: 'string', min: 1, max: 100, description: 'Further street details' },
} satisfies Fields;

/** Only Authenticate Payer's billing address carries the ISO 3166-2 subdivision code. */
export const stateProvinceCode: LeafField = {
  kind: 'string',
  min: 1,
  max: 3,
  description: 'ISO 3166-2 subdivision code; may improve the 3-D Secure payer experience',
};

export const address = group('Postal address', addressFields);

export const authenticationBillingAddress = group('Billing address', {
  ...addressFields,
  stateProvinceCode,
});
