import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultMerchantsFile, MerchantFileError } from '@gateway/merchants';
import {
  addMerchant,
  rotateNotificationSecret,
  rotatePassword,
  updateMerchant,
} from './merchants-file.editor';

const USAGE = `usage: merchant <command> <merchantId> [arguments] [--file path]
  add <merchantId>                       new merchant; prints its API password and notification secret
  rotate-password <merchantId>           new API password, printed once
  rotate-secret <merchantId>             new notification secret, printed once
  set-permissions <merchantId> [UNMASK]  the merchant's permissions (none when omitted)
  set-masking <merchantId> <0.4|6.4|8.4> how card numbers show under certificate authentication
  set-certificate <merchantId> --pem <file> | --fingerprint <sha256> | --subject <DN> | --none
  disable <merchantId> / enable <merchantId>`;

const APPLY = 'Running gateways apply the change on SIGHUP (kill -HUP <pid>) or restart.';

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

type Command = (file: string, merchantId: string, args: string[]) => Promise<string[]> | string[];

/** The client certificate naming a merchant, from the command's arguments. */
function certificateOf(args: string[]): Record<string, unknown> | undefined {
  const [option, value, ...rest] = args;
  if (rest.length) throw new UsageError();
  if (option === '--none' && value === undefined) return undefined;
  if (!value) throw new UsageError();
  if (option === '--fingerprint') return { fingerprint256: value };
  if (option === '--subject') return { subject: value };
  if (option !== '--pem') throw new UsageError();
  try {
    return { fingerprint256: new X509Certificate(readFileSync(value)).fingerprint256 };
  } catch (error) {
    throw new MerchantFileError(
      `${value} is not a readable PEM certificate: ${(error as Error).message}`,
    );
  }
}

class UsageError extends Error {}

const COMMANDS: Record<string, Command> = {
  async add(file, id, args) {
    if (args.length) throw new UsageError();
    const { password, notificationSecret } = await addMerchant(file, id);
    return [
      `Added merchant ${id} to ${file}.`,
      `API password (shown only this once): ${password}`,
      `Notification secret: ${notificationSecret}`,
      ...(id.startsWith('TEST')
        ? []
        : ['Note: only merchants whose id starts with TEST can transact (simulated acquirer).']),
    ];
  },
  async 'rotate-password'(file, id, args) {
    if (args.length) throw new UsageError();
    const password = await rotatePassword(file, id);
    return [`New API password for ${id} (shown only this once): ${password}`];
  },
  'rotate-secret'(file, id, args) {
    if (args.length) throw new UsageError();
    return [`Notification secret: ${rotateNotificationSecret(file, id)}`];
  },
  'set-permissions'(file, id, args) {
    updateMerchant(file, id, { permissions: args });
    return [`Permissions of ${id}: ${args.join(', ') || 'none'}.`];
  },
  'set-masking'(file, id, args) {
    if (args.length !== 1) throw new UsageError();
    updateMerchant(file, id, { masking: { cardNumber: args[0] } });
    return [`Card numbers of ${id} show as ${args[0]} under certificate authentication.`];
  },
  'set-certificate'(file, id, args) {
    const certificate = certificateOf(args);
    updateMerchant(file, id, { certificate });
    return [
      certificate
        ? `${id} is authenticated by the certificate ${Object.values(certificate)[0]}.`
        : `${id} has no client certificate.`,
    ];
  },
  disable(file, id, args) {
    if (args.length) throw new UsageError();
    updateMerchant(file, id, { enabled: false });
    return [`Disabled ${id}: its requests are refused.`];
  },
  enable(file, id, args) {
    if (args.length) throw new UsageError();
    updateMerchant(file, id, { enabled: true });
    return [`Enabled ${id}.`];
  },
};

/** `--file path` may come anywhere after the merchant id. */
function withoutFileOption(args: string[]): { rest: string[]; file?: string } {
  const at = args.indexOf('--file');
  if (at < 0) return { rest: args };
  const file = args[at + 1];
  if (!file) throw new UsageError();
  return { rest: [...args.slice(0, at), ...args.slice(at + 2)], file };
}

/** Runs `merchant <command> <merchantId> …`; returns the process exit code. */
export async function runMerchantCli(
  args: readonly string[],
  output: CliOutput = { out: console.log, err: console.error },
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const [name, merchantId, ...more] = args;
  const command = Object.hasOwn(COMMANDS, name ?? '') ? COMMANDS[name] : undefined;
  try {
    if (!command || !merchantId || merchantId.startsWith('--')) throw new UsageError();
    const { rest, file } = withoutFileOption(more);
    const path = file ? resolve(file) : defaultMerchantsFile(env);
    const lines = await command(path, merchantId, rest);
    for (const line of [...lines, APPLY]) output.out(line);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(USAGE);
      return 2;
    }
    if (!(error instanceof MerchantFileError)) throw error;
    output.err(`merchant ${name}: ${error.message}`);
    return 1;
  }
}

if (require.main === module) {
  runMerchantCli(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: Error) => {
      console.error(`merchant failed: ${error.message}`);
      process.exitCode = 1;
    },
  );
}
