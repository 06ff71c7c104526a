import { describe, expect, it } from 'vitest';
import { NOTICE_HEIGHT_PX, NOTICE_OFFSET_PX, stackBox, stackFits } from './notice-placement.ts';

const wide = { width: 1440, height: 900 };

describe('where the floating notices go', () => {
  it('stacks them 80 px apart in the bottom right corner', () => {
    expect(stackBox(5, wide)).toEqual({ left: 1076, top: 876 - (4 * NOTICE_OFFSET_PX + NOTICE_HEIGHT_PX), right: 1416, bottom: 876 });
    expect(stackBox(1, wide).top).toBe(876 - NOTICE_HEIGHT_PX);
  });

  it('keeps the stack while it covers no control', () => {
    const titleRow = { left: 100, top: 88, right: 1340, bottom: 160 };
    const filters = { left: 124, top: 420, right: 1316, bottom: 462 };
    expect(stackFits(5, wide, [titleRow, filters])).toBe(true);
  });

  it('folds them when the stack would cover a control, however little', () => {
    const filtersBelowBanner = { left: 124, top: 540, right: 1316, bottom: 582 };
    expect(stackFits(5, wide, [filtersBelowBanner])).toBe(false);
    // fewer notices take less room and fit again
    expect(stackFits(2, wide, [filtersBelowBanner])).toBe(true);
    // a control that only touches the stack's edge is not covered
    expect(stackFits(5, wide, [{ left: 124, top: 400, right: 1316, bottom: stackBox(5, wide).top }])).toBe(true);
  });

  it('folds them when the window is too small for the stack', () => {
    expect(stackFits(5, { width: 1440, height: 400 }, [])).toBe(false);
    expect(stackFits(1, { width: 360, height: 800 }, [])).toBe(false);
  });
});
