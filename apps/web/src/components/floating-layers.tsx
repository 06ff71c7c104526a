import { createContext, type ReactNode, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { type FloatSide, isNarrow, type LayerPlacement, type LayerSize, placeLayers } from '../lib/floating-placement.ts';
import { primaryControlRects } from '../lib/primary-control.ts';
import styles from './floating-layers.module.css';

interface Registration {
  side: FloatSide;
  order: number;
  minHeight?: number;
  wantHeight?: number;
  slot: HTMLDivElement;
}

interface Manager {
  register: (key: string, registration: Registration) => () => void;
  /** places the layers again on the next frame */
  schedule: () => void;
  placements: Record<string, LayerPlacement>;
}

const ManagerContext = createContext<Manager | null>(null);

/** Where a layer is drawn without a manager (a component tested alone): in place, with all the room. */
const UNMANAGED: LayerPlacement = { docked: false, bottom: 0, room: Number.POSITIVE_INFINITY };

const samePlacements = (a: Record<string, LayerPlacement>, b: Record<string, LayerPlacement>) => {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    const x = a[key];
    const y = b[key];
    return x && y && x.docked === y.docked && x.bottom === y.bottom && x.room === y.room;
  });
};

/**
 * The one manager of the floating layers of the signed-in layout (lib/floating-placement.ts): each
 * layer is drawn in a slot that either floats over the page, where it covers no primary control, or
 * sits in the dock, where it is rendered: at the end of the content. Placed again whenever the window
 * scrolls or changes size, the page's content changes, or a layer changes size.
 */
/** A layer's slot is written only when its place changed: a scroll that moves nothing writes nothing. */
const writtenStyles = new WeakMap<HTMLElement, string>();
function setIfChanged(slot: HTMLElement, className: string, style: string) {
  if (slot.className !== className) slot.className = className;
  if (writtenStyles.get(slot) !== style) {
    writtenStyles.set(slot, style);
    slot.style.cssText = style;
  }
}

export function FloatingLayers({ children }: { children: ReactNode }) {
  const overlay = useRef<HTMLDivElement>(null);
  const dock = useRef<HTMLDivElement>(null);
  const layers = useRef(new Map<string, Registration>());
  const [placements, setPlacements] = useState<Record<string, LayerPlacement>>({});
  const frame = useRef(0);
  const observer = useRef<ResizeObserver | null>(null);

  const place = useCallback(() => {
    const overlayElement = overlay.current;
    const dockElement = dock.current;
    if (!overlayElement || !dockElement) return;
    const window_ = { width: window.innerWidth, height: window.innerHeight };
    const narrow = isNarrow(window_.width);
    const sizes: LayerSize[] = [];
    for (const [key, layer] of layers.current) {
      sizes.push({ key, side: layer.side, order: layer.order, minHeight: layer.minHeight, wantHeight: layer.wantHeight, width: layer.slot.offsetWidth, height: layer.slot.offsetHeight });
    }
    // the layers in the dock are kept clear of as the controls are
    const controls = primaryControlRects();
    const docked = dockElement.getBoundingClientRect();
    if (dockElement.childElementCount > 0 && docked.height > 0) controls.push(docked);
    const next = placeLayers(sizes, window_, controls);
    for (const [key, layer] of layers.current) {
      const placement = next[key];
      if (!placement) continue;
      const { slot } = layer;
      if (placement.docked) {
        if (slot.parentElement !== dockElement) dockElement.appendChild(slot);
        setIfChanged(slot, styles.docked ?? '', `order: ${layer.order};`);
      } else {
        if (slot.parentElement !== overlayElement) overlayElement.appendChild(slot);
        const horizontal = narrow ? '' : layer.side === 'left' ? ' right: auto;' : ' left: auto;';
        setIfChanged(slot, styles.floating ?? '', `bottom: ${placement.bottom}px;${horizontal}`);
      }
      if (slot.dataset.floatingLayer !== key) slot.dataset.floatingLayer = key;
      const docked = placement.docked ? 'true' : 'false';
      if (slot.dataset.docked !== docked) slot.dataset.docked = docked;
    }
    setPlacements((previous) => (samePlacements(previous, next) ? previous : next));
  }, []);

  const schedule = useCallback(() => {
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(place);
  }, [place]);

  useEffect(() => {
    window.addEventListener('resize', schedule);
    window.addEventListener('scroll', schedule, { passive: true, capture: true });
    const resized = new ResizeObserver(schedule);
    resized.observe(document.body);
    // content that changes without changing the page's size (a row that comes, a banner that goes)
    const changed = new MutationObserver(schedule);
    const main = document.querySelector('main');
    if (main) changed.observe(main, { childList: true, subtree: true });
    for (const layer of layers.current.values()) resized.observe(layer.slot);
    observer.current = resized;
    schedule();
    return () => {
      cancelAnimationFrame(frame.current);
      window.removeEventListener('resize', schedule);
      window.removeEventListener('scroll', schedule, { capture: true });
      resized.disconnect();
      changed.disconnect();
      observer.current = null;
    };
  }, [schedule]);

  const register = useCallback(
    (key: string, registration: Registration) => {
      layers.current.set(key, registration);
      observer.current?.observe(registration.slot);
      schedule();
      return () => {
        observer.current?.unobserve(registration.slot);
        registration.slot.remove();
        layers.current.delete(key);
        setPlacements((previous) => {
          const { [key]: _gone, ...rest } = previous;
          return rest;
        });
        schedule();
      };
    },
    [schedule],
  );

  const manager = useMemo(() => ({ register, schedule, placements }), [register, schedule, placements]);

  return (
    <ManagerContext value={manager}>
      <div ref={overlay} className={styles.overlay} data-testid="floating-overlay" />
      <div ref={dock} className={styles.dock} data-testid="floating-dock" />
      {children}
    </ManagerContext>
  );
}

/**
 * One floating layer: `children` is given where it was placed (floating with `room` px free above its
 * bottom, or docked). A flexible layer fits itself into its room: at least minHeight, at best
 * wantHeight.
 */
export function FloatingLayer({
  layerKey,
  side,
  order,
  minHeight,
  wantHeight,
  children,
}: {
  layerKey: string;
  side: FloatSide;
  order: number;
  minHeight?: number;
  wantHeight?: number;
  children: (placement: LayerPlacement) => ReactNode;
}) {
  const manager = useContext(ManagerContext);
  const [slot] = useState(() => (typeof document === 'undefined' ? null : document.createElement('div')));
  const register = manager?.register;
  const schedule = manager?.schedule;
  const registration = useRef<Registration | null>(null);
  useLayoutEffect(() => {
    if (!register || !slot) return;
    const registered: Registration = { side, order, slot };
    registration.current = registered;
    return register(layerKey, registered);
  }, [register, layerKey, side, order, slot]);
  // a flexible layer's heights change with what it holds: placed again, without leaving its place
  useLayoutEffect(() => {
    const registered = registration.current;
    if (!registered || (registered.minHeight === minHeight && registered.wantHeight === wantHeight)) return;
    registered.minHeight = minHeight;
    registered.wantHeight = wantHeight;
    schedule?.();
  });
  if (!manager || !slot) return <>{children(UNMANAGED)}</>;
  // until it is first placed, it is drawn in the dock's place, out of sight of nothing
  const placement = manager.placements[layerKey] ?? { docked: true, bottom: 0, room: 0 };
  return createPortal(children(placement), slot);
}
