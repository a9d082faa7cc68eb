import { VisibilityQueryError } from './errors';

export type Token =
  | { kind: 'ident'; text: string; quoted: boolean; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'number'; value: number; isInt: boolean; text: string; pos: number }
  | { kind: 'op'; text: string; pos: number }
  | { kind: 'eof'; pos: number };

const OPERATORS = ['<=', '>=', '!=', '<>', '=', '<', '>', '(', ')', ','];
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', "'": "'", '"': '"' };

/** Splits a list filter into tokens. Positions are 0-based offsets, used in error messages. */
export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === "'" || ch === '"') {
      const { value, end } = readQuoted(input, i, ch);
      tokens.push({ kind: 'string', value, pos: i });
      i = end;
    } else if (ch === '`') {
      const close = input.indexOf('`', i + 1);
      if (close < 0) throw new VisibilityQueryError(`unterminated backtick-quoted name at position ${i}`);
      const text = input.slice(i + 1, close);
      if (text.length === 0) throw new VisibilityQueryError(`empty backtick-quoted name at position ${i}`);
      tokens.push({ kind: 'ident', text, quoted: true, pos: i });
      i = close + 1;
    } else if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(input[i + 1] ?? ''))) {
      const m = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(input.slice(i));
      const text = m ? m[0] : ch;
      if (/[A-Za-z_]/.test(input[i + text.length] ?? '')) {
        throw new VisibilityQueryError(`invalid number at position ${i}`);
      }
      tokens.push({ kind: 'number', value: Number(text), isInt: /^\d+$/.test(text), text, pos: i });
      i += text.length;
    } else if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(input.slice(i));
      const text = m ? m[0] : ch;
      tokens.push({ kind: 'ident', text, quoted: false, pos: i });
      i += text.length;
    } else {
      const op = OPERATORS.find((o) => input.startsWith(o, i)) ?? (ch === '-' ? '-' : undefined);
      if (!op) throw new VisibilityQueryError(`unexpected character '${ch}' at position ${i}`);
      tokens.push({ kind: 'op', text: op === '<>' ? '!=' : op, pos: i });
      i += op.length;
    }
  }
  tokens.push({ kind: 'eof', pos: input.length });
  return tokens;
}

/** SQL-style string: the quote may be doubled or backslash-escaped, as Temporal's parser allows. */
function readQuoted(input: string, start: number, quote: string): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  while (i < input.length) {
    const ch = input[i];
    if (ch === '\\' && i + 1 < input.length) {
      const next = input[i + 1];
      value += ESCAPES[next] ?? next;
      i += 2;
    } else if (ch === quote) {
      if (input[i + 1] === quote) {
        value += quote;
        i += 2;
      } else {
        return { value, end: i + 1 };
      }
    } else {
      value += ch;
      i++;
    }
  }
  throw new VisibilityQueryError(`unterminated string starting at position ${start}`);
}
