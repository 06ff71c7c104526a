/**
 * The console's names that its first screens show (roles, the overview's kinds of job), apart from
 * console.ts so that the console's first load carries no schema library with them.
 */

export const OPERATOR_ROLES = ['SUPPORT', 'FINANCE', 'RISK', 'ADMIN'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];
export const operatorRoleLabel: Record<OperatorRole, string> = {
  SUPPORT: '客服',
  FINANCE: '财务',
  RISK: '风控',
  ADMIN: '管理员',
};

/** The kinds of job the overview counts, 中文. */
export const CONSOLE_JOB_KINDS = ['CARD_BATCH', 'CARD_EXPORT', 'CARD_BULK'] as const;
export const consoleJobKindLabel: Record<(typeof CONSOLE_JOB_KINDS)[number], string> = {
  CARD_BATCH: '批量开卡',
  CARD_EXPORT: '卡片导出',
  CARD_BULK: '批量操作',
};
