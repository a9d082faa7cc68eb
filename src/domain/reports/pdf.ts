// A report as PDF (docs/reports.md "Files"): landscape A4, a title block (report, filters,
// generated at), then a table whose header row repeats on every page, with column widths fitted
// to the page from the header and the first page of records. pdfkit streams each finished page
// to the file, so memory holds one page whatever the row count.
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import type PDFKit from 'pdfkit';
import type { ReportWriter } from './csv';
import type { Cell, OutputField } from './query';

export interface PdfTitle {
  report: string;
  filters: string[];
  /** Local date and time with the zone's name. */
  generatedAt: string;
}

const MARGIN = 30;
const FONT_SIZE = 7;
const HEADER_SIZE = 7.5;
const ROW_HEIGHT = 11;
const PAD = 2.5;
const MIN_WIDTH = 28;
const MAX_NATURAL = 220;
const FOOTER = 12;

/**
 * The standard Helvetica font covers Windows-1252 only; anything else would come out as stray
 * glyphs, so it is shown as `?` (the CSV keeps every character).
 */
const NOT_WIN_ANSI = /[^\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/g;
const printable = (text: string) => text.replace(/[\r\n\t]+/g, ' ').replace(NOT_WIN_ANSI, '?');

const RIGHT: ReadonlySet<OutputField['type']> = new Set(['INTEGER', 'NUMBER', 'AMOUNT']);

/** pdfkit and its fonts cost ~23 MB of RSS: loaded by the first PDF, not by every process that can run one. */
const loadPdfKit = () => require('pdfkit') as typeof PDFKit;

export function pdfWriter(file: string, fields: OutputField[], title: PdfTitle): ReportWriter {
  const PDFDocument = loadPdfKit();
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: MARGIN, info: { Title: `Report ${title.report}`, Creator: 'Back-office service' } });
  const out = doc.pipe(createWriteStream(file, { mode: 0o600 }));
  const left = MARGIN;
  const usable = () => doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN - FOOTER;
  let widths: number[] | undefined;
  let page = 1;
  let y = 0;
  let rowCount = 0;

  const titleBlock = () => {
    doc.font('Helvetica-Bold').fontSize(14).text(printable(`Report: ${title.report}`), left, MARGIN, { width: usable() });
    doc.font('Helvetica').fontSize(8.5);
    doc.text(printable(`Filters: ${title.filters.length ? title.filters.join('; ') : 'none'}`), { width: usable() });
    doc.text(printable(`Generated ${title.generatedAt}`), { width: usable() });
    y = doc.y + 8;
  };

  /** Text fitted into the width, cut with an ellipsis; right-aligned for numbers. */
  const cell = (text: string, x: number, width: number, right: boolean) => {
    let t = printable(text);
    const room = width - 2 * PAD;
    if (doc.widthOfString(t) > room) {
      let lo = 0;
      let hi = t.length;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (doc.widthOfString(`${t.slice(0, mid)}…`) <= room) lo = mid;
        else hi = mid - 1;
      }
      t = `${t.slice(0, lo)}…`;
    }
    const at = right ? x + width - PAD - doc.widthOfString(t) : x + PAD;
    doc.text(t, at, y + 2, { lineBreak: false });
  };

  const headerRow = () => {
    doc.rect(left, y, usable(), ROW_HEIGHT + 1).fill('#e4e8ee');
    doc.fillColor('black').font('Helvetica-Bold').fontSize(HEADER_SIZE);
    let x = left;
    fields.forEach((f, i) => {
      cell(f.label, x, widths![i], RIGHT.has(f.type));
      x += widths![i];
    });
    y += ROW_HEIGHT + 1;
    doc.moveTo(left, y).lineTo(left + usable(), y).lineWidth(0.5).stroke();
    doc.font('Helvetica').fontSize(FONT_SIZE);
  };

  const footer = () => {
    doc.font('Helvetica').fontSize(7).fillColor('#555555');
    const text = printable(`${title.report} · page ${page}`);
    // Placed by hand: text given a width wraps, and a line this low would start a new page.
    doc.text(text, left + usable() - doc.widthOfString(text), doc.page.height - MARGIN - 8, { lineBreak: false });
    doc.fillColor('black');
  };

  const newPage = () => {
    footer();
    doc.addPage();
    page++;
    y = MARGIN;
    headerRow();
  };

  /** Natural widths from the header and sample values (fitWidths), then the title and the first header row. */
  const fit = (sample: Cell[][]) => {
    const natural = fields.map((f, i) => {
      doc.font('Helvetica-Bold').fontSize(HEADER_SIZE);
      let w = doc.widthOfString(printable(f.label));
      doc.font('Helvetica').fontSize(FONT_SIZE);
      for (const row of sample) if (row[i] !== null) w = Math.max(w, doc.widthOfString(printable(String(row[i]))));
      return Math.min(Math.max(w + 2 * PAD, MIN_WIDTH), MAX_NATURAL);
    });
    widths = fitWidths(natural, fields.map((f) => f.type !== 'TEXT'), usable());
    titleBlock();
    headerRow();
  };

  return {
    async write(rows) {
      if (!widths) fit(rows.slice(0, 200));
      for (const row of rows) {
        if (y + ROW_HEIGHT > bottom()) newPage();
        if (rowCount % 2) doc.rect(left, y, usable(), ROW_HEIGHT).fill('#f5f6f8').fillColor('black');
        let x = left;
        fields.forEach((f, i) => {
          const value = row[i];
          if (value !== null) cell(String(value), x, widths![i], RIGHT.has(f.type));
          x += widths![i];
        });
        y += ROW_HEIGHT;
        rowCount++;
      }
    },
    async end() {
      if (!widths) fit([]);
      if (y + ROW_HEIGHT > bottom()) newPage();
      doc.font('Helvetica-Oblique').fontSize(FONT_SIZE);
      doc.text(`${rowCount} ${rowCount === 1 ? 'record' : 'records'}`, left + PAD, y + 4, { lineBreak: false });
      footer();
      doc.end();
      await finished(out);
    },
    abort: () => out.destroy(),
  };
}

/**
 * Column widths that fill the page exactly. Numbers, dates and booleans keep their natural width
 * (a cut figure misleads); text columns share what is left, the narrow ones whole and the wide
 * ones equally (water-filling). When even that cannot fit, every column shares the page alike.
 */
function fitWidths(natural: number[], keep: boolean[], page: number): number[] {
  const kept = natural.reduce((sum, w, i) => sum + (keep[i] ? w : 0), 0);
  const flexible = natural.map((_, i) => i).filter((i) => !keep[i]);
  const fixed = kept + flexible.length * MIN_WIDTH <= page;
  const widths = natural.map((w, i) => (fixed && keep[i] ? w : 0));
  let open = fixed ? flexible : natural.map((_, i) => i);
  let room = fixed ? page - kept : page;
  for (;;) {
    const share = room / open.length;
    const narrow = open.filter((i) => natural[i] <= share);
    if (!narrow.length) {
      for (const i of open) widths[i] = share;
      break;
    }
    for (const i of narrow) widths[i] = natural[i];
    room -= narrow.reduce((sum, i) => sum + natural[i], 0);
    open = open.filter((i) => natural[i] > share);
    if (!open.length) break;
  }
  // Room left over (few, narrow columns) widens every column alike.
  const total = widths.reduce((a, b) => a + b, 0);
  return widths.map((w) => (w * page) / total);
}
