import { decide } from './order.decide';
import { evolve, evolveAll, initialState, type OrderState } from './order.state';
import type { OrderEvent } from './order.events';

/** The Order aggregate as plain data and functions (decide, evolve, initialState). */
export const orderDecider = { decide, evolve, initialState };

export function foldOrder(
  events: readonly OrderEvent[],
  from: OrderState = initialState(),
): OrderState {
  return evolveAll(from, events);
}
