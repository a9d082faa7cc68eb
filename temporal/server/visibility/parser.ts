import type { Column, CompareOp, Expr, Literal, OrderItem, ParsedQuery } from './ast';
import { VisibilityQueryError } from './errors';
import { tokenize, type Token } from './lexer';

const RESERVED = new Set([
  'AND', 'OR', 'NOT', 'IN', 'BETWEEN', 'STARTS_WITH', 'IS', 'NULL', 'ORDER', 'BY', 'ASC', 'DESC',
  'TRUE', 'FALSE', 'LIKE', 'LIMIT', 'GROUP', 'SELECT', 'FROM', 'WHERE', 'HAVING', 'OFFSET',
]);
const COMPARE_OPS = new Set(['=', '!=', '<', '<=', '>', '>=']);
/** Deep enough for any real filter; stops stack exhaustion on hostile input. */
const MAX_DEPTH = 100;

/** Recursive-descent parser: OR binds looser than AND, AND looser than NOT, as in SQL. */
export function parseQuery(input: string): ParsedQuery {
  return new Parser(tokenize(input)).parseQuery();
}

class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parseQuery(): ParsedQuery {
    let where: Expr | undefined;
    if (!this.atEnd() && !this.isWord('ORDER') && !this.isWord('GROUP')) where = this.parseOr();
    const groupBy = this.isWord('GROUP') ? this.parseGroupBy() : [];
    const orderBy = this.isWord('ORDER') ? this.parseOrderBy() : [];
    const tok = this.peek();
    if (tok.kind !== 'eof') {
      if (this.isWord('LIMIT')) throw new VisibilityQueryError('LIMIT is not supported: use the page size');
      for (const word of ['ORDER', 'GROUP']) {
        if (this.isWord(word)) throw new VisibilityQueryError(`${word} BY is misplaced (position ${tok.pos}): the order is filter, GROUP BY, ORDER BY`);
      }
      throw this.unexpected('AND, OR, GROUP BY, ORDER BY or the end of the query');
    }
    return { where, groupBy, orderBy };
  }

  private parseGroupBy(): Column[] {
    this.expectWord('GROUP');
    this.expectWord('BY');
    const columns = [this.parseColumn()];
    while (this.acceptOp(',')) columns.push(this.parseColumn());
    return columns;
  }

  private parseOr(): Expr {
    let left = this.parseAnd();
    while (this.acceptWord('OR')) left = { type: 'or', left, right: this.parseAnd() };
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseNot();
    while (this.acceptWord('AND')) left = { type: 'and', left, right: this.parseNot() };
    return left;
  }

  private parseNot(): Expr {
    if (++this.depth > MAX_DEPTH) throw new VisibilityQueryError(`query is nested more than ${MAX_DEPTH} levels deep`);
    try {
      if (this.acceptWord('NOT')) return { type: 'not', expr: this.parseNot() };
      if (this.acceptOp('(')) {
        const inner = this.parseOr();
        this.expectOp(')');
        return inner;
      }
      return this.parsePredicate();
    } finally {
      this.depth--;
    }
  }

  private parsePredicate(): Expr {
    const column = this.parseColumn();
    const tok = this.peek();
    if (tok.kind === 'op' && COMPARE_OPS.has(tok.text)) {
      this.i++;
      if (this.isWord('NULL')) {
        throw new VisibilityQueryError(`use IS NULL / IS NOT NULL instead of '${tok.text} NULL' (position ${tok.pos})`);
      }
      return { type: 'compare', column, op: tok.text as CompareOp, value: this.parseLiteral() };
    }
    if (this.acceptWord('IS')) {
      const negated = this.acceptWord('NOT');
      this.expectWord('NULL');
      return { type: 'isNull', column, negated };
    }
    const negated = this.acceptWord('NOT');
    if (this.acceptWord('IN')) {
      this.expectOp('(');
      const values = [this.parseLiteral()];
      while (this.acceptOp(',')) values.push(this.parseLiteral());
      this.expectOp(')');
      return { type: 'in', column, values, negated };
    }
    if (this.acceptWord('BETWEEN')) {
      const low = this.parseLiteral();
      this.expectWord('AND');
      return { type: 'between', column, low, high: this.parseLiteral(), negated };
    }
    if (this.acceptWord('STARTS_WITH')) return { type: 'startsWith', column, value: this.parseLiteral(), negated };
    if (this.isWord('LIKE')) throw new VisibilityQueryError(`operator LIKE is not supported (position ${this.peek().pos}); use STARTS_WITH`);
    throw this.unexpected(`an operator after '${column.name}'`);
  }

  private parseOrderBy(): OrderItem[] {
    this.expectWord('ORDER');
    this.expectWord('BY');
    const items: OrderItem[] = [];
    do {
      const column = this.parseColumn();
      const desc = this.acceptWord('DESC');
      if (!desc) this.acceptWord('ASC');
      items.push({ column, desc });
    } while (this.acceptOp(','));
    return items;
  }

  private parseColumn(): Column {
    const tok = this.peek();
    if (tok.kind === 'ident' && (tok.quoted || !RESERVED.has(tok.text.toUpperCase()))) {
      this.i++;
      return { name: tok.text, pos: tok.pos };
    }
    if (tok.kind === 'string' || tok.kind === 'number') {
      throw new VisibilityQueryError(`expected a search attribute name at position ${tok.pos}; the attribute must be on the left of the operator`);
    }
    throw this.unexpected('a search attribute name');
  }

  private parseLiteral(): Literal {
    const tok = this.peek();
    if (tok.kind === 'string') {
      this.i++;
      return { kind: 'string', value: tok.value, pos: tok.pos };
    }
    if (tok.kind === 'op' && tok.text === '-') {
      const num = this.tokens[this.i + 1];
      if (num.kind !== 'number') throw this.unexpected('a number after -');
      this.i += 2;
      return { kind: 'number', value: -num.value, isInt: num.isInt, pos: tok.pos };
    }
    if (tok.kind === 'number') {
      this.i++;
      return { kind: 'number', value: tok.value, isInt: tok.isInt, pos: tok.pos };
    }
    if (tok.kind === 'ident' && !tok.quoted && /^(true|false)$/i.test(tok.text)) {
      this.i++;
      return { kind: 'bool', value: tok.text.toLowerCase() === 'true', pos: tok.pos };
    }
    if (tok.kind === 'ident' && !RESERVED.has(tok.text.toUpperCase())) {
      throw new VisibilityQueryError(`expected a value at position ${tok.pos} but found name '${tok.text}'; quote string values`);
    }
    throw this.unexpected('a value (quoted string, number, true or false)');
  }

  private peek(): Token {
    return this.tokens[this.i];
  }

  private atEnd(): boolean {
    return this.peek().kind === 'eof';
  }

  private isWord(word: string): boolean {
    const tok = this.peek();
    return tok.kind === 'ident' && !tok.quoted && tok.text.toUpperCase() === word;
  }

  private acceptWord(word: string): boolean {
    if (!this.isWord(word)) return false;
    this.i++;
    return true;
  }

  private expectWord(word: string): void {
    if (!this.acceptWord(word)) throw this.unexpected(word);
  }

  private acceptOp(op: string): boolean {
    const tok = this.peek();
    if (tok.kind !== 'op' || tok.text !== op) return false;
    this.i++;
    return true;
  }

  private expectOp(op: string): void {
    if (!this.acceptOp(op)) throw this.unexpected(`'${op}'`);
  }

  private unexpected(expected: string): VisibilityQueryError {
    const tok = this.peek();
    return new VisibilityQueryError(`expected ${expected} at position ${tok.pos} but found ${describe(tok)}`);
  }
}

function describe(tok: Token): string {
  switch (tok.kind) {
    case 'eof':
      return 'the end of the query';
    case 'string':
      return `string '${tok.value}'`;
    case 'number':
      return `number ${tok.text}`;
    case 'ident':
      return `'${tok.text}'`;
    case 'op':
      return `'${tok.text}'`;
  }
}
