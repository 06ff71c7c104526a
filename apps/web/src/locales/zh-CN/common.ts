/** Strings shared by the app shell and its generic pages. */
export const commonText = {
  loading: '加载中',
  back: '返回',
  notFound: '非常抱歉，您访问的页面不存在',
  backToHome: 'Back to home',
  networkAnomaly: '网络异常，请稍后重试',
  retry: '重试',
  routeErrorTitle: '页面出错了',
  routeErrorDescription: '页面遇到了意外问题，请返回首页后重新操作。',
  staleVersionTitle: '页面加载失败',
  staleVersionDescription: '网站可能刚刚更新，或网络不稳定，请刷新页面后重试。',
  refresh: '刷新页面',
  goWallet: '返回首页',
  /** a screen whose last refresh failed keeps what it showed, saying since when */
  stale: (time: string) => `网络异常，数据可能不是最新（更新于 ${time}）`,
} as const;
