import { walletMoneyCommand } from './wallet-money.ts';

export const walletAdjust = walletMoneyCommand({
  name: 'wallet:adjust',
  kind: 'ADJUST',
  act: 'adjust out',
  verb: 'Adjusted out',
  direction: 'from',
  summary: "Correct a wallet downwards, back to the merchant's funding (调整转出, ADJUST_OUT)",
  description:
    'Like wallet:deduct, but listed to the customer as 调整转出. Refused, moving nothing, beyond the available balance or on a frozen wallet.',
  example: 'wallet:adjust --host localhost --account 13800138000 --amount 5.25 --currency USD --note 手续费调整',
});
