import {
  resolveContract,
  validateRequest,
  type FieldError,
  type OperationContract,
} from '@gateway/contract';
import type { EngineName } from '../../src/validate';

/** A conforming AUTHORIZE body to vary in hand-written tests. */
export function authorizeBody(): Record<string, any> {
  return {
    apiOperation: 'AUTHORIZE',
    order: { amount: '10.00', currency: 'USD' },
    sourceOfFunds: {
      type: 'CARD',
      provided: {
        card: {
          number: '5123450000000008',
          expiry: { month: '1', year: '39' },
          securityCode: '100',
        },
      },
    },
  };
}

export function contractFor(apiOperation: string, version: number): OperationContract {
  const contract = resolveContract(apiOperation, version);
  if (!contract) throw new Error(`no contract for ${apiOperation}`);
  return contract;
}

/** Both engines: the compiled one serves requests, class-validator is the reference it must match. */
export const ENGINES: readonly EngineName[] = ['compiled', 'class-validator'];

/** Helpers judging with one engine. */
export function requestsFor(engine: EngineName) {
  return {
    /** The error for a body, failing the test if it was accepted. */
    errorOf(body: unknown, contract = contractFor('AUTHORIZE', 39)): FieldError {
      const result = validateRequest(contract, body, engine);
      if (result.ok) throw new Error('expected the body to be rejected');
      return result.error;
    },

    valueOf(body: unknown, contract = contractFor('AUTHORIZE', 39)): Record<string, unknown> {
      const result = validateRequest(contract, body, engine);
      if (!result.ok)
        throw new Error(`expected the body to be accepted: ${JSON.stringify(result.error)}`);
      return result.value;
    },
  };
}
