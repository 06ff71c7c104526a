/** Messages of the HTTP layer (spec §8). */
export const httpText = {
  networkErrorOnSave: '当前网络异常，数据已保存，恢复后提交即可',
  networkError: '当前网络异常，请检查网络设置后再次尝试操作',
  unknownError: '请求失败，请稍后重试',
} as const;
