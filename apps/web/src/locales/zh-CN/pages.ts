/**
 * Titles of the signed-in screens whose content arrives with later work (settings), and the
 * one line each says meanwhile.
 */
export const pagesText = {
  settings: { title: '设置', pending: '设置即将开放，届时可在这里修改密码、管理受信任设备。' },
} as const;
