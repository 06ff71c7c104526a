/** Strings of the signed-in layout: header, menu, account menu (spec §2 "Logged-in layout"). */
export const signedInText = {
  menu: {
    wallet: '钱包',
    card: '卡片',
    spendingAnalysis: '消费分析',
    bulkExport: '批量导出',
    settings: '设置',
  },
  mainMenu: '主菜单',
  homeLink: '返回钱包',
  bell: (count: number) => (count > 0 ? `消息中心，${count > 99 ? '99+' : count} 条未读` : '消息中心'),
  accountMenu: '账户菜单',
  agreement: '用户协议',
  logout: '退出登录',
  noAgreement: '暂无用户协议',
  loggingOut: '正在退出',
} as const;
