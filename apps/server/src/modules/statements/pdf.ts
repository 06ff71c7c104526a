import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { chinaDateTime } from '@portal/contract/date-time';
import { statementCardName, statementText as text } from '@portal/contract/statements';
import { feeLines, money, movementCells, type StatementDocument, statementFacts, summaryLines } from './document.ts';

/**
 * The statement as a PDF (PDFKit): A4, 中文 set in Noto Sans SC from its package (the font travels with
 * the server, never taken from the machine; PDFKit embeds only the glyphs used), the merchant's logo and
 * name at the head of the first page and the page count at the foot of every page.
 */

const require = createRequire(import.meta.url);
const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
};

let fonts: Promise<{ regular: Buffer; bold: Buffer }> | undefined;
/** The two weights, read once a process on the first statement. */
const loadFonts = () => {
  fonts ??= Promise.all([readFile(require.resolve(FONT_FILES.regular)), readFile(require.resolve(FONT_FILES.bold))]).then(([regular, bold]) => ({
    regular,
    bold,
  }));
  return fonts;
};

const INK = '#1F2329';
const MUTED = '#646A73';
const RULE = '#DEE0E3';
const HEAD_FILL = '#F5F6F7';
const PAGE = { width: 595.28, height: 841.89, left: 40, right: 40, top: 40, bottom: 48 };
const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;
const ROW = 17;

interface Column {
  header: string;
  width: number;
  align?: 'left' | 'right';
}

