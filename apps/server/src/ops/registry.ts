import type { OpsCommand } from './command.ts';
import { accountList } from './commands/account-list.ts';
import { agreementPublish } from './commands/agreement-publish.ts';
import { issuerFailNext } from './commands/issuer-fail-next.ts';
import { announcementPublish } from './commands/announcement-publish.ts';
import { managerCreate } from './commands/manager-create.ts';
import { operatorCreate, operatorDisable, operatorList, operatorReset } from './commands/operator.ts';
import { merchantList } from './commands/merchant-list.ts';
import { merchantSet } from './commands/merchant-set.ts';
import { messageSend } from './commands/message-send.ts';
import { productList } from './commands/product-list.ts';
import { productSet } from './commands/product-set.ts';
import { cardFreeze, cardUnfreeze } from './commands/card-freeze.ts';
import { cardList } from './commands/card-list.ts';
import { cardReconcile } from './commands/card-reconcile.ts';
import { cryptoReconcile } from './commands/crypto-reconcile.ts';
import { cardSimulateTraffic } from './commands/card-simulate-traffic.ts';
import { cardSimulateTransaction } from './commands/card-simulate-transaction.ts';
import { ledgerCheck } from './commands/ledger-check.ts';
import { walletAdjust } from './commands/wallet-adjust.ts';
import { walletDeduct } from './commands/wallet-deduct.ts';
import { walletFreeze } from './commands/wallet-freeze.ts';
import { walletRecharge } from './commands/wallet-recharge.ts';
import { walletShow } from './commands/wallet-show.ts';
import { walletUnfreeze } from './commands/wallet-unfreeze.ts';
import { depositConfirm, depositList, depositReject } from './commands/deposit-decide.ts';
import { depositImport } from './commands/deposit-import.ts';
import { depositCreditLine } from './commands/deposit-credit-line.ts';
import { merchantSetDepositAccount } from './commands/merchant-set-deposit-account.ts';
import { merchantSetUsdt } from './commands/merchant-set-usdt.ts';
import { cryptoSimulateDeposit } from './commands/crypto-simulate-deposit.ts';

/** Every operator command, in the order `--help` lists them. A new command is one file and one line here. */
export const commands: OpsCommand[] = [
  merchantList,
  merchantSet,
  merchantSetDepositAccount,
  merchantSetUsdt,
  agreementPublish,
  managerCreate,
  operatorCreate,
  operatorList,
  operatorDisable,
  operatorReset,
  accountList,
  messageSend,
  announcementPublish,
  walletShow,
  walletRecharge,
  walletDeduct,
  walletAdjust,
  walletFreeze,
  walletUnfreeze,
  depositList,
  depositConfirm,
  depositReject,
  depositImport,
  depositCreditLine,
  cryptoSimulateDeposit,
  ledgerCheck,
  productList,
  productSet,
  cardList,
  cardFreeze,
  cardUnfreeze,
  cardReconcile,
  cryptoReconcile,
  cardSimulateTransaction,
  cardSimulateTraffic,
  issuerFailNext,
];
