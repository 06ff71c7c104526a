/** Strings of the second verification of a sign-in (its own file: the dialog loads only when needed). */
export const verificationText = {
  title: '安全验证',
  introPhone: '您正在新设备上登录，请使用账户绑定的手机号接收验证码完成验证。',
  introEmail: '您正在新设备上登录，请使用账户绑定的邮箱接收验证码完成验证。',
  sentTo: (target: string) => `验证码已发送至 ${target}`,
  codeLabel: '验证码',
  codePlaceholder: '请输入6位验证码',
  thirtyDay: '30天内此设备免验证',
  submit: '确定',
  cancel: '取消',
} as const;
