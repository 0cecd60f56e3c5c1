export * from './acquirer.port';
export { SimulatedAcquirer } from './simulated/simulated-acquirer';
export * from './authentication/authentication-server.port';
export * from './authentication/simulated-authentication-server';
