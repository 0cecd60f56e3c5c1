import { Gauge, type Registry } from 'prom-client';
import type { JanitorSchedule } from './janitor-schedule';

/**
 * What the janitor has yet to do, for /metrics: rows of its schedule (inquiries, disputes,
 * chargebacks), `due` the ones whose time has come. A `due` figure that stays up means facts are
 * not being recorded (the store refuses appends, or on a cluster no node holds the lease).
 */
export function observeJanitor(
  registry: Registry,
  schedule: Pick<JanitorSchedule, 'size'>,
  now: () => Date,
): void {
  new Gauge({
    name: 'gateway_janitor_scheduled',
    help: "Rows of the janitor's schedule: waiting (all of them) and due now",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'waiting' }, schedule.size());
      this.set({ state: 'due' }, schedule.size(now().getTime()));
    },
  });
}
