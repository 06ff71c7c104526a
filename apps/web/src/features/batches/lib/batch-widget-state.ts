/**
 * What the customer did with the batch widget, kept in local storage so a reload and another tab agree:
 * the batch whose result was put away (closed, or shown for its 3 s after all succeeded), and whether the
 * widget is minimised to its pill.
 */
export interface BatchWidgetState {
  dismissed: string | null;
  minimised: boolean;
}

export const BATCH_WIDGET_KEY = 'batchWidget';

export function readBatchWidgetState(): BatchWidgetState {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(BATCH_WIDGET_KEY) ?? 'null');
    if (value && typeof value === 'object') {
      const { dismissed, minimised } = value as Partial<BatchWidgetState>;
      return { dismissed: typeof dismissed === 'string' ? dismissed : null, minimised: minimised === true };
    }
  } catch {
    // unreadable or unavailable storage: the widget starts open
  }
  return { dismissed: null, minimised: false };
}

export function writeBatchWidgetState(state: BatchWidgetState) {
  try {
    window.localStorage.setItem(BATCH_WIDGET_KEY, JSON.stringify(state));
  } catch {
    // storage refused: the choice lives as long as the page
  }
}
