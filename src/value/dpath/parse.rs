//! jsonpath-ng 1.8's grammar (`jsonpath_ng/parser.py`, the non-extended parser Deckhand's
//! `jsonpath_ng.parse` uses), parsed by precedence climbing into the same tree its PLY
//! parser builds. The LALR table resolves the grammar's conflicts this way (checked against
//! `parser.out` of jsonpath-ng 1.8.0):
//!
//! * binary operators, loosest first: `..`, `.`, `|`, `&`, `where`, `wherenot`, all
//!   left-associative (`$..a.b` is `$..(a.b)`, `$.a|b` is `$.(a|b)`);
//! * a bracket after a path applies to everything before it up to an enclosing `(`
//!   (`$..a[0]` is `($..a)[0]`);
//! * primaries: `$`, `` `this` ``, `` `parent` ``, names joined by `,`, `*`, a number (a
//!   name), `[n, ...]`, `[start:end:step]`, `[*]`, `['a', ...]`, `( path )`.
//!
//! Errors are jsonpath-ng's, worded as it words them (`Parse error at 1:4 near token b (ID)`).

use super::lex::{lex, Num, Tok, T};
use super::{Expr, PathError};

struct Parser {
    toks: Vec<Tok>,
    at: usize,
    /// The lexer's error after the last token.
    tail: Option<PathError>,
}

/// Parses a path as `jsonpath_ng.parse` does.
pub(super) fn parse(text: &str) -> Result<Expr, PathError> {
    let (toks, tail) = lex(text);
    let mut p = Parser { toks, at: 0, tail };
    let e = p.expr(0)?;
    match p.peek()? {
        None => Ok(e),
        Some(tok) => Err(p.error_at(tok)),
    }
}

fn precedence(t: &T) -> Option<u8> {
    Some(match t {
        T::DoubleDot => 1,
        T::Lit('.') => 2,
        T::Lit('|') => 3,
        T::Lit('&') => 4,
        T::Where => 5,
        T::WhereNot => 6,
        _ => return None,
    })
}

impl Parser {
    /// The next token, or the lexer's error once the tokens are used up.
    fn peek(&self) -> Result<Option<&Tok>, PathError> {
        match self.toks.get(self.at) {
            Some(t) => Ok(Some(t)),
            None => match &self.tail {
                Some(e) => Err(e.clone()),
                None => Ok(None),
            },
        }
    }

    /// Whether the next token is `t`.
    fn next_is(&self, t: &T) -> Result<bool, PathError> {
        Ok(self.peek()?.is_some_and(|tok| &tok.t == t))
    }

    /// Takes the next token (the parser never goes back).
    fn next(&mut self) -> Result<Tok, PathError> {
        self.peek()?.ok_or_else(end)?;
        let placeholder = Tok {
            t: T::Lit(' '),
            line: 0,
            col: 0,
            pos: 0,
        };
        let tok = std::mem::replace(&mut self.toks[self.at], placeholder);
        self.at += 1;
        Ok(tok)
    }

    fn error_at(&self, tok: &Tok) -> PathError {
        PathError::parse(
            "JsonPathParserError",
            format!(
                "Parse error at {}:{} near token {}",
                tok.line,
                tok.col,
                tok.describe()
            ),
        )
    }

    fn expect(&mut self, want: &T) -> Result<(), PathError> {
        let tok = self.next()?;
        if &tok.t == want {
            Ok(())
        } else {
            Err(self.error_at(&tok))
        }
    }

    fn expr(&mut self, min: u8) -> Result<Expr, PathError> {
        let mut left = self.primary()?;
        while let Some(tok) = self.peek()? {
            if tok.t == T::Lit('[') {
                if min > 0 {
                    break;
                }
                self.at += 1;
                left = Expr::Child(Box::new(left), Box::new(self.bracket()?));
                continue;
            }
            let Some(p) = precedence(&tok.t) else { break };
            if p < min {
                break;
            }
            let op = tok.t.clone();
            self.at += 1;
            let right = Box::new(self.expr(p + 1)?);
            let left_box = Box::new(left);
            left = match op {
                T::DoubleDot => Expr::Descendants(left_box, right),
                T::Lit('.') => Expr::Child(left_box, right),
                T::Lit('|') => Expr::Union(left_box, right),
                T::Lit('&') => Expr::Intersect(left_box, right),
                T::Where => Expr::Where(left_box, right),
                _ => Expr::WhereNot(left_box, right),
            };
        }
        Ok(left)
    }

