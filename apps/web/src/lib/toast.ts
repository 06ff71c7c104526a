import styles from './toast.module.css';

/**
 * The portal's toasts, drawn with the DOM alone: they are part of the shell that is already loaded,
 * so an error can be told when nothing more can be downloaded (offline, spec §8). At most three show,
 * newest last; each goes after three seconds. They sit over the element marked `data-toast-anchor`
 * when the page has one (the login area's form, from its top edge down), else at the top middle.
 */

export type ToastKind = 'error' | 'success';

export const TOAST_MAX = 3;
export const TOAST_DURATION_MS = 3_000;

const ICON_PATHS: Record<ToastKind, string> = {
  // a filled circle with a cross / a tick, drawn in the kind's colour
  error: 'M8 0a8 8 0 1 0 0 16A8 8 0 0 0 8 0Zm2.83 4.17 1 1L9 8l2.83 2.83-1 1L8 9l-2.83 2.83-1-1L7 8 4.17 5.17l1-1L8 7l2.83-2.83Z',
  success: 'M8 0a8 8 0 1 0 0 16A8 8 0 0 0 8 0Zm3.6 4.9 1 1-5.5 5.5-3.2-3.2 1-1 2.2 2.2 4.5-4.5Z',
};

let holder: HTMLElement | null = null;

function placeHolder(element: HTMLElement) {
  const anchor = document.querySelector('[data-toast-anchor]');
  const box = anchor?.getBoundingClientRect();
  if (box && box.width > 0) {
    element.style.left = `${box.left}px`;
    element.style.width = `${box.width}px`;
    element.style.top = `${Math.max(16, box.top)}px`;
  } else {
    element.style.left = '';
    element.style.width = '';
    element.style.top = '';
  }
}

function ensureHolder() {
  if (!holder?.isConnected) {
    holder = document.createElement('div');
    holder.className = styles.holder ?? '';
    holder.dataset.testid = 'toasts';
    document.body.append(holder);
  }
  return holder;
}

function dismiss(item: HTMLElement) {
  if (!item.isConnected || item.dataset.leaving) return;
  item.dataset.leaving = '1';
  item.classList.add(styles.leaving ?? '');
  setTimeout(() => item.remove(), 200);
}

export function showToast(kind: ToastKind, text: string) {
  const container = ensureHolder();
  placeHolder(container);
  const item = document.createElement('div');
  item.className = `${styles.toast} ${styles[kind]}`;
  item.dataset.testid = 'toast';
  item.dataset.kind = kind;
  item.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  const icon = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  icon.setAttribute('viewBox', '0 0 16 16');
  icon.setAttribute('aria-hidden', 'true');
  icon.setAttribute('class', styles.icon ?? '');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', ICON_PATHS[kind]);
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('fill-rule', 'evenodd');
  icon.append(path);
  const label = document.createElement('span');
  label.textContent = text;
  item.append(icon, label);
  container.append(item);
  const shown = [...container.children].filter((child) => !(child as HTMLElement).dataset.leaving) as HTMLElement[];
  for (const extra of shown.slice(0, Math.max(0, shown.length - TOAST_MAX))) dismiss(extra);
  setTimeout(() => dismiss(item), TOAST_DURATION_MS);
}

/** Takes every toast away at once: what was said on one screen is not carried onto another. */
export function clearToasts() {
  holder?.replaceChildren();
}
