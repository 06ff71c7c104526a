/**
 * The bulk action the progress widget follows, kept in local storage so a reload and another tab
 * follow the same one, and whether its result was put away.
 */
export interface BulkWidgetState {
  id: string | null;
  dismissed: boolean;
}

export const BULK_WIDGET_KEY = 'bulkWidget';
const CHANGED = 'bulk-widget-changed';

export function readBulkWidgetState(): BulkWidgetState {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(BULK_WIDGET_KEY) ?? 'null');
    if (value && typeof value === 'object') {
      const { id, dismissed } = value as Partial<BulkWidgetState>;
      return { id: typeof id === 'string' ? id : null, dismissed: dismissed === true };
    }
  } catch {
    // unreadable or unavailable storage: nothing followed
  }
  return { id: null, dismissed: false };
}

export function writeBulkWidgetState(state: BulkWidgetState) {
  try {
    window.localStorage.setItem(BULK_WIDGET_KEY, JSON.stringify(state));
  } catch {
    // storage refused: the widget follows it as long as the page lives
  }
  window.dispatchEvent(new Event(CHANGED));
}

/** Calls `listener` when this tab or another changes what the widget follows. */
export function onBulkWidgetChange(listener: () => void) {
  const fromOtherTab = (event: StorageEvent) => {
    if (event.key === BULK_WIDGET_KEY) listener();
  };
  window.addEventListener('storage', fromOtherTab);
  window.addEventListener(CHANGED, listener);
  return () => {
    window.removeEventListener('storage', fromOtherTab);
    window.removeEventListener(CHANGED, listener);
  };
}
