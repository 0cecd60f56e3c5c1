import { resolve } from 'node:path';
import { defaultUsersFile, ROLES, UsersFileError, type Role } from '../users/console-users';
import { addUser, listUsers, removeUser, setPassword } from './console-users.editor';

const USAGE = `usage: console-user <command> [arguments] [--file path]
  add <username> --role merchant --merchant <merchantId>   new merchant user; prints its password once
  add <username> --role finance|operator                   new finance or operator user
  set-password <username>                                  new password, printed once
  remove <username>                                        the user is signed out at its next request
  list                                                     username, role and merchant of every user
The file: --file, else CONSOLE_USERS_FILE, else config/console-users.json.`;

export interface CliOutput {
  out(line: string): void;
  err(line: string): void;
}

class UsageError extends Error {}

/** `--name value` options taken out of the arguments; anything else left is positional. */
function optionsOf(args: readonly string[]): {
  positional: string[];
  options: Map<string, string>;
} {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    if (!args[i].startsWith('--')) {
      positional.push(args[i]);
      continue;
    }
    const name = args[i].slice(2);
    const value = args[++i];
    // An option without a value, or given twice, is a usage mistake.
    if (value === undefined || value.startsWith('--') || options.has(name)) throw new UsageError();
    options.set(name, value);
  }
  return { positional, options };
}

type Command = (file: string, args: string[], options: Map<string, string>) => Promise<string[]>;

const COMMANDS: Record<string, Command> = {
  async add(file, [username, ...rest], options) {
    const role = options.get('role') as Role | undefined;
    const merchantId = options.get('merchant');
    if (!username || rest.length || !role || !ROLES.includes(role)) throw new UsageError();
    if ((role === 'merchant') !== (merchantId !== undefined)) throw new UsageError();
    const password = await addUser(file, { username, role, merchantId });
    return [
      `Added ${role} user ${username}${merchantId ? ` of ${merchantId}` : ''} to ${file}.`,
      `Password (shown only this once): ${password}`,
    ];
  },
  async 'set-password'(file, [username, ...rest]) {
    if (!username || rest.length) throw new UsageError();
    return [
      `New password for ${username} (shown only this once): ${await setPassword(file, username)}`,
    ];
  },
  async remove(file, [username, ...rest]) {
    if (!username || rest.length) throw new UsageError();
    removeUser(file, username);
    return [`Removed ${username}: signed out at its next request.`];
  },
  async list(file, args) {
    if (args.length) throw new UsageError();
    return listUsers(file).map((u) =>
      [u.username, u.role, u.merchantId ?? ''].join('\t').trimEnd(),
    );
  },
};

/** Runs `console-user <command> …`; returns the process exit code (2: a usage mistake). */
export async function runConsoleUserCli(
  args: readonly string[],
  output: CliOutput = { out: console.log, err: console.error },
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const [name, ...more] = args;
  if (name === '--help' || name === 'help') {
    output.out(USAGE);
    return 0;
  }
  try {
    const command = Object.hasOwn(COMMANDS, name ?? '') ? COMMANDS[name] : undefined;
    if (!command) throw new UsageError();
    const { positional, options } = optionsOf(more);
    const fileOption = options.get('file');
    options.delete('file');
    const known = name === 'add' ? ['role', 'merchant'] : [];
    if ([...options.keys()].some((key) => !known.includes(key))) throw new UsageError();
    const file = fileOption ? resolve(fileOption) : defaultUsersFile(env);
    for (const line of await command(file, positional, options)) output.out(line);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(USAGE);
      return 2;
    }
    if (!(error instanceof UsersFileError)) throw error;
    output.err(`console-user ${name}: ${error.message}`);
    return 1;
  }
}

if (require.main === module) {
  runConsoleUserCli(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: Error) => {
      console.error(`console-user failed: ${error.message}`);
      process.exitCode = 1;
    },
  );
}
