import type { CatalogueEntry } from './error-catalogue-entry.ts';

/** The console's codes for what an ADMIN keeps (6200–6249): card products and fees, agreements, announcements. */
export const ConsoleAdminErrorCode = {
  PRODUCT_NOT_FOUND: 6200,
  PRODUCT_NAME_TAKEN: 6201,
  PRODUCT_FEE_BOUNDS: 6202,
  PRODUCT_FIRST_LOAD: 6203,
  PRODUCT_UNCHANGED: 6204,
} as const;

export const consoleAdminErrors: Record<number, CatalogueEntry> = {
  [ConsoleAdminErrorCode.PRODUCT_NOT_FOUND]: { status: 404, message: '卡产品不存在', meaning: 'The merchant has no card product with that id.' },
  [ConsoleAdminErrorCode.PRODUCT_NAME_TAKEN]: {
    status: 409,
    message: '已有同名的卡产品，请换一个名称',
    meaning: 'Another card product of the merchant has that name; names are unique per merchant.',
  },
  [ConsoleAdminErrorCode.PRODUCT_FEE_BOUNDS]: {
    status: 400,
    message: '充值手续费下限不能高于上限',
    meaning: 'The product’s top-up fee minimum would be above its maximum (a new product, or one after the change).',
  },
  [ConsoleAdminErrorCode.PRODUCT_FIRST_LOAD]: {
    status: 400,
    message: '最低首充金额不能高于单卡余额上限',
    meaning: 'The product’s minimum first load would be above its maximum card balance (a new product, or one after the change).',
  },
  [ConsoleAdminErrorCode.PRODUCT_UNCHANGED]: {
    status: 400,
    message: '没有需要保存的修改',
    meaning: 'The change names no field whose value differs from the product’s current one; nothing was written.',
  },
};
