declare module 'svg-to-pdfkit' {
  /** Draws an SVG document into a PDFKit document at (x, y). */
  export default function SVGtoPDF(
    doc: PDFKit.PDFDocument,
    svg: string,
    x: number,
    y: number,
    options?: {
      width?: number;
      height?: number;
      preserveAspectRatio?: string;
      fontCallback?: (family: string, bold: boolean, italic: boolean) => string;
      imageCallback?: (link: string) => string;
      warningCallback?: (message: string) => void;
    },
  ): void;
}
