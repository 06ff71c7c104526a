import { holdDrawnPage } from '../lib/shell.ts';

// The entry of a page the server drew (src/app/server-shell.tsx): the page is already on screen and
// usable, so the app starts at the visitor's first touch, key, pointer move or focus instead of
// taking the processor while the page loads. Its scripts are fetched once the page has loaded (the
// server lists them in #portal-prefetch), so that starting costs no download.
const shell = document.getElementById('root');
if (shell?.dataset.shell !== undefined) {
  holdDrawnPage(shell, () => import('../main.tsx'));
  const prefetch = () => {
    const list = document.getElementById('portal-prefetch')?.textContent;
    for (const href of list ? (JSON.parse(list) as string[]) : []) {
      const link = Object.assign(document.createElement('link'), { rel: 'prefetch', href, as: 'script', crossOrigin: 'anonymous' });
      document.head.append(link);
    }
  };
  if (document.readyState === 'complete') setTimeout(prefetch);
  else window.addEventListener('load', () => setTimeout(prefetch), { once: true });
} else {
  void import('../main.tsx');
}
