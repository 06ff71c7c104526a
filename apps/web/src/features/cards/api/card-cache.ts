// What a card change refreshes is the same for every feature that changes cards: one shared rule.
export { refreshAroundCard, storeCardChange } from '../../../domain/cards/api/card-cache.ts';
