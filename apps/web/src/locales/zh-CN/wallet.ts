/** Strings of the wallet screen. */
export const walletText = {
  title: '钱包',
  available: '可用余额',
  anew: '处理中',
  anewHint: '进行中的开卡等操作占用的金额',
  frozenTitle: '钱包已冻结',
  frozenDetail: '冻结期间无法开卡或向卡片转入资金，如有疑问请联系客服。',
  frozenReason: (reason: string) => `冻结原因：${reason}`,
  currency: {
    USD: '美元账户',
    CNY: '人民币账户',
  },
} as const;
