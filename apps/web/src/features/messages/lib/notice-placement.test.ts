import { describe, expect, it } from 'vitest';
import { NOTICE_HEIGHT_PX, NOTICE_OFFSET_PX, noticesThatFit, SUMMARY_GAP_PX, SUMMARY_HEIGHT_PX, stackHeight } from './notice-placement.ts';

describe('how many floating notices are drawn', () => {
  it('stacks them 80 px apart', () => {
    expect(stackHeight(5, 5)).toBe(4 * NOTICE_OFFSET_PX + NOTICE_HEIGHT_PX);
    expect(stackHeight(1, 1)).toBe(NOTICE_HEIGHT_PX);
    // two of five drawn: the +N line goes under them
    expect(stackHeight(2, 5)).toBe(NOTICE_OFFSET_PX + NOTICE_HEIGHT_PX + SUMMARY_GAP_PX + SUMMARY_HEIGHT_PX);
    expect(stackHeight(0, 5)).toBe(SUMMARY_HEIGHT_PX);
  });

  it('draws all five where they fit', () => {
    expect(noticesThatFit(5, 1000)).toBe(5);
    expect(noticesThatFit(5, stackHeight(5, 5))).toBe(5);
  });

  it('draws as many as fit and folds only the rest', () => {
    expect(noticesThatFit(5, stackHeight(5, 5) - 1)).toBe(4);
    expect(noticesThatFit(5, stackHeight(4, 5) - 1)).toBe(3);
    expect(noticesThatFit(5, stackHeight(2, 5))).toBe(2);
    expect(noticesThatFit(5, stackHeight(1, 5))).toBe(1);
  });

  it('folds them all into one line when not one notice fits', () => {
    expect(noticesThatFit(5, stackHeight(1, 5) - 1)).toBe(0);
    expect(noticesThatFit(3, 0)).toBe(0);
  });
});
