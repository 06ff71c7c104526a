/** What the console's customers' screens write to the audit log (console.ts AUDIT_ACTIONS holds them too). */
export const CUSTOMER_AUDIT_ACTIONS = ['CUSTOMER_MESSAGED', 'CARD_FROZEN', 'CARD_UNFROZEN', 'WALLET_FROZEN', 'WALLET_UNFROZEN'] as const;
export type CustomerAuditAction = (typeof CUSTOMER_AUDIT_ACTIONS)[number];
export const customerAuditActionLabel: Record<CustomerAuditAction, string> = {
  CUSTOMER_MESSAGED: '给客户发送消息',
  CARD_FROZEN: '冻结卡片',
  CARD_UNFROZEN: '解冻卡片',
  WALLET_FROZEN: '冻结钱包',
  WALLET_UNFROZEN: '解冻钱包',
};
