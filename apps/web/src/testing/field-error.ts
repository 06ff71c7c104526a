/**
 * The message shown under a form field, as assistive technology reads it: the text of what the
 * control's aria-describedby names (FormField and antd Form.Item both tie their error to it); null
 * when the field says nothing. A message on its way out (antd keeps the old one for its leave
 * animation, whose end a busy jsdom may reach late) is not what the field says any more.
 */
export function fieldError(control: HTMLElement): string | null {
  const ids = control.getAttribute('aria-describedby')?.split(/\s+/).filter(Boolean) ?? [];
  const text = ids
    .map((id) => {
      const described = document.getElementById(id);
      if (!described) return '';
      const shown = [...described.querySelectorAll('[role="alert"], [class*="-explain-"]')].filter(
        (node) => !/-leave\b|-leave-/.test(node.getAttribute('class') ?? ''),
      );
      if (shown.length === 0) return described.querySelector('[class*="-leave"]') ? '' : (described.textContent ?? '');
      return [...new Set(shown.map((node) => node.textContent ?? ''))].join('');
    })
    .join(' ')
    .trim();
  return text === '' ? null : text;
}
