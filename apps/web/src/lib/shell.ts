/**
 * A page the server drew (`<div id="root" data-shell>`, see src/app/server-shell.tsx) is on screen
 * and usable before the app runs: its fields take typing, its links and buttons take clicks. The
 * app starts at the visitor's first touch, key, pointer move or focus (src/app/boot.ts), draws its
 * first screen off the page, and then takes the page over in one step: the drawn page is replaced by
 * the app's, what was typed is carried over, the focus and the caret stay where they were, and the
 * clicks the drawn page held are replayed on the app's screen. The app draws the same markup with
 * the same components, so an element is found again by its position in the tree.
 */

// No React here: the boot entry loads this file before the app, and must stay small.

/** The events that start the app on a drawn page. */
const START_EVENTS = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'focusin', 'input', 'wheel'] as const;

/** The elements whose clicks are held until the app can answer them (antd's password eye is a role=button). */
const HELD_CLICKS = 'a[href], button, [role="button"], [role="tab"]';

interface DrawnPage {
  shell: HTMLElement;
  /** where the app draws until it takes over: a root of its own, not yet on the page */
  container: HTMLElement | null;
  /** the positions of the clicked elements, in order */
  clicks: number[][];
}

let drawn: DrawnPage | null = null;

/**
 * The position of `element` under `root`: the element-child indexes from the root down (text and
 * comment nodes differ between server markup and the app's DOM; elements do not).
 */
function positionOf(element: Element, root: Element): number[] {
  const path: number[] = [];
  for (let current: Element | null = element; current && current !== root; current = current.parentElement) {
    const parent: Element | null = current.parentElement;
    if (!parent) return [];
    path.unshift(Array.prototype.indexOf.call(parent.children, current));
  }
  return path;
}

/** The element at a position under `root`, if the tree has one there. */
function elementAt(root: Element, path: number[]): Element | null {
  let current: Element | null | undefined = root;
  for (const index of path) current = current?.children[index];
  return current ?? null;
}

/**
 * Holds the drawn page's clicks and starts the app (`start`) at the first sign of a visitor. Called
 * once, by the boot entry, on a drawn page.
 */
export function holdDrawnPage(shell: HTMLElement, start: () => Promise<unknown>) {
  drawn = { shell, container: null, clicks: [] };
  const page = drawn;
  let started = false;
  const begin = () => {
    if (started) return;
    started = true;
    for (const type of START_EVENTS) document.removeEventListener(type, begin, true);
    start().catch(() => {
      // the app's code did not arrive: a reload fetches the page and its scripts again
      window.location.reload();
    });
  };
  for (const type of START_EVENTS) document.addEventListener(type, begin, { capture: true, passive: true });
  shell.addEventListener(
    'click',
    (event) => {
      if (drawn !== page) return;
      const target = event.target instanceof Element ? event.target.closest(HELD_CLICKS) : null;
      if (target && shell.contains(target)) {
        // a link would leave the page and a submit button would send the form without the app
        event.preventDefault();
        if (page.clicks.length < 10) page.clicks.push(positionOf(target, shell));
      }
      begin();
    },
    true,
  );
  // a form sent by the Enter key clicks its submit button first; anything else is held too
  shell.addEventListener('submit', (event) => {
    if (drawn === page) event.preventDefault();
  });
}

/** The element the app renders into: off the page while a drawn page waits, else #root. */
export function appContainer(): HTMLElement {
  if (drawn) {
    drawn.container ??= Object.assign(document.createElement('div'), { id: 'root' });
    return drawn.container;
  }
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  return root;
}

/** Sets an input's value the way typing does, so React's onChange sees it. */
function typeInto(input: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const prototype = input instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * The app's first screen is drawn: put it in the drawn page's place. Nothing happens when there is
 * no drawn page, or it was taken over already.
 */
export function takeOverDrawnPage() {
  const page = drawn;
  if (!page?.container) return;
  drawn = null;
  const { shell, container, clicks } = page;
  const fields = (root: HTMLElement) => Array.from(root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea'));
  const typed = fields(shell).map((field) => field.value);
  const active = document.activeElement;
  const focused = active && active !== shell && shell.contains(active) ? positionOf(active, shell) : null;
  const caret =
    active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement
      ? { start: active.selectionStart, end: active.selectionEnd }
      : null;

  shell.replaceWith(container);

  fields(container).forEach((field, index) => {
    const value = typed[index];
    if (value && field.value !== value) typeInto(field, value);
  });
  let caretField: HTMLInputElement | HTMLTextAreaElement | null = null;
  const placeCaret = () => {
    if (!caretField || !caret || caret.start === null) return;
    try {
      caretField.setSelectionRange(caret.start, caret.end ?? caret.start);
    } catch {
      // fields without a caret (e-mail, number) keep the browser's own
    }
  };
  if (focused) {
    const target = elementAt(container, focused);
    if (target instanceof HTMLElement) {
      target.focus({ preventScroll: true });
      if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) caretField = target;
      placeCaret();
    }
  }
  // React applies a carried-over value in a render of its own after this one, which puts the caret
  // at the end: put it back then, unless the visitor has typed meanwhile
  const expected = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement ? active.value : null;
  setTimeout(() => {
    if (caretField && document.activeElement === caretField && caretField.value === expected) placeCaret();
  });
  if (clicks.length > 0) {
    // after React has applied the carried-over values
    setTimeout(() => {
      for (const click of clicks) {
        const target = elementAt(container, click);
        if (target instanceof HTMLElement) target.click();
      }
    });
  }
}
