export * from './order-summary/order-summary';
export * from './order-summary/order-summary.projection';
export * from './order-summary/order-summary.read-model';
export * from './order-summary/order-summary.projector';
export * from './order-summary/order-summary.rebuild';
export * from './order-summary/order-summary.diff';
export { SqliteOrderSummaryReadModel } from './sqlite/sqlite-order-summary.read-model';
export * from './sqlite/order-search';
export { SqliteOrderSearch } from './sqlite/sqlite-order-search';
