// Prints `{pages, text}` of the PDF file named on the command line, as JSON. A process of its
// own: pdf.js (inside pdf-parse) is ESM and starts its worker with a dynamic import, which
// jest's module sandbox refuses.
import { readFile } from 'node:fs/promises';
import { PDFParse } from 'pdf-parse';

const parser = new PDFParse({ data: await readFile(process.argv[2]) });
const result = await parser.getText();
await parser.destroy();
process.stdout.write(JSON.stringify({ pages: result.total, text: result.text }));
