import { teamLimits } from '@portal/contract/team';

/** The activity log: 操作日志 on /settings (a card's 操作记录 is in card-details.ts). The kinds' words are the contract's (ACTIVITY_KIND_LABELS). */
export const activityText = {
  section: {
    title: '操作日志',
    description: '团队成员对资金、卡片、成员与安全设置所做的每一次变更，含操作人、IP 与设备。',
  },
  columns: {
    time: '时间',
    member: '操作人',
    kind: '类别',
    summary: '操作',
    card: '卡片',
    amount: '金额',
    source: 'IP / 设备',
  },
  filters: {
    label: '筛选操作日志',
    member: '操作人',
    allMembers: '全部成员',
    kind: '类别',
    allKinds: '全部类别',
    start: '开始日期',
    end: '结束日期',
    range: ['开始日期', '结束日期'] as [string, string],
    rangeLabel: '日期范围（北京时间）',
    presets: { today: '今天', last7: '近 7 天', last30: '近 30 天', thisMonth: '本月' },
    reset: '重置',
  },
  openCard: '查看卡片',
  none: '—',
  total: (n: number) => `共 ${n} 条`,
  empty: '暂无操作记录',
  emptyFiltered: '没有符合条件的操作记录',
  clearFilters: '清除筛选',
  loadFailed: '操作日志加载失败',
  retry: '重试',
  exportButton: '导出',
  exportHint: `按当前筛选条件导出为 Excel（.xlsx），最多 ${teamLimits.activityExportMax.toLocaleString('en-US')} 条`,
  exportFileName: '操作日志.xlsx',
  exportDone: (n: number) => `已导出 ${n} 条操作记录`,
};
