/**
 * Where the floating layers go (the message notices, the batch progress, the 3-D Secure codes): one
 * rule for all of them. Each floats in its column at the bottom of the window as long as it covers
 * none of the screen's primary controls (lib/primary-control.ts) nor another layer; one that would
 * cover a control takes its place in the dock at the end of the content instead, where it pushes the
 * content rather than lying over it.
 *
 * Wide screens have two columns, bottom left and bottom right; narrow ones one column across the
 * width. A column fills from the bottom up, in the layers' order. A flexible layer (the notices)
 * shrinks to the room it is given, so it comes last in its column; where its corner has too little
 * room, it floats in the lowest gap between controls above that holds it at its best, else its least.
 */

export const NARROW_MAX_WIDTH_PX = 767;
/** from the window's edges */
export const FLOAT_MARGIN_PX = 24;
export const FLOAT_MARGIN_NARROW_PX = 12;
/** between two layers of a column */
export const FLOAT_GAP_PX = 12;

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export type FloatSide = 'left' | 'right';

export interface LayerSize {
  key: string;
  side: FloatSide;
  /** bottom up within its column */
  order: number;
  width: number;
  height: number;
  /** a layer that fits itself into the room given, down to this height */
  minHeight?: number;
  /** such a layer's height at its best (the notices: one drawn and the line of the rest) */
  wantHeight?: number;
}

export interface LayerPlacement {
  docked: boolean;
  /** floating: the distance of its bottom edge from the window's bottom edge */
  bottom: number;
  /** floating: the height it may take without covering a control */
  room: number;
}

const overlapsAcross = (box: { left: number; right: number }, control: Box) => box.left < control.right && control.left < box.right;

/**
 * The height free above `bottom` (a y in the window) in the band between left and right: up to the
 * lowest control that starts above it, or the top margin. A control across `bottom` leaves none.
 */
export function roomAbove(bottom: number, band: { left: number; right: number }, controls: Box[], margin: number): number {
  let top = margin;
  for (const control of controls) {
    if (!overlapsAcross(band, control) || control.top >= bottom) continue;
    top = Math.max(top, control.bottom);
  }
  return Math.max(0, bottom - top);
}

/** The lowest place at or above `bottom` whose room above holds `height`: just above a control in the band. */
function lowestGap(bottom: number, band: { left: number; right: number }, controls: Box[], margin: number, height: number) {
  const candidates = [bottom, ...controls.filter((control) => overlapsAcross(band, control) && control.top < bottom).map((control) => control.top)].sort((a, b) => b - a);
  for (const candidate of candidates) {
    const room = roomAbove(candidate, band, controls, margin);
    if (room >= height) return { bottom: candidate, room };
  }
  return null;
}

export function isNarrow(width: number) {
  return width <= NARROW_MAX_WIDTH_PX;
}

/** Where each layer goes in a window of this size with these controls on screen. */
export function placeLayers(layers: LayerSize[], window: { width: number; height: number }, controls: Box[]): Record<string, LayerPlacement> {
  const narrow = isNarrow(window.width);
  const margin = narrow ? FLOAT_MARGIN_NARROW_PX : FLOAT_MARGIN_PX;
  const columns: LayerSize[][] = narrow
    ? [[...layers]]
    : [layers.filter((layer) => layer.side === 'left'), layers.filter((layer) => layer.side === 'right')];
  const placements: Record<string, LayerPlacement> = {};
  for (const column of columns) {
    column.sort((a, b) => Number(a.minHeight !== undefined) - Number(b.minHeight !== undefined) || a.order - b.order);
    let bottom = window.height - margin;
    for (const layer of column) {
      const width = narrow ? window.width - 2 * margin : layer.width;
      const left = narrow || layer.side === 'left' ? margin : window.width - margin - width;
      const band = { left, right: left + width };
      const room = left < margin && !narrow ? 0 : roomAbove(bottom, band, controls, margin);
      const needs = layer.minHeight ?? layer.height;
      if (layer.height === 0 && layer.minHeight === undefined) {
        placements[layer.key] = { docked: false, bottom: window.height - bottom, room };
        continue;
      }
      if (layer.minHeight !== undefined && !(room >= (layer.wantHeight ?? needs))) {
        const gap = lowestGap(bottom, band, controls, margin, layer.wantHeight ?? needs) ?? lowestGap(bottom, band, controls, margin, needs);
        placements[layer.key] = gap ? { docked: false, bottom: window.height - gap.bottom, room: gap.room } : { docked: true, bottom: 0, room: 0 };
        continue;
      }
      if (needs > room) {
        placements[layer.key] = { docked: true, bottom: 0, room: 0 };
        continue;
      }
      placements[layer.key] = { docked: false, bottom: window.height - bottom, room };
      bottom -= Math.min(layer.height, room) + FLOAT_GAP_PX;
    }
  }
  return placements;
}

/** Whether two boxes overlap (touching edges do not). */
export const intersects = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
