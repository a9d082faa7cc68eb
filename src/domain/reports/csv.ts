// A report as CSV (RFC 4180; docs/reports.md "Files"): UTF-8 with a byte-order mark (so
// spreadsheets read it as UTF-8), CRLF line ends, a header row of labels, one line per record,
// amounts as their exact decimal text. Written page by page to a file stream.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Cell, OutputField } from './query';

export interface ReportWriter {
  /** Appends a page of records; resolves when the file can take more. */
  write(rows: Cell[][]): Promise<void>;
  /** Completes the file; resolves once it is written. */
  end(): Promise<void>;
  /** Closes the file without completing it (a failed run). */
  abort(): void;
}

/** Text a spreadsheet would run as a formula; numbers such as +44 20 or -12.5 are left alone. */
const FORMULA = /^(?:[=@\t\r]|[+-](?![\d\s().]*$))/;

function quote(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvCell(field: Pick<OutputField, 'type'>, cell: Cell): string {
  if (cell === null) return '';
  const text = String(cell);
  // A text cell that a spreadsheet would evaluate is kept as text by a leading apostrophe (OWASP).
  return quote(field.type === 'TEXT' && FORMULA.test(text) ? `'${text}` : text);
}

export function csvWriter(file: string, fields: OutputField[]): ReportWriter {
  const out = createWriteStream(file, { mode: 0o600 });
  const line = (cells: string[]) => `${cells.join(',')}\r\n`;
  const put = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, 'drain');
  };
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    await put(`\uFEFF${line(fields.map((f) => quote(f.label)))}`);
  };
  return {
    async write(rows) {
      await start();
      await put(rows.map((row) => line(row.map((cell, i) => csvCell(fields[i], cell)))).join(''));
    },
    async end() {
      await start();
      out.end();
      await finished(out);
    },
    abort: () => out.destroy(),
  };
}
