/** Syntax tree of a list filter, before attribute names and value types are checked. */
export type Literal =
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'number'; value: number; isInt: boolean; pos: number }
  | { kind: 'bool'; value: boolean; pos: number };

export interface Column {
  name: string;
  pos: number;
}

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

export type Expr =
  | { type: 'and'; left: Expr; right: Expr }
  | { type: 'or'; left: Expr; right: Expr }
  | { type: 'not'; expr: Expr }
  | { type: 'compare'; column: Column; op: CompareOp; value: Literal }
  | { type: 'in'; column: Column; values: Literal[]; negated: boolean }
  | { type: 'between'; column: Column; low: Literal; high: Literal; negated: boolean }
  | { type: 'startsWith'; column: Column; value: Literal; negated: boolean }
  | { type: 'isNull'; column: Column; negated: boolean };

export interface OrderItem {
  column: Column;
  desc: boolean;
}

export interface ParsedQuery {
  where?: Expr;
  groupBy: Column[];
  orderBy: OrderItem[];
}
