/** Strings of the e-mail binding screen. */
export const signEmailText = {
  title: '绑定邮箱',
  intro: '为保障账户安全，请绑定常用邮箱。绑定后可使用邮箱登录，并用于接收验证码和找回密码。',
  emailLabel: '邮箱',
  emailPlaceholder: '请输入邮箱',
  codeLabel: '验证码',
  codePlaceholder: '请输入6位验证码',
  submit: '确定',
  codeSentTo: (target: string) => `验证码已发送至 ${target}，请查收邮件`,
  boundSignInAgain: '邮箱绑定成功，请重新登录',
  back: '返回登录',
} as const;
