import { paths } from '../../../lib/paths.ts';

/** The opening screen's address with its product: where the verification screens come back to. */
export const openingAddress = (productId: string | null) =>
  productId ? `${paths.createCard.path}?product=${encodeURIComponent(productId)}` : paths.createCard.path;
