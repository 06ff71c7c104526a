/**
 * Files the API answers raw (spec §8: spreadsheets of the wallet, cards and exports), saved the way a
 * browser saves a download.
 */

/** The file name a Content-Disposition header gives: its UTF-8 `filename*` first, else `filename`. */
export function fileNameFrom(contentDisposition: string | null | undefined, fallback: string): string {
  if (!contentDisposition) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(contentDisposition)?.[1];
  if (extended) {
    try {
      return cleanName(decodeURIComponent(extended.trim())) || fallback;
    } catch {
      // a malformed escape: use the plain name instead
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(contentDisposition);
  return cleanName((plain?.[1] ?? plain?.[2] ?? '').trim()) || fallback;
}

/** No folders in a name the server chose. */
const cleanName = (name: string) => name.replace(/^.*[\\/]/, '');

/** Hands a downloaded file to the browser's save flow under that name. */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // the browser has taken the file once the click is handled; a moment later the URL can go
  window.setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
