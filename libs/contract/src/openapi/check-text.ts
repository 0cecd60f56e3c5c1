import type { CrossCheck } from '../model/field';

/**
 * A cross-field rule in words, for `x-gateway-rules`: JSON Schema can state none of these sums
 * and dependencies precisely, so readers get the rule as the validator applies it. Paths are
 * relative to the group that carries the rule.
 */
export function describeCheck(check: CrossCheck): string {
  switch (check.check) {
    case 'sumEquals': {
      const terms = [check.add.join(' + '), ...check.subtract].join(' - ');
      return `${check.target} equals ${terms} when any of ${check.add.join(', ')} is given`;
    }
    case 'itemSum':
      return `${check.target} equals the sum over ${check.items} of ${check.quantity} x ${check.price}, when ${check.target} and some ${check.items}.${check.price} are given`;
    case 'requiredWhen':
      return `${check.field} is required when ${check.when.field} is ${check.when.equals}`;
    case 'differs':
      return `${check.field} must differ from ${check.from}`;
    case 'oneOf':
      return `At least one of ${check.fields.join(', ')} is required`;
  }
}