/** Draws the statement and answers the whole file. */
export async function statementPdf(doc: StatementDocument, accent: string): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const { regular, bold } = await loadFonts();
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: PAGE.left, right: PAGE.right },
    bufferPages: true,
    info: { Title: `${text.title} ${doc.month} ${doc.currency}`, Author: doc.merchant.name, Creator: doc.merchant.name },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    pdf.on('end', resolve);
    pdf.on('error', reject);
  });
  pdf.registerFont('regular', regular);
  pdf.registerFont('bold', bold);

  let y = PAGE.top;
  const bottom = PAGE.height - PAGE.bottom;

  const write = (value: string, x: number, at: number, options: { width: number; align?: 'left' | 'right'; size?: number; font?: 'regular' | 'bold'; color?: string }) => {
    pdf
      .font(options.font ?? 'regular')
      .fontSize(options.size ?? 8.5)
      .fillColor(options.color ?? INK)
      // one line in its cell: with a height, PDFKit cuts what does not fit and ends it with …
      .text(value, x, at, { width: options.width, height: (options.size ?? 8.5) * 1.5, align: options.align ?? 'left', lineBreak: false, ellipsis: true });
  };

  const newPage = () => {
    pdf.addPage();
    y = PAGE.top;
  };
  const room = (height: number) => {
    if (y + height > bottom) newPage();
  };

  // ── the head: logo, title, who and when ──
  await drawLogo(pdf, doc, PAGE.left, y);
  write(text.title, PAGE.left, y + 2, { width: CONTENT_WIDTH, align: 'right', size: 18, font: 'bold' });
  write(`${doc.month} · ${doc.currency}`, PAGE.left, y + 26, { width: CONTENT_WIDTH, align: 'right', size: 10, color: MUTED });
  y += 48;
  pdf.rect(PAGE.left, y, CONTENT_WIDTH, 2).fill(accent);
  y += 12;
  const facts = statementFacts(doc);
  const half = CONTENT_WIDTH / 2;
  facts.forEach(([label, value], index) => {
    const x = PAGE.left + (index % 2) * half;
    const at = y + Math.floor(index / 2) * 16;
    write(label, x, at, { width: 60, color: MUTED, size: 9 });
    write(value, x + 62, at, { width: half - 70, size: 9 });
  });
  y += Math.ceil(facts.length / 2) * 16 + 10;

  // ── tables ──
  const table = (title: string, columns: Column[], rows: string[][], empty: string) => {
    room(28 + ROW * 2);
    write(title, PAGE.left, y, { width: CONTENT_WIDTH, size: 11, font: 'bold' });
    y += 20;
    const head = () => {
      pdf.rect(PAGE.left, y, CONTENT_WIDTH, ROW).fill(HEAD_FILL);
      let x = PAGE.left;
      for (const column of columns) {
        write(column.header, x + 4, y + 4.5, { width: column.width - 8, align: column.align ?? 'left', color: MUTED, font: 'bold', size: 8 });
        x += column.width;
      }
      y += ROW;
    };
    head();
    if (rows.length === 0) {
      write(empty, PAGE.left + 4, y + 5, { width: CONTENT_WIDTH - 8, color: MUTED });
      y += ROW + 14;
      return;
    }
    for (const row of rows) {
      if (y + ROW > bottom) {
        newPage();
        head();
      }
      let x = PAGE.left;
      row.forEach((cell, index) => {
        const column = columns[index] as Column;
        write(cell, x + 4, y + 4.5, { width: column.width - 8, align: column.align ?? 'left' });
        x += column.width;
      });
      pdf
        .moveTo(PAGE.left, y + ROW)
        .lineTo(PAGE.left + CONTENT_WIDTH, y + ROW)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
      y += ROW;
    }
    y += 14;
  };

  const figure = (header: string, width: number): Column => ({ header, width, align: 'right' });
  table(
    text.summary,
    [{ header: text.item, width: 111.28 }, figure(text.opening, 101), figure(text.credits, 101), figure(text.debits, 101), figure(text.closing, 101)],
    summaryLines(doc).map((line) => [line.item, money(line.opening), money(line.credits), money(line.debits), money(line.closing)]),
    text.noMovements,
  );
  const fees = feeLines(doc);
  table(
    text.fees,
    [{ header: text.item, width: 414.28 }, figure(text.amount, 101)],
    fees.lines.length === 0 ? [] : [...fees.lines.map((fee) => [fee.label, money(fee.amount)]), [text.feesTotal, money(fees.total)]],
    text.noFees,
  );
  room(ROW);
  write(text.balanceNote, PAGE.left, y - 6, { width: CONTENT_WIDTH, color: MUTED, size: 8 });
  y += 12;

  const time = (at: Date) => chinaDateTime(at, { seconds: true });
  table(
    text.walletMovements,
    [
      { header: text.time, width: 96 },
      { header: text.type, width: 80 },
      { header: text.card, width: 111.28 },
      figure(text.amount, 80),
      figure(text.fee, 64),
      figure(text.balanceAfter, 84),
    ],
    doc.wallet.map((movement) => {
      const cells = movementCells(movement);
      return [time(movement.createdAt), cells.type, cells.card, money(movement.amount), movement.fee === 0n ? '' : money(movement.fee), money(movement.balanceAfter)];
    }),
    text.noMovements,
  );
  const cards = doc.accounts.filter((account) => account.side === 'CARD');
  table(
    text.cardBalances,
    [{ header: text.card, width: 151.28 }, figure(text.opening, 91), figure(text.credits, 91), figure(text.debits, 91), figure(text.closing, 91)],
    cards.map((card) => [
      statementCardName(card),
      money(card.opening),
      money(card.credits),
      money(card.debits),
      money(card.closing),
    ]),
    text.noMovements,
  );
  table(
    text.cardMovements,
    [{ header: text.time, width: 96 }, { header: text.card, width: 131.28 }, { header: text.type, width: 80 }, figure(text.amount, 100), figure(text.balanceAfter, 108)],
    doc.cards.map((movement) => {
      const cells = movementCells(movement);
      return [time(movement.createdAt), cells.card, cells.type, money(movement.amount), money(movement.balanceAfter)];
    }),
    text.noMovements,
  );

  // ── the foot of every page ──
  const range = pdf.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index += 1) {
    pdf.switchToPage(index);
    // the foot sits in the bottom margin: without it PDFKit would start a page for it
    pdf.page.margins.bottom = 0;
    const at = PAGE.height - PAGE.bottom + 16;
    write(`${doc.merchant.name} · ${text.title} ${doc.month} ${doc.currency}`, PAGE.left, at, { width: half, color: MUTED, size: 8 });
    write(text.page(index - range.start + 1, range.count), PAGE.left + half, at, { width: half, align: 'right', color: MUTED, size: 8 });
  }
  pdf.end();
  await ended;
  return Buffer.concat(chunks);
}

/** The merchant's logo, 28 points high; none drawn when it cannot be read. */
async function drawLogo(pdf: PDFKit.PDFDocument, doc: StatementDocument, x: number, y: number) {
  const logo = doc.merchant.logo;
  if (!logo) {
    pdf.font('bold').fontSize(14).fillColor(INK).text(doc.merchant.name, x, y + 6, { width: 240, lineBreak: false, ellipsis: true });
    return;
  }
  try {
    if (logo.kind === 'image') {
      pdf.image(logo.data, x, y, { fit: [180, 28] });
      return;
    }
    const { default: SVGtoPDF } = await import('svg-to-pdfkit');
    SVGtoPDF(pdf, logo.svg, x, y, {
      height: 28,
      width: 180,
      preserveAspectRatio: 'xMinYMin meet',
      fontCallback: () => 'bold',
      // an image inside the logo only from the SVG itself (a data: URL), never a file of the server
      imageCallback: (link) => (/^data:image\/(png|jpe?g);base64,/i.test(link.trim()) ? link.replace(/\s+/g, '') : ''),
      warningCallback: () => {},
    });
  } catch {
    pdf.font('bold').fontSize(14).fillColor(INK).text(doc.merchant.name, x, y + 6, { width: 240, lineBreak: false, ellipsis: true });
  }
}
