/** The live password checklist (sign-up, the login password in settings); its four lines are the contract's. */
export const passwordChecklistText = {
  title: '密码要求',
  met: '已满足',
  unmet: '未满足',
} as const;
