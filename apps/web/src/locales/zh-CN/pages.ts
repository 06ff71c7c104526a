/**
 * Titles of the signed-in screens whose content arrives with later work (cards, settings), and the
 * one line each says meanwhile.
 */
export const pagesText = {
  card: { title: '我的卡片', pending: '卡片列表即将开放，届时可在这里查看、冻结和管理您的虚拟卡。' },
  createCard: { title: '开卡', pending: '开卡功能即将开放，届时可在这里选择卡片产品并单张或批量开卡。' },
  cardDetails: { title: '卡片详情', pending: '卡片详情即将开放，届时可在这里查看卡片信息与交易记录。' },
  bulkExport: { title: '批量导出', pending: '批量导出即将开放，届时可在这里把选中的卡片导出为表格。' },
  settings: { title: '设置', pending: '设置即将开放，届时可在这里修改密码、管理受信任设备。' },
} as const;
