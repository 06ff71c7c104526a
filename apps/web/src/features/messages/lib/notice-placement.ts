/**
 * Where the floating notices go (spec §2, §9: at most five, 80 px apart): stacked in the bottom right
 * corner, away from the header's actions and the title row of the screen. When the stack would still
 * cover one of the screen's primary controls (a tall banner, a short window), or the screen is narrow,
 * the notices fold into one line that opens on a tap.
 */

export const NOTICE_OFFSET_PX = 80;
export const NOTICE_HEIGHT_PX = 68;
const NOTICE_WIDTH_PX = 340;
/** from the window's right and bottom edges */
const NOTICE_MARGIN_PX = 24;

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The box a stack of `count` notices takes in a window of this size. */
export function stackBox(count: number, window: { width: number; height: number }): Box {
  const height = count > 0 ? (count - 1) * NOTICE_OFFSET_PX + NOTICE_HEIGHT_PX : 0;
  const right = window.width - NOTICE_MARGIN_PX;
  const bottom = window.height - NOTICE_MARGIN_PX;
  return { left: right - NOTICE_WIDTH_PX, top: bottom - height, right, bottom };
}

const intersects = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Whether the stack fits: inside the window, and over none of the controls. */
export function stackFits(count: number, window: { width: number; height: number }, controls: Box[]): boolean {
  const box = stackBox(count, window);
  if (box.left < NOTICE_MARGIN_PX || box.top < NOTICE_MARGIN_PX) return false;
  return !controls.some((control) => intersects(box, control));
}
