/** Strings of the user agreement page. */
export const agreementText = {
  loading: '正在加载用户协议',
  fallbackTitle: '用户协议',
} as const;
