import { group } from '../model/compose';
import type { CrossCheck, Fields } from '../model/field';
import { address } from './address.group';
import { orderItem } from './order-item.group';

/** order.tax[n]: a breakdown of the tax included in order.taxAmount. */
const orderTax = group('A tax included in the tax amount', {
  amount: { kind: 'decimal', description: 'Amount of this tax' },
  type: { kind: 'string', min: 1, max: 50, description: 'Kind of tax' },
});

/**
 * Every order field a request may carry, each rule written once. Operations pick from it and mark
 * what they require. Response-only members (creationTime, certainty, status, totals) and order.id
 * (the path names the order) are not request fields.
 */
export const orderFields = {
  acceptPartialAmount: {
    kind: 'boolean',
    description:
      'Accepts approval of part of the amount; required true where the acquirer approves partially',
  },
  amount: { kind: 'decimal', description: 'Total amount of the order' },
  currency: { kind: 'alpha3Upper', description: 'Currency of the order, ISO 4217' },
  custom: {
    kind: 'map',
    maxKeys: 50,
    keyPattern: '^[A-Za-z0-9]{1,99}$',
    keyFormat: '1 to 99 of the characters A-Z a-z 0-9',
    value: { kind: 'string', min: 1, max: 250 },
    description: 'Merchant-defined fields (up to 50), not sent to acquirers',
  },
  customerNote: { kind: 'string', min: 1, max: 250, description: "The payer's note on the order" },
  customerOrderDate: { kind: 'date', description: 'Date the payer placed the order' },
  customerReference: {
    kind: 'ascii',
    min: 0,
    max: 25,
    description: "The payer's reference for the order",
  },
  description: { kind: 'string', min: 1, max: 127, description: 'Description of the order' },
  discount: group('Discount on the order', {
    amount: { kind: 'decimal', description: 'Discount amount, subtracted from the sub-totals' },
    code: { kind: 'string', min: 1, max: 40, description: 'Discount code' },
    description: { kind: 'string', min: 1, max: 127, description: 'Description of the discount' },
  }),
  item: { kind: 'array', of: orderItem, maxItems: 1000, description: 'Line items of the order' },
  itemAmount: { kind: 'decimal', description: 'Sum of the item prices' },
  merchantCategoryCode: {
    kind: 'digits',
    min: 4,
    max: 4,
    description: 'Merchant category code; overrides the default of the acquirer link',
  },
  notificationUrl: {
    kind: 'httpsUrl',
    description: 'Target of webhook notifications for the order',
  },
  owningEntity: {
    kind: 'string',
    min: 1,
    max: 40,
    description: 'Entity within the merchant that owns the order',
  },
  productSKU: { kind: 'string', min: 1, max: 15, description: 'Stock keeping unit of the product' },
  recurringPaymentAgreement: {
    kind: 'alphanumeric',
    min: 1,
    max: 30,
    description: 'Identifier of the recurring payment agreement',
  },
  reference: {
    kind: 'string',
    min: 1,
    max: 40,
    description: "The merchant's reference for the order",
  },
  requestorName: {
    kind: 'string',
    min: 1,
    max: 100,
    description: 'Name of the person requesting the goods',
  },
  shippingAndHandlingAmount: { kind: 'decimal', description: 'Shipping and handling amount' },
  statementDescriptor: group("Descriptor printed on the payer's statement", {
    address,
    name: { kind: 'string', min: 1, max: 100, description: 'Name on the statement' },
    phone: { kind: 'string', min: 1, max: 20, description: 'Phone number on the statement' },
  }),
  subMerchant: group('Sub-merchant of a payment aggregator; initial transaction only', { address }),
  tax: { kind: 'array', of: orderTax, maxItems: 100, description: 'Breakdown of the tax amount' },
  taxAmount: { kind: 'decimal', description: 'Total tax amount' },
  taxRegistrationId: {
    kind: 'string',
    min: 1,
    max: 20,
    description: "The merchant's tax registration id",
  },
  walletIndicator: { kind: 'string', min: 3, max: 3, description: 'Wallet indicator' },
  walletProvider: {
    kind: 'enum',
    values: ['WALLET_A', 'WALLET_B'],
    description: 'Wallet the payer used',
  },
} satisfies Fields;

/**
 * Sub-totals minus the discount equal the amount; item totals equal the item lines. Declared on
 * order groups that carry amount, the sub-totals and items.
 */
export const orderTotalChecks: readonly CrossCheck[] = [
  {
    check: 'sumEquals',
    target: 'amount',
    add: ['itemAmount', 'taxAmount', 'shippingAndHandlingAmount'],
    subtract: ['discount.amount'],
  },
  {
    check: 'itemSum',
    target: 'itemAmount',
    items: 'item',
    quantity: 'quantity',
    price: 'unitPrice',
  },
  {
    check: 'itemSum',
    target: 'taxAmount',
    items: 'item',
    quantity: 'quantity',
    price: 'unitTaxAmount',
  },
];
