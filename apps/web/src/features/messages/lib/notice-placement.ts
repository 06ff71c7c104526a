/**
 * How many of the floating notices are drawn (spec §2, §9: at most five, 80 px apart, newest on top):
 * as many as fit in the room the floating layers leave them (lib/floating-placement.ts) above the
 * screen's controls; the rest fold into one line, +N, under the stack, drawn only when it is opened.
 */

export const NOTICE_OFFSET_PX = 80;
export const NOTICE_HEIGHT_PX = 68;
/** the +N line under the stack, or "N 条新消息" when no notice fits */
export const SUMMARY_HEIGHT_PX = 40;
export const SUMMARY_GAP_PX = 12;

/** The height of `shown` stacked notices, with the line of the folded ones when some are folded. */
export function stackHeight(shown: number, total: number): number {
  const stack = shown > 0 ? (shown - 1) * NOTICE_OFFSET_PX + NOTICE_HEIGHT_PX : 0;
  if (shown >= total) return stack;
  return stack + (shown > 0 ? SUMMARY_GAP_PX : 0) + SUMMARY_HEIGHT_PX;
}

/** How many of `total` notices are drawn in `room` px: the most whose stack, with its +N line, fits. */
export function noticesThatFit(total: number, room: number): number {
  for (let shown = total; shown > 0; shown--) {
    if (stackHeight(shown, total) <= room) return shown;
  }
  return 0;
}
