/**
 * The one place messages are shown from. The app plugs in antd's message; the HTTP module reports
 * every failed call through it, and screens their own client-side notices (spec §8 toasts).
 */
export type Notifier = (text: string) => void;

// until the app provides its toast, messages still reach the developer console
let notifier: Notifier = (text) => console.error(text);

export function setNotifier(next: Notifier) {
  notifier = next;
}

export function notifyError(text: string) {
  notifier(text);
}
