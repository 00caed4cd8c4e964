import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import type { NewRule, Rule } from '@ledger-recon/sdk';
import { connect } from '../connect.ts';
import { CliError, ExitCode } from '../exit-codes.ts';
import { chooseFormat, ListWriter } from '../output.ts';

function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new CliError(ExitCode.usage, `cannot read ${JSON.stringify(file)}: there is no such file`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(ExitCode.usage, `${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** rules: list, validate and apply the matching rules kept in JSON files. */
export function registerRuleCommands(program: Command): void {
  const rules = program.command('rules').description('matching rules (docs/MATCHING.md)');
  rules
    .command('list', { isDefault: true })
    .description('list the rules in priority order')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (options: { profile?: string; format?: string }) => {
      const writer = new ListWriter<Rule>(chooseFormat(options.format), [
        { header: 'priority', value: (rule) => String(rule.priority) },
        { header: 'id', value: (rule) => rule.id, maxWidth: 36 },
        { header: 'name', value: (rule) => rule.name },
        { header: 'cardinality', value: (rule) => String(rule.cardinality) },
        { header: 'enabled', value: (rule) => (rule.enabled ? 'yes' : 'no') },
        { header: 'on ingest', value: (rule) => (rule.runOnIngest ? 'yes' : 'no') },
        { header: 'version', value: (rule) => String((rule as { version?: number }).version ?? '') },
      ]);
      await writer.write(await connect(options.profile).rules.list());
      await writer.end('no rules yet: write one (docs/MATCHING.md) and "ledger-recon rules apply FILE.json"');
    });

  const validateAll = async (recon: ReturnType<typeof connect>, drafts: NewRule[], existing: Map<string, Rule>) => {
    let valid = true;
    for (const [index, draft] of drafts.entries()) {
      const name = typeof draft.name === 'string' ? draft.name : `#${index + 1}`;
      const current = existing.get(String(draft.name));
      const result = await recon.rules.validate(draft as never, current === undefined ? {} : { ruleId: current.id });
      for (const problem of result.problems) {
        process.stderr.write(`rule "${name}" ${problem.severity}: ${problem.path || '(rule)'}: ${problem.message}\n`);
      }
      valid &&= result.valid;
    }
    return valid;
  };

  const draftsOf = (file: string): NewRule[] => {
    const content = readJsonFile(file);
    const drafts = Array.isArray(content) ? content : [content];
    if (drafts.length === 0 || drafts.some((draft) => typeof draft !== 'object' || draft === null))
      throw new CliError(ExitCode.usage, `${file} must hold a rule (a JSON object) or an array of rules`);
    return drafts as NewRule[];
  };

  rules
    .command('validate <file>')
    .description('check the rule (or array of rules) in FILE.json without saving it; every problem with its place and the fix')
    .option('--profile <name>', 'the profile to use')
    .action(async (file: string, options: { profile?: string }) => {
      const recon = connect(options.profile);
      const drafts = draftsOf(file);
      const existing = new Map((await recon.rules.list()).map((rule) => [rule.name, rule]));
      if (!(await validateAll(recon, drafts, existing))) throw new CliError(ExitCode.invalid, `${file} has problems (above); nothing was saved`);
      process.stdout.write(`${file}: ${drafts.length} rule${drafts.length === 1 ? '' : 's'} valid\n`);
    });

  rules
    .command('apply <file>')
    .description('create or update (by name) the rule or rules in FILE.json, after validating all of them')
    .option('--profile <name>', 'the profile to use')
    .option('--format <format>', 'table, json or csv')
    .action(async (file: string, options: { profile?: string; format?: string }) => {
      const recon = connect(options.profile);
      const drafts = draftsOf(file);
      const existing = new Map((await recon.rules.list()).map((rule) => [rule.name, rule]));
      if (!(await validateAll(recon, drafts, existing))) throw new CliError(ExitCode.invalid, `${file} has problems (above); no rule was saved`);
      const applied: { action: string; rule: Rule }[] = [];
      for (const draft of drafts) {
        const current = existing.get(String(draft.name));
        if (current === undefined) applied.push({ action: 'created', rule: await recon.rules.create(draft) });
        else applied.push({ action: 'updated', rule: await recon.rules.update(current.id, draft as never) });
      }
      const writer = new ListWriter<{ action: string; rule: Rule }>(
        chooseFormat(options.format),
        [
          { header: 'action', value: (entry) => entry.action },
          { header: 'id', value: (entry) => entry.rule.id, maxWidth: 36 },
          { header: 'name', value: (entry) => entry.rule.name },
          { header: 'version', value: (entry) => String((entry.rule as { version?: number }).version ?? '') },
        ],
        (entry) => ({ action: entry.action, ...entry.rule }),
      );
      await writer.write(applied);
      await writer.end();
    });
}
