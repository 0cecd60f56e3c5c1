import type { OrderState } from './order.state';

/**
 * The order as a committed event left it, when this process folded it while appending: keyed by
 * the very event object the store handed back, which its subscriptions (projector, relay, feeds)
 * receive too. So each event is folded once per process, by the write path; a consumer that
 * finds nothing here (an event read back, another process's, a restart) folds as before.
 *
 * Keyed by identity, never by stream and revision: an object the store committed and delivered
 * can only be that event, so a state found here is exactly the stream's up to it. Weak, so it
 * holds nothing once the consumers have dropped the event.
 */
const statesAfter = new WeakMap<object, OrderState>();

/** Records that `state` is the order right after the committed `event` (the same object). */
export function rememberStateAfter(event: object, state: OrderState): void {
  statesAfter.set(event, state);
}

/** The order right after the committed `event`, if this process folded it when appending it. */
export function stateAfter(event: object): OrderState | undefined {
  return statesAfter.get(event);
}
