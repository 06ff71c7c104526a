/** Strings of the verification code field. */
export const codeInputText = {
  send: '获取验证码',
  sending: '发送中',
  resend: (seconds: number) => `${seconds}秒后重新获取`,
  again: '重新获取',
  /** A long wait (a daily or network limit): when another may be asked for, in China time. */
  tomorrow: '明日再试',
  opensAt: (time: string) => `${time}后再试`,
  opensTomorrowAt: (time: string) => `明日${time}后再试`,
} as const;
