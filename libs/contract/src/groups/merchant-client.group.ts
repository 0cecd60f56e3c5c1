import { pick } from '../model/compose';
import type { Fields } from '../model/field';
import { billing } from './billing.group';
import { customer } from './customer.group';
import { device } from './device.group';
import { orderFields } from './order.group';
import { shipping } from './shipping.group';

/**
 * What merchant client libraries send on every operation (behaviour notes, "Fields that merchant
 * client libraries send on every operation"): ActiveMerchant, for one, builds one request shape
 * and sends it on CAPTURE and REFUND as on AUTHORIZE. CAPTURE, PAY, REFUND and UPDATE_AUTHORIZATION
 * take these groups with AUTHORIZE's own rules: the same field objects, never a copy.
 */
export const clientGroups = { billing, customer, device, shipping } satisfies Fields;

/** The order fields of that shape: the merchant's reference, description and custom fields. */
export const clientOrderFields = pick(orderFields, 'custom', 'description', 'reference');
