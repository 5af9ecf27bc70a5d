//! Tokenizer for the query language.

use std::collections::HashMap;
use std::fmt::{self, Display};
use crate::error::Error as QueryError;

/// The longest token accepted.
pub const MAX_TOKEN: usize = 256;
static mut COUNTER: u32 = 0;

/// One lexical token.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub kind: Kind,
    pub text: String,
    span: (usize, usize),
}

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    Word,
    Number,
    Symbol(char),
}

/// Something that yields tokens.
pub trait Source: Iterator<Item = Token> {
    /// The next token without consuming it.
    fn peek(&mut self) -> Option<&Token>;
    fn position(&self) -> usize {
        0
    }
}

pub type Table = HashMap<String, Kind>;

pub struct Lexer<'a> {
    input: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    /// Makes a lexer over input.
    pub fn new(input: &'a str) -> Self {
        Lexer { input, pos: 0 }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.input[self.pos..].chars().next()?;
        self.pos += c.len_utf8();
        Some(c)
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Token;

    fn next(&mut self) -> Option<Token> {
        let c = self.bump()?;
        let kind = classify(c);
        Some(Token { kind, text: c.to_string(), span: (self.pos - 1, self.pos) })
    }
}

impl Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.text)
    }
}

fn classify(c: char) -> Kind {
    if c.is_alphabetic() {
        Kind::Word
    } else if c.is_numeric() {
        Kind::Number
    } else {
        Kind::Symbol(c)
    }
}

/// Tokenizes all of input.
pub fn tokenize(input: &str) -> Result<Vec<Token>, QueryError> {
    let tokens: Vec<Token> = Lexer::new(input).collect();
    if tokens.len() > MAX_TOKEN {
        return Err(QueryError::TooLong(tokens.len()));
    }
    Ok(tokens)
}

macro_rules! token {
    ($k:expr, $t:expr) => {
        Token { kind: $k, text: $t.to_string(), span: (0, 0) }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert_eq!(tokenize("a").unwrap().len(), 1);
    }
}
