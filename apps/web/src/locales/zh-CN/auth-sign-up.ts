/** Strings of the sign-up screen. */
export const signUpText = {
  title: '注册',
  intro: '使用中国大陆手机号注册账户',
  phoneLabel: '手机号',
  phonePlaceholder: '请输入手机号',
  codeLabel: '验证码',
  codePlaceholder: '请输入6位验证码',
  passwordLabel: '密码',
  passwordPlaceholder: '请设置登录密码',
  confirmLabel: '确认密码',
  confirmPlaceholder: '请再次输入密码',
  invitationLabel: '邀请码（选填）',
  invitationPlaceholder: '请输入4位邀请码',
  agreePrefix: '我已阅读并同意',
  /** the agreement's own title stands in when it is known */
  agreementFallback: '用户服务协议',
  opensInNewWindow: '（在新窗口中打开）',
  submit: '注册',
  haveAccount: '已有账户？',
  signIn: '去登录',
  codeSentTo: (target: string) => `验证码已发送至 ${target}`,
} as const;
