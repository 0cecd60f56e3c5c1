export * from './acquirer.port';
export { SimulatedAcquirer } from './simulated/simulated-acquirer';
export * from './authentication/authentication-server.port';
export * from './authentication/simulated-authentication-server';
export * from './currency-conversion.port';
export { SimulatedCurrencyConversion, SIMULATOR_CURRENCIES } from './simulated/currency-conversion';
export { cardFacts, SIMULATOR_CARD_TYPES } from './simulated/bin-table';
export * from './acquirer-later.port';
export {
  SimulatedAcquirerLater,
  type SimulatedLaterDelays,
} from './simulated/simulated-acquirer-later';
export { feeOf } from './settlement/settlement-fee';
export * from './settlement/settlement-stream';
