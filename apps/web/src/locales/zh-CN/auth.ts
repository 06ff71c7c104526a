/** Strings of the sign-in screen. */
export const authText = {
  signInTitle: '登录',
  phoneTab: '手机号',
  emailTab: '邮箱',
  phoneLabel: '手机号',
  phonePlaceholder: '请输入手机号',
  emailLabel: '邮箱',
  emailPlaceholder: '请输入邮箱',
  passwordLabel: '密码',
  passwordPlaceholder: '请输入密码',
  submit: '登录',
  forgetPassword: '忘记密码',
  noAccount: '还没有账户？',
  signUp: '注册',
  signInTabs: '登录方式',
} as const;