    fn primary(&mut self) -> Result<Expr, PathError> {
        let tok = self.next()?;
        Ok(match tok.t {
            T::Lit('$') => Expr::Root,
            T::Lit('*') => Expr::Fields(vec!["*".into()]),
            T::Num(n) => Expr::Fields(vec![n.text]),
            T::Id(first) => Expr::Fields(self.names(first)?),
            T::Lit('[') => self.bracket()?,
            T::Lit('(') => {
                let e = self.expr(0)?;
                self.expect(&T::Lit(')'))?;
                e
            }
            T::Named(ref name) => {
                // PLY reduces `NAMED_OPERATOR` (and raises for an unknown one) only on a
                // lookahead that can follow a path; any other token is a parse error first.
                if let Some(next) = self.peek()? {
                    if !follows(&next.t) {
                        return Err(self.error_at(next));
                    }
                }
                match name.as_str() {
                    "this" => Expr::This,
                    "parent" => Expr::Parent,
                    _ => {
                        return Err(PathError::parse(
                            "JsonPathParserError",
                            format!(
                                "Unknown named operator `{name}` at {}:{}",
                                tok.line, tok.pos
                            ),
                        ))
                    }
                }
            }
            _ => return Err(self.error_at(&tok)),
        })
    }

    /// `ID (',' ID)*` after its first name.
    fn names(&mut self, first: String) -> Result<Vec<String>, PathError> {
        let mut names = vec![first];
        while self.next_is(&T::Lit(','))? {
            self.at += 1;
            let tok = self.next()?;
            match tok.t {
                T::Id(s) => names.push(s),
                _ => return Err(self.error_at(&tok)),
            }
        }
        Ok(names)
    }

    /// After `[`: `idx ']'`, `slice ']'` or `fields ']'`.
    fn bracket(&mut self) -> Result<Expr, PathError> {
        let e = if self.next_is(&T::Lit(':'))? {
            self.slice(None)?
        } else {
            let tok = self.next()?;
            match tok.t {
                T::Num(n) if self.next_is(&T::Lit(':'))? => self.slice(Some(n))?,
                T::Num(n) => {
                    let mut idx = vec![n];
                    while self.next_is(&T::Lit(','))? {
                        self.at += 1;
                        let tok = self.next()?;
                        match tok.t {
                            T::Num(n) => idx.push(n),
                            _ => return Err(self.error_at(&tok)),
                        }
                    }
                    Expr::Index(idx)
                }
                T::Lit('*') => Expr::Slice(None, None, None),
                T::Id(first) => Expr::Fields(self.names(first)?),
                _ => return Err(self.error_at(&tok)),
            }
        };
        self.expect(&T::Lit(']'))?;
        Ok(e)
    }

    /// `maybe_int ':' maybe_int (':' maybe_int)?` from its `:`.
    fn slice(&mut self, start: Option<Num>) -> Result<Expr, PathError> {
        self.expect(&T::Lit(':'))?;
        let end = self.maybe_int()?;
        let step = if self.next_is(&T::Lit(':'))? {
            self.at += 1;
            self.maybe_int()?
        } else {
            None
        };
        Ok(Expr::Slice(start, end, step))
    }

    fn maybe_int(&mut self) -> Result<Option<Num>, PathError> {
        if matches!(self.peek()?, Some(Tok { t: T::Num(_), .. })) {
            if let T::Num(n) = self.next()?.t {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }
}

/// The lookaheads on which the LALR table reduces a finished path.
fn follows(t: &T) -> bool {
    matches!(
        t,
        T::Lit('.' | '|' | '&' | '[' | ')') | T::DoubleDot | T::Where | T::WhereNot
    )
}

fn end() -> PathError {
    PathError::parse(
        "JsonPathParserError",
        "Parse error near the end of string!".into(),
    )
}
