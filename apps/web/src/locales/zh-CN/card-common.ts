/** Strings the card screens share: the brands, the money lines, loading and failure. */
export const cardCommonText = {
  brand: { VISA: 'VISA', MASTERCARD: 'Mastercard' },
  currencyName: { USD: '美元', CNY: '人民币' },
  pendingNumber: '待发卡',
  /** what a status waiting on the issuer says beside its tag */
  processingHint: '发卡机构处理中，完成后状态将自动更新',
  processingTitle: {
    CARD_STATUS_INIT: '开卡申请处理中',
    FREEZING: '冻结处理中',
    UNFREEZING: '解冻处理中',
    DELETING: '注销处理中',
  },
  none: '—',
  retry: '重试',
  back: '返回我的卡片',
  amountWithCurrency: (amount: string, currency: string) => `${amount} ${currency}`,
} as const;
