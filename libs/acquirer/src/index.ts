export * from './acquirer.port';
export { SimulatedAcquirer } from './simulated/simulated-acquirer';
