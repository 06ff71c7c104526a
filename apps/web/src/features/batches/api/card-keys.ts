// Every card query key nests under one factory (a card's transactions and controls sit below the
// card, so refreshing the card refreshes them): the feature's calls take it from the shared layer.
export { cardKeys } from '../../../domain/cards/api/card-keys.ts';
