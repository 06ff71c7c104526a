/**
 * Titles of the signed-in screens whose content arrives with later work (exports, settings), and the
 * one line each says meanwhile.
 */
export const pagesText = {
  bulkExport: { title: '批量导出', pending: '批量导出即将开放，届时可在这里把选中的卡片导出为表格。' },
  settings: { title: '设置', pending: '设置即将开放，届时可在这里修改密码、管理受信任设备。' },
} as const;
