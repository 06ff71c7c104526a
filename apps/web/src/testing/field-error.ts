/**
 * The message shown under a form field, as assistive technology reads it: the text of what the
 * control's aria-describedby names (FormField and antd Form.Item both tie their error to it); null
 * when the field says nothing.
 */
export function fieldError(control: HTMLElement): string | null {
  const ids = control.getAttribute('aria-describedby')?.split(/\s+/).filter(Boolean) ?? [];
  const text = ids
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
    .trim();
  return text === '' ? null : text;
}
