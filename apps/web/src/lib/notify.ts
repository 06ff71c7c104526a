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

// a success that is not told still leaves a trace for the developer
let successNotifier: Notifier = (text) => console.info(text);

export function setSuccessNotifier(next: Notifier) {
  successNotifier = next;
}

/** Confirms a finished action that leaves the screen (e.g. a password reset before /sign-in). */
export function notifySuccess(text: string) {
  successNotifier(text);
}
