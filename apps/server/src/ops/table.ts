/** Columns a terminal shows twice as wide: CJK ideographs and punctuation, kana, hangul, full-width forms. */
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

export function displayWidth(value: string) {
  let width = 0;
  for (const char of value) width += WIDE.test(char) ? 2 : 1;
  return width;
}

/** A plain-text table whose columns line up in a terminal, Chinese names included. */
export function textTable(header: string[], rows: string[][]) {
  const widths = header.map((title, column) =>
    Math.max(displayWidth(title), ...rows.map((row) => displayWidth(row[column] ?? ''))),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell + ' '.repeat((widths[column] ?? 0) - displayWidth(cell)),
      )
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
