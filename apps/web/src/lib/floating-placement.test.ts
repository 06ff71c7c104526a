import { describe, expect, it } from 'vitest';
import { FLOAT_GAP_PX, type LayerSize, placeLayers, roomAbove } from './floating-placement.ts';

const wide = { width: 1440, height: 900 };
const narrow = { width: 375, height: 812 };
const batch: LayerSize = { key: 'batch', side: 'left', order: 0, width: 320, height: 150 };
const codes: LayerSize = { key: 'codes', side: 'left', order: 1, width: 340, height: 70 };
const notices: LayerSize = { key: 'notices', side: 'right', order: 2, width: 340, height: 40, minHeight: 40 };

describe('where the floating layers go', () => {
  it('measures the room above a point up to the lowest control in the band', () => {
    const controls = [
      { left: 100, top: 100, right: 400, bottom: 300 },
      { left: 500, top: 600, right: 900, bottom: 700 }, // outside the band
      { left: 0, top: 880, right: 1440, bottom: 900 }, // below the point
    ];
    expect(roomAbove(876, { left: 24, right: 344 }, controls, 24)).toBe(576);
    // a control across the point leaves no room
    expect(roomAbove(650, { left: 600, right: 700 }, controls, 24)).toBe(0);
    expect(roomAbove(876, { left: 24, right: 50 }, controls, 24)).toBe(852);
  });

  it('floats the layers in their corners, stacked without overlapping, when they cover nothing', () => {
    const placed = placeLayers([codes, notices, batch], wide, []);
    expect(placed.batch).toEqual({ docked: false, bottom: 24, room: 852 });
    expect(placed.codes).toEqual({ docked: false, bottom: 24 + 150 + FLOAT_GAP_PX, room: 852 - 150 - FLOAT_GAP_PX });
    expect(placed.notices).toEqual({ docked: false, bottom: 24, room: 852 });
  });

  it('docks a layer that would cover a control; a flexible one only when not even its least fits', () => {
    const checkbox = { left: 40, top: 700, right: 60, bottom: 720 };
    const row = { left: 1100, top: 800, right: 1400, bottom: 830 };
    const placed = placeLayers([batch, codes, notices], wide, [checkbox, row]);
    // the batch needs 150 px above 876 and has 156 below the checkbox; the codes then have none
    expect(placed.batch?.docked).toBe(false);
    expect(placed.codes?.docked).toBe(true);
    // 46 px under the row: the notices float, given that much
    expect(placed.notices).toEqual({ docked: false, bottom: 24, room: 46 });
    // across the corner, and a notice of 68 px wanted: above the row
    const lower = placeLayers([{ ...notices, wantHeight: 68 }], wide, [{ ...row, top: 850, bottom: 870 }]);
    expect(lower.notices).toEqual({ docked: false, bottom: 50, room: 850 - 24 });
    // no room anywhere in the band: docked
    const full = placeLayers([notices], wide, [{ ...row, top: 0, bottom: 900 }]);
    expect(full.notices?.docked).toBe(true);
  });

  it('floats a flexible layer in the lowest gap above its corner that holds it at its best', () => {
    const wanting = { ...notices, wantHeight: 120 };
    const filters = { left: 24, top: 420, right: 1416, bottom: 460 };
    const titleRow = { left: 24, top: 88, right: 1416, bottom: 160 };
    // a column of 详情 links from under the filters to the bottom of the window
    const links = Array.from({ length: 10 }, (_, n) => ({ left: 1300, top: 480 + n * 40, right: 1340, bottom: 500 + n * 40 }));
    const placed = placeLayers([wanting], wide, [titleRow, filters, ...links]);
    // the gap under 480 is 20 px; above the filters, 260
    expect(placed.notices).toEqual({ docked: false, bottom: 900 - 420, room: 260 });
    // no gap holds one notice: the least, the line alone, in the lowest gap that holds it
    const banner = { left: 24, top: 250, right: 1416, bottom: 320 };
    const crowded = placeLayers([wanting], wide, [titleRow, banner, filters, ...links]);
    expect(crowded.notices).toEqual({ docked: false, bottom: 900 - 420, room: 100 });
  });

  it('puts every layer in one column across a narrow window', () => {
    const placed = placeLayers([batch, codes, notices], narrow, []);
    expect(placed.batch?.bottom).toBe(12);
    expect(placed.codes?.bottom).toBe(12 + 150 + FLOAT_GAP_PX);
    expect(placed.notices?.bottom).toBe(12 + 150 + FLOAT_GAP_PX + 70 + FLOAT_GAP_PX);
    // a button across the bottom of the window sends the batch and the codes to the dock; the
    // notices, which shrink, float above it
    const actions = placeLayers([batch, codes, notices], narrow, [{ left: 12, top: 740, right: 363, bottom: 790 }]);
    expect(actions.batch?.docked).toBe(true);
    expect(actions.codes?.docked).toBe(true);
    expect(actions.notices).toEqual({ docked: false, bottom: 812 - 740, room: 740 - 12 });
  });
});
