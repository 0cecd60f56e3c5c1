import type { ApiOperation, OperationContract } from '../model/field';
import { authenticatePayerV54, initiateAuthentication } from './authentication.contract';
import { authorizeV39, pay } from './authorize.contract';
import { confirmBrowserPayment, initiateBrowserPaymentV37 } from './browser-payment.contract';
import { capture } from './capture.contract';
import { refundV26, refundV41 } from './refund.contract';
import { updateAuthorization } from './update-authorization.contract';
import { verifyV16, verifyV29 } from './verify.contract';
import { voidV40 } from './void.contract';

/** Every shape of every operation, lowest version first. */
const shapes: { readonly [op in ApiOperation]: readonly OperationContract[] } = {
  AUTHORIZE: [authorizeV39],
  PAY: [pay],
  CAPTURE: [capture],
  VOID: [voidV40],
  REFUND: [refundV26, refundV41],
  VERIFY: [verifyV16, verifyV29],
  INITIATE_AUTHENTICATION: [initiateAuthentication],
  AUTHENTICATE_PAYER: [authenticatePayerV54],
  INITIATE_BROWSER_PAYMENT: [initiateBrowserPaymentV37],
  CONFIRM_BROWSER_PAYMENT: [confirmBrowserPayment],
  UPDATE_AUTHORIZATION: [updateAuthorization],
};

export const API_OPERATIONS = Object.keys(shapes) as readonly ApiOperation[];

export const MIN_VERSION = 1;
export const MAX_VERSION = 100;

export const allContracts: readonly OperationContract[] = API_OPERATIONS.flatMap(
  (op) => shapes[op],
);

export function isApiOperation(value: unknown): value is ApiOperation {
  return typeof value === 'string' && Object.hasOwn(shapes, value);
}

export function isSupportedVersion(version: number): boolean {
  return Number.isInteger(version) && version >= MIN_VERSION && version <= MAX_VERSION;
}

/**
 * The shape a request at `version` uses: the highest shown version not above it, or the lowest
 * shown when the request is older than all (behaviour notes, "API versions").
 * Undefined for an unknown operation; a version outside 1-100 throws, callers check it first.
 */
export function resolveContract(
  apiOperation: string,
  version: number,
): OperationContract | undefined {
  if (!isSupportedVersion(version)) throw new RangeError(`Unsupported API version ${version}`);
  if (!isApiOperation(apiOperation)) return undefined;
  const candidates = shapes[apiOperation];
  let chosen = candidates[0];
  for (const shape of candidates)
    if (shape.version === undefined || shape.version <= version) chosen = shape;
  return chosen;
}
