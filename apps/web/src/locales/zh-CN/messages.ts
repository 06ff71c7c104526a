/** Strings of the message center and the floating notices. */
export const messagesText = {
  centerTitle: '消息中心',
  tabs: {
    message: '站内信',
    announcement: '公告',
  },
  filter: {
    label: '筛选',
    all: '全部',
    unread: '未读',
  },
  readAll: '全部已读',
  unread: '未读',
  read: '已读',
  empty: {
    message: '暂无站内信',
    announcement: '暂无公告',
    unread: '没有未读消息',
  },
  total: (total: number) => `共 ${total} 条`,
  detailLoading: '正在加载',
  close: '关闭',
  announcementTitle: '公告详情',
  announcementMissing: '公告不存在或已下线',
  backToCenter: '返回消息中心',
  noticesLabel: '新消息',
  newNotices: (count: number) => `${count} 条新消息`,
  /** the line of the notices folded under the stack */
  moreNotices: (count: number) => `+${count}`,
  moreNoticesLabel: (count: number) => `另有 ${count} 条新消息`,
  closeNotice: '关闭通知',
} as const;
