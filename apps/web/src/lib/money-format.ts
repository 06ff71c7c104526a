/** Money as the portal shows it: the contract's one rule, the same on the screens and in the statements the server draws. */
export { directionOf, formatAmount, formatSignedAmount } from '@portal/contract/money-format';
