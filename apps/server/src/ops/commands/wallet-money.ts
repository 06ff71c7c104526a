import { randomUUID } from 'node:crypto';
import { CURRENCIES, type Currency, type WalletTransactionType, walletTransactionTypeLabel } from '@portal/contract/enums';
import { ErrorCode } from '@portal/contract/errors';
import { AMOUNT_PATTERN, fromMinorUnits, toMinorUnits } from '@portal/contract/money';
import { AppError } from '../../http/errors.ts';
import type { DirectoryAccount } from '../../modules/accounts/directory.ts';
import type { WalletMoneyKind } from '../../modules/command-line/service.ts';
import { MAX_AMOUNT, type OperationResult, type WalletAmountRequest } from '../../modules/ledger/service.ts';
import { defineCommand, OpsError } from '../command.ts';
import * as input from '../input.ts';
import { accountOf, merchantByHost } from '../lookup.ts';
import { cliActor } from './operator.ts';

/** What the wallet commands share: the flags, how they are read, and how a ledger answer is told. */
export const walletFlags = {
  host: { type: 'string', value: 'HOST', description: 'the merchant, by one of its hosts' },
  account: { type: 'string', value: 'PHONE|EMAIL', description: 'the account, by its phone (13800138000) or e-mail' },
} as const;

const moneyFlags = {
  ...walletFlags,
  amount: { type: 'string', value: 'AMOUNT', description: 'how much, e.g. 100 or 100.00 (at most two decimals)' },
  currency: { type: 'string', value: 'CURRENCY', description: `${CURRENCIES.join(' or ')}` },
  key: {
    type: 'string',
    value: 'KEY',
    description: 'idempotency key: running the same command with the same key again moves nothing and prints the first result',
  },
  note: { type: 'string', value: 'TEXT', description: 'a note the customer sees with the transaction' },
} as const;

export function amountOf(value: string) {
  const trimmed = value.trim();
  if (!AMOUNT_PATTERN.test(trimmed)) {
    throw new OpsError(`--amount must be a positive amount with at most two decimals, such as 100 or 99.50, not "${value}"`);
  }
  const units = toMinorUnits(trimmed);
  if (units <= 0n) throw new OpsError('--amount must be more than zero');
  if (units > MAX_AMOUNT) throw new OpsError(`--amount is more than ${fromMinorUnits(MAX_AMOUNT)}, the most one operation moves`);
  return units;
}

export function currencyOf(value: string): Currency {
  const wanted = value.trim().toUpperCase();
  const found = CURRENCIES.find((currency) => currency === wanted);
  if (!found) throw new OpsError(`--currency must be ${CURRENCIES.join(' or ')}, not "${value}"`);
  return found;
}

function keyOf(value: string | undefined) {
  if (value === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,200}$/.test(value)) throw new OpsError('--key must be 1–200 visible ASCII characters without spaces');
  return value;
}

export const whoIs = (account: DirectoryAccount) => `${account.phone}${account.email ? ` (${account.email})` : ''}`;

/** The customer's refusals as the operator reads them; anything else is not ours to explain. */
export function explainRefusal(error: unknown, what: string): never {
  if (!(error instanceof AppError)) throw error;
  const data = (error.data ?? {}) as { available?: string; currency?: string };
  switch (error.code) {
    case ErrorCode.INSUFFICIENT_FUNDS:
      throw new OpsError(`refused: cannot ${what}: the wallet has only ${data.available} ${data.currency} available (${error.message})`);
    case ErrorCode.WALLET_FROZEN:
      throw new OpsError(`refused: cannot ${what}: the wallet is frozen and no money leaves it (${error.message}); run wallet:unfreeze first`);
    case ErrorCode.IDEMPOTENCY_CONFLICT:
      throw new OpsError('refused: this --key was already used for a different request; use a new key, or repeat the first request exactly');
    default:
      throw new OpsError(`refused: ${error.message} (code ${error.code})`);
  }
}

/** A command that moves money into or out of one wallet as one transaction type. */
export function walletMoneyCommand(spec: {
  name: string;
  summary: string;
  description: string;
  verb: string;
  /** how a refusal names it: cannot deduct 5.00 USD */
  act: string;
  direction: 'to' | 'from';
  kind: WalletMoneyKind;
  example: string;
}) {
  return defineCommand({
    name: spec.name,
    summary: spec.summary,
    usage: [`${spec.name} --host HOST --account PHONE|EMAIL --amount AMOUNT --currency USD|CNY [--key KEY] [--note TEXT]`],
    description: spec.description,
    flags: moneyFlags,
    examples: [spec.example],
    async run(flags, { services }) {
      const host = input.requireFlag(flags.host, 'host', spec.name);
      const who = input.requireFlag(flags.account, 'account', spec.name);
      const amount = amountOf(input.requireFlag(flags.amount, 'amount', spec.name));
      const currency = currencyOf(input.requireFlag(flags.currency, 'currency', spec.name));
      const given = keyOf(flags.key);
      // every operation carries a key; without --key the command makes one, and says it
      const key = given ?? `ops-${randomUUID()}`;
      const memo = flags.note === undefined ? '' : input.text(flags.note, 'note', { max: 200 });

      const merchant = await merchantByHost(services, host);
      const account = await accountOf(services, merchant, who);
      const request: WalletAmountRequest = {
        merchantId: merchant.id,
        accountId: account.id,
        currency,
        amount,
        memo,
        reference: given ? `ops:${given}` : 'ops',
        key,
      };
      let result: OperationResult & { collected?: bigint };
      try {
        // money in collects what the account owes in the same transaction; the movement is audit-logged with it
        result = await services.commandLine.walletMoney(spec.kind, request, account, cliActor());
      } catch (error) {
        explainRefusal(error, `${spec.act} ${fromMinorUnits(amount)} ${currency}`);
      }
      const told = tell(result, `${spec.verb} ${fromMinorUnits(amount)} ${currency} ${spec.direction} the wallet of ${whoIs(account)} at merchant ${merchant.slug}`, key, given === undefined);
      return result.collected ? `${told}\n  collected    ${fromMinorUnits(result.collected)} ${currency} of what the account owed (from the wallet after this)` : told;
    },
  });
}

/** Prints what an operation did, or that a repeated key moved nothing. */
export function tell({ answer, replayed }: OperationResult, did: string, key: string, madeUp: boolean) {
  const wallet = answer.accounts.find((account) => account.kind === 'WALLET');
  const type = answer.type as WalletTransactionType | null;
  const lines = [
    replayed ? `Key ${key} was used before for this same request: nothing moved again. The first result:` : `${did}:`,
    `  transaction  ${answer.transactionId ?? '-'}`,
    `  type         ${type ? `${type} (${walletTransactionTypeLabel[type] ?? type})` : '-'}`,
    `  at           ${answer.createdAt}`,
  ];
  if (wallet) {
    lines.push(
      `  available    ${wallet.available} ${answer.currency}`,
      `  held         ${wallet.held} ${answer.currency}`,
      `  balance      ${wallet.balance} ${answer.currency}`,
    );
  }
  lines.push(`  key          ${key}${madeUp ? ' (made for this run; repeat the command with --key to run it safely again)' : ''}`);
  return lines.join('\n');
}
