import { ApiError } from '@gateway/contract';
import {
  decide,
  OrderRejection,
  rejectionOf,
  type DeciderCommand,
  type OrderRequest,
  type OrderState,
} from '@gateway/domain';
import { WrongExpectedRevisionError, type EventMetadata } from '@gateway/event-store';
import type { LoadedOrder, OrderRepository } from '../order/order.repository';

/** How often a command is re-decided when another writer got to the order's stream first. */
const CONFLICT_RETRIES = 3;

/**
 * Decides and appends with optimistic concurrency, re-deciding against the stream as it now stands
 * when another writer won. If the winner was this very request (a retry racing on another
 * process), the stream as it stands is the answer. Undefined when it kept losing: the caller
 * answers LOCK_FAILURE.
 */
export async function appendDecided(
  orders: OrderRepository,
  streamId: string,
  loaded: LoadedOrder,
  command: DeciderCommand,
  metadata: EventMetadata,
  isRecorded: (state: OrderState) => boolean = () => false,
): Promise<LoadedOrder | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await orders.append(streamId, loaded, decideOrRefuse(command, loaded.state), metadata);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt === CONFLICT_RETRIES) return undefined;
      loaded = await orders.load(streamId);
      if (isRecorded(loaded.state)) return loaded;
    }
  }
}

/** The spec's INVALID_REQUEST for what the order's state does not allow. */
export function refuseIfNotAllowed(request: OrderRequest, state: OrderState): void {
  const rejection = rejectionOf(request, state);
  if (rejection) throw asApiError(rejection);
}

function decideOrRefuse(command: DeciderCommand, state: OrderState) {
  try {
    return decide(command, state);
  } catch (error) {
    throw error instanceof OrderRejection ? asApiError(error) : error;
  }
}

function asApiError(rejection: OrderRejection): ApiError {
  return ApiError.invalid(rejection.explanation, rejection.field, rejection.validationType);
}
