/** Strings of the verification code field. */
export const codeInputText = {
  send: '获取验证码',
  sending: '发送中',
  resend: (seconds: number) => `${seconds}秒后重新获取`,
  again: '重新获取',
} as const;
