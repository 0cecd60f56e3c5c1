import { group, required } from '../model/compose';
import type { LeafField } from '../model/field';

const itemText = (description: string): LeafField => ({
  kind: 'string',
  min: 1,
  max: 127,
  description,
});

/** order.item[n]; name, quantity and unitPrice are required in every item sent. */
export const orderItem = group('A line item of the order', {
  brand: itemText('Brand of the item'),
  category: itemText('Category of the item'),
  description: itemText('Description of the item'),
  industryCategory: {
    kind: 'enum',
    values: [
      'HEALTHCARE_VISION',
      'HEALTHCARE_DENTAL',
      'HEALTHCARE_PRESCRIPTION',
      'HEALTHCARE_OTHER',
    ],
    description: 'Sends the item for US health care (IIAS) processing',
  },
  name: required(itemText('Name of the item')),
  quantity: {
    kind: 'digits',
    min: 1,
    max: 16,
    range: { min: 1 },
    required: true,
    description: 'Quantity, 1 to 9999999999999999, as a string of digits',
  },
  sku: itemText('Stock keeping unit of the item'),
  unitPrice: {
    kind: 'decimal',
    allowNegative: true,
    required: true,
    description: 'Price of one unit; may be negative',
  },
  unitTaxAmount: {
    kind: 'decimal',
    allowNegative: true,
    description: 'Tax on one unit; may be negative',
  },
});
