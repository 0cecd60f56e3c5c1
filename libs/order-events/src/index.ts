export * from './order-event.envelope';
export * from './order-event-bus.port';
