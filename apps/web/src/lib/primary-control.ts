/**
 * Marks the controls a screen is used by (its title row and actions, filters, a frozen-wallet
 * banner, the header, a card's actions, a form, the rows that open something): the floating layers
 * (components/floating-layers.tsx) never sit over them, nor over any button, link or field of the
 * screen (a table row's controls among them).
 */
const PRIMARY_CONTROL_ATTRIBUTE = 'data-primary-control';

/** What the floating layers keep clear of: the marked controls, every button and link of the screen, every field with its label. */
const KEPT_CLEAR = `[${PRIMARY_CONTROL_ATTRIBUTE}], main :is(a[href], button, [role="button"], [role="link"], [role="tab"]), tbody tr label, :is(input:not([type="hidden"]), select, textarea, label:has(input), [role="switch"], [role="combobox"])`;

/** Spread on an element: `<header {...primaryControl}>`. */
export const primaryControl = { [PRIMARY_CONTROL_ATTRIBUTE]: '' } as const;

/** Where the marked controls and the table rows' controls are on screen now. */
export function primaryControlRects(): DOMRect[] {
  return Array.from(document.querySelectorAll(KEPT_CLEAR), (element) => element.getBoundingClientRect()).filter((rect) => rect.width > 0 && rect.height > 0);
}
