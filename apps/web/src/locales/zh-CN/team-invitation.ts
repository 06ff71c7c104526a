/** /sign-up?invitation=…: what a team's invitation offers, or why it cannot be used (its own file: only that page loads it). */
export const invitationText = {
  loading: '正在读取邀请…',
  line: (invitedBy: string, accountName: string, role: string) => `${invitedBy} 邀请你加入 ${accountName}，角色：${role}`,
  sentToPhone: (phone: string) => `请使用接收邀请的手机号 ${phone} 注册`,
  failed: '邀请无法使用',
  signUpNormally: '直接注册新账户',
} as const;
