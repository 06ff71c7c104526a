import { readFile } from 'node:fs/promises';
import { STATEMENT_COLUMNS } from '@portal/contract/funding';
import { fromMinorUnits } from '@portal/contract/money';
import { defineCommand, OpsError, OpsPartial } from '../command.ts';
import * as input from '../input.ts';
import { merchantByHost } from '../lookup.ts';
import { cliActor } from './operator.ts';
import { currencyOf } from './wallet-money.ts';

/** A statement larger than this is no bank's day: refused before it is read. */
const MAX_FILE_BYTES = 50 * 1024 * 1024;

export const depositImport = defineCommand({
  name: 'deposit:import',
  summary: "Import a bank statement (CSV): each line whose memo holds an account's reference credits that wallet once",
  usage: ['deposit:import FILE --host HOST --currency USD|CNY'],
  description:
    `The CSV is UTF-8 with a header row naming ${STATEMENT_COLUMNS.join(',')} (in any order; other columns are ignored). ` +
    "A line whose memo holds one account's reference (anywhere, any case) credits that wallet (ADMIN_RECHARGE_IN, the line's bank_txn_id as the key): " +
    'the oldest pending notice of that amount, or a new top-up. A line imported before credits nothing (已导入). A line with no reference is kept ' +
    'unmatched for a person (deposit:list). A bad line is reported with its line number and credits nothing; the exit code is then 1.',
  flags: {
    file: { type: 'string', value: 'FILE', description: 'the statement, a CSV file (may be given bare)' },
    host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
    currency: { type: 'string', value: 'CURRENCY', description: 'the currency of the statement; a line in another is a bad line' },
  },
  positional: 'file',
  examples: ['deposit:import statement-2026-03-01.csv --host localhost --currency USD'],
  async run(flags, { services }) {
    const file = input.requireFlag(flags.file, 'file', 'deposit:import');
    const currency = currencyOf(input.requireFlag(flags.currency, 'currency', 'deposit:import'));
    const merchant = await merchantByHost(services, input.requireFlag(flags.host, 'host', 'deposit:import'));
    const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
      throw new OpsError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    });
    if (bytes.length > MAX_FILE_BYTES) throw new OpsError(`${file} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new OpsError(`${file} is not UTF-8 text`);
    }
    const started = Date.now();
    const { missing, bad, outcomes } = await services.commandLine.importStatement(merchant.id, currency, text, cliActor());
    if (missing.length > 0) throw new OpsError(`${file}: the header row must name the columns ${STATEMENT_COLUMNS.join(',')}; missing: ${missing.join(', ')}`);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const out: string[] = [];
    const of = (kind: string) => outcomes.filter((o) => o.outcome === kind);
    const credited = outcomes.flatMap((o) => (o.outcome === 'credited' ? [o] : []));
    out.push(`Credited (${credited.length}):`);
    for (const o of credited) {
      out.push(`  line ${o.line.line}  ${o.line.bankTxnId}  ${fromMinorUnits(o.line.amount)} ${currency}  ${o.reference}  deposit ${o.depositId}${o.collected > 0n ? `  (owed ${fromMinorUnits(o.collected)} collected)` : ''}`);
    }
    out.push(`已导入 (${of('already').length}): imported before, nothing credited`);
    for (const o of of('already')) out.push(`  line ${o.line.line}  ${o.line.bankTxnId}  ${fromMinorUnits(o.line.amount)} ${currency}`);
    const claimed = outcomes.flatMap((o) => (o.outcome === 'claimed' ? [o] : []));
    out.push(`Credited by hand before (${claimed.length}): the line claims the notice credited from deposit:confirm, nothing credited again`);
    for (const o of claimed) out.push(`  line ${o.line.line}  ${o.line.bankTxnId}  ${fromMinorUnits(o.line.amount)} ${currency}  ${o.reference}  deposit ${o.depositId}`);
    const unmatched = outcomes.flatMap((o) => (o.outcome === 'unmatched' ? [o] : []));
    out.push(`Unmatched (${unmatched.length}): kept for a person (deposit:list)`);
    for (const o of unmatched) out.push(`  line ${o.line.line}  ${o.line.bankTxnId}  ${fromMinorUnits(o.line.amount)} ${currency}  ${o.line.payer}  "${o.line.memo}"  ${o.why}`);
    const failed = outcomes.flatMap((o) => (o.outcome === 'failed' ? [o] : []));
    const problems = [...bad.map((b) => `  line ${b.line}${b.bankTxnId ? ` (${b.bankTxnId})` : ''}: ${b.problem}`), ...failed.map((o) => `  line ${o.line.line} (${o.line.bankTxnId}): not credited: ${o.problem}`)];
    out.push(`Bad lines (${problems.length}): nothing credited from them`, ...problems);
    await services.funding.deliverMails();
    out.push(`${outcomes.length + bad.length} lines read in ${seconds} s.`);
    if (problems.length > 0) throw new OpsPartial(out.join('\n'), `${problems.length} line(s) could not be imported and credited nothing; every other line was imported.`);
    return out.join('\n');
  },
});
