/** Strings of the merchant's branding: start-up failures and the login area. */
export const merchantText = {
  unknownHostTitle: '该站点尚未开通，请确认访问地址',
  unknownHostDetail: (host: string) => `当前访问的地址 ${host} 未绑定任何商户站点。`,
  unavailableTitle: '站点暂时无法访问',
  unavailableDetail: '未能获取站点信息，请检查网络后重试。',
  retry: '重新加载',
  copyright: (years: string, website: string) => `Copyright © ${years} ${website} 版权所有`,
  brandSlogan: '钱包与虚拟卡，一站式管理',
  brandPoints: ['钱包余额实时可查', '虚拟卡单张或批量开通', '卡片数据加密保护'],
} as const;
