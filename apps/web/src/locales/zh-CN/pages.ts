/** Titles of signed-in screens that have no strings file of their own (settings). */
export const pagesText = {
  settings: { title: '设置' },
} as const;
