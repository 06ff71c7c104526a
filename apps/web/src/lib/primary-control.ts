/**
 * Marks the controls a screen is used by (its title row and actions, filters, a frozen-wallet
 * banner, the header): floating things such as the message notices never sit over them.
 */
const PRIMARY_CONTROL_ATTRIBUTE = 'data-primary-control';

/** Spread on an element: `<header {...primaryControl}>`. */
export const primaryControl = { [PRIMARY_CONTROL_ATTRIBUTE]: '' } as const;

/** Where the marked controls are on screen now. */
export function primaryControlRects(): DOMRect[] {
  return Array.from(document.querySelectorAll(`[${PRIMARY_CONTROL_ATTRIBUTE}]`), (element) => element.getBoundingClientRect()).filter(
    (rect) => rect.width > 0 && rect.height > 0,
  );
}
