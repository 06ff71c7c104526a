/** The team: its members on /settings, the budget, the holder of a card, an invitation on /sign-up. */
export const teamText = {
  section: {
    title: '团队成员',
    description: '邀请同事加入团队，按角色分配权限，并为成员设置每月预算。',
    invite: '邀请成员',
    empty: '暂无成员',
  },

  name: {
    label: '团队名称',
    edit: '修改名称',
    dialogTitle: '修改团队名称',
    placeholder: '请输入团队名称',
    submit: '保存',
    done: '团队名称已修改',
  },

  members: {
    member: '成员',
    phone: '手机号',
    email: '邮箱',
    role: '角色',
    status: '状态',
    budget: '每月预算',
    usedLeft: '本月已用 / 剩余',
    cardsHeld: '持有卡片',
    action: '操作',
    me: '我',
    noBudget: '不限',
    none: '—',
    cards: (n: number) => `${n} 张`,
    usedOf: (used: string, left: string) => `${used} / ${left}`,
  },

  actions: {
    more: '更多操作',
    changeRole: '修改角色',
    changeBudget: '设置预算',
    suspend: '停用',
    resume: '启用',
    remove: '移除',
    suspendConfirm: '停用后该成员将立即退出登录，且无法再登录，确定停用吗？',
    suspended: '成员已停用',
    resumed: '成员已启用',
    removeTitle: '移除成员',
    removeText: (who: string) => `确定将 ${who} 移出团队吗？其登录会立即结束，其持有的卡片将转给所有者。`,
    freezeCards: '同时冻结其持有的卡片',
    removeOk: '确认移除',
    removed: '成员已移除',
    roleDialogTitle: '修改角色',
    roleDone: '角色已修改',
    budgetDialogTitle: '设置每月预算',
    budgetDone: '预算已修改',
    save: '保存',
  },

  invite: {
    dialogTitle: '邀请成员',
    by: '邀请方式',
    byEmail: '邮箱',
    byPhone: '手机号',
    email: '邮箱',
    emailPlaceholder: '请输入被邀请人的邮箱',
    phone: '手机号',
    phonePlaceholder: '请输入被邀请人的手机号',
    role: '角色',
    rolePlaceholder: '请选择角色',
    budget: '每月预算（USD，选填）',
    budgetPlaceholder: '不填则不限',
    budgetHint: '成员本月开卡与充值的总额不能超过预算',
    submit: '发送邀请',
    done: (hours: number) => `邀请已发送，链接 ${hours} 小时内有效`,
  },

  invitations: {
    title: '待接受的邀请',
    sentTo: '邀请对象',
    role: '角色',
    budget: '每月预算',
    invitedBy: '邀请人',
    expiresAt: '有效期至',
    action: '操作',
    revoke: '撤销',
    revokeConfirm: '撤销后邀请链接将立即失效，确定撤销吗？',
    revoked: '邀请已撤销',
    channel: { EMAIL: '邮件', SMS: '短信' } as const,
  },

  ownership: {
    transfer: '转让所有权',
    dialogTitle: '转让所有权',
    intro: '所有权转让后，您将成为管理员，对方成为所有者。此操作需验证交易密码。',
    to: '新的所有者',
    toPlaceholder: '请选择一名正常状态的成员',
    toRequired: '请选择新的所有者',
    submit: '确认转让',
    done: '所有权已转让',
    noCandidate: '团队中没有其他正常状态的成员，请先邀请成员',
  },

  budget: {
    title: '本月预算',
    line: (budget: string, used: string, left: string, currency: string) => `本月预算 ${budget} ${currency}，已用 ${used}，剩余 ${left}`,
    progressLabel: '本月预算已用比例',
  },

  holder: {
    column: '持卡成员',
    filter: '持卡成员',
    allHolders: '全部成员',
    label: '持卡成员',
    change: '更换持卡人',
    dialogTitle: '更换持卡人',
    to: '新的持卡成员',
    toPlaceholder: '请选择持卡成员',
    submit: '确认更换',
    done: '持卡人已更换',
  },

  header: {
    member: (phone: string, role: string) => `${phone} · ${role}`,
  },


  noPermission: '权限不足',
  /** /create-card for a role that may not submit the account's verification, before it is given */
  unverified: { title: '开卡资料尚未提交', hint: '提交开卡资料需要所有者或管理员，请联系他们提交后再开卡。' },
} as const;
