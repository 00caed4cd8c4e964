import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { registerCatalogCommands } from './commands/catalog.ts';
import { registerConnectionCommands } from './commands/connections.ts';
import { registerExceptionCommands } from './commands/exceptions.ts';
import { registerImportCommand, registerImportsCommands } from './commands/imports.ts';
import { registerMatchCommands } from './commands/matches.ts';
import { registerReconciliationCommands } from './commands/reconciliations.ts';
import { registerRuleCommands } from './commands/rules.ts';
import { registerRunCommands } from './commands/runs.ts';
import { registerSessionCommands } from './commands/session.ts';
import { registerSuggestionCommands } from './commands/suggestions.ts';
import { registerTransactionCommands } from './commands/transactions.ts';
import { describeError, ExitCode } from './exit-codes.ts';

/**
 * The commands that talk to a server, every one through the SDK with a profile's credentials
 * (docs/CLI.md). The admin commands that open the store themselves (serve, migrate, init, ...)
 * are in src/cli.ts.
 */
export function buildProgram(): Command {
  const program = new Command('ledger-recon')
    .description('the command line of ledger-recon: reconcile from a terminal or a script (docs/CLI.md)')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text.startsWith('error: ') ? `ledger-recon: ${text.slice('error: '.length)}` : text) });
  registerSessionCommands(program);
  registerCatalogCommands(program);
  registerImportCommand(program);
  registerImportsCommands(program);
  registerTransactionCommands(program);
  registerMatchCommands(program);
  registerRuleCommands(program);
  registerRunCommands(program);
  registerSuggestionCommands(program);
  registerReconciliationCommands(program);
  registerExceptionCommands(program);
  registerConnectionCommands(program);
  // Subcommands inherit the override, so that a usage error of any of them is exit code 2.
  program.commands.forEach(function override(command: Command) {
    command.exitOverride();
    command.commands.forEach(override);
  });
  return program;
}

/** Runs a client command and exits with the code docs/CLI.md promises. */
export async function runClientCommand(argv: string[]): Promise<never> {
  // A reader that stops early (| head) closes the pipe; that is not an error of this command.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(ExitCode.success);
    throw error;
  });
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return process.exit(ExitCode.success);
  } catch (error) {
    if (error instanceof CommanderError) {
      // An argument an action refuses (commander prints only those its own parsers refuse).
      if (error instanceof InvalidArgumentError) process.stderr.write(`ledger-recon: ${error.message}\n`);
      // Help and version are printed by commander and are a success; anything else is usage.
      return process.exit(error.exitCode === 0 ? ExitCode.success : ExitCode.usage);
    }
    const { lines, exitCode } = describeError(error);
    process.stderr.write(lines.map((line, index) => (index === 0 ? `ledger-recon: ${line}` : line)).join('\n') + '\n');
    return process.exit(exitCode);
  }
}
