import { group } from '../model/compose';

export const risk = group('Risk assessment', {
  bypassMerchantRiskRules: {
    kind: 'enum',
    values: ['ALL'],
    description: 'Skips the merchant risk rules',
  },
  custom: {
    kind: 'map',
    keyPattern: '^[A-Za-z0-9]{1,100}$',
    keyFormat: '1 to 100 of the characters A-Z a-z 0-9',
    value: { kind: 'string', min: 1, max: 4000 },
    maxTotalBytes: 4096,
    description: 'Custom data for the risk provider, at most 4 kB in total',
  },
});
