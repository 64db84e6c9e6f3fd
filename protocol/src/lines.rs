//! Lines of text read with a length limit, so input without a line end (a
//! pipe from `/dev/zero`, a corrupt file) cannot fill the memory.

use std::error::Error;
use std::fmt;
use std::io::{self, BufRead};

/// The longest line [`Lines::new`] accepts: 1 MiB, line end excluded.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Why a line could not be read.
#[derive(Debug)]
pub enum LineError {
    /// The line (numbered from 1) is longer than the limit. The iterator skips
    /// the rest of it before it reads the next line.
    TooLong {
        /// The line's number.
        line: u64,
        /// The limit in bytes.
        limit: usize,
    },
    /// The line (numbered from 1) is not UTF-8.
    NotUtf8 {
        /// The line's number.
        line: u64,
    },
    /// Reading failed.
    Io(io::Error),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::TooLong { line, limit } => {
                write!(f, "line {line} is longer than {limit} bytes")
            }
            LineError::NotUtf8 { line } => write!(f, "line {line} is not UTF-8 text"),
            LineError::Io(e) => write!(f, "reading failed: {e}"),
        }
    }
}

impl Error for LineError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            LineError::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// The lines of a reader, like [`BufRead::lines`] (`\n` or `\r\n` removed)
/// but each at most `limit` bytes long. An over-long line is reported as soon
/// as the limit is passed, without waiting for its end.
///
/// ```
/// use protocol::Lines;
/// let mut lines = Lines::with_limit("ugi\nisready\r\n".as_bytes(), 16);
/// assert_eq!(lines.next().unwrap().unwrap(), "ugi");
/// assert_eq!(lines.next().unwrap().unwrap(), "isready");
/// assert!(lines.next().is_none());
/// assert!(Lines::with_limit("x".repeat(17).as_bytes(), 16).next().unwrap().is_err());
/// ```
#[derive(Debug)]
pub struct Lines<R> {
    reader: R,
    limit: usize,
    number: u64,
    /// The rest of an over-long line is still to be skipped.
    skipping: bool,
}

impl<R: BufRead> Lines<R> {
    /// Lines of at most [`MAX_LINE_BYTES`].
    pub fn new(reader: R) -> Self {
        Lines::with_limit(reader, MAX_LINE_BYTES)
    }

    /// Lines of at most `limit` bytes.
    pub fn with_limit(reader: R, limit: usize) -> Self {
        Lines { reader, limit, number: 0, skipping: false }
    }

    /// The number of the last line returned (from 1; 0 before the first).
    pub fn line_number(&self) -> u64 {
        self.number
    }

    /// Consumes input up to and including the next line end; `true` when one
    /// was found, `false` at the end of input.
    fn skip_line(&mut self) -> io::Result<bool> {
        loop {
            let chunk = self.reader.fill_buf()?;
            if chunk.is_empty() {
                return Ok(false);
            }
            let (take, found) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            self.reader.consume(take);
            if found {
                return Ok(true);
            }
        }
    }

    fn read_line(&mut self) -> Result<Option<String>, LineError> {
        if self.skipping {
            if !self.skip_line().map_err(LineError::Io)? {
                return Ok(None);
            }
            self.skipping = false;
        }
        let mut line = Vec::new();
        loop {
            let chunk = self.reader.fill_buf().map_err(LineError::Io)?;
            if chunk.is_empty() {
                if line.is_empty() {
                    return Ok(None);
                }
                break;
            }
            let (take, found) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            line.extend_from_slice(&chunk[..take]);
            self.reader.consume(take);
            if line.len() - usize::from(found) > self.limit {
                self.number += 1;
                self.skipping = !found;
                return Err(LineError::TooLong { line: self.number, limit: self.limit });
            }
            if found {
                break;
            }
        }
        self.number += 1;
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        String::from_utf8(line).map(Some).map_err(|_| LineError::NotUtf8 { line: self.number })
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Result<String, LineError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.read_line() {
            Ok(line) => line.map(Ok),
            Err(LineError::Io(e)) if e.kind() == io::ErrorKind::Interrupted => self.next(),
            Err(e) => Some(Err(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{LineError, Lines};

    fn read(text: &[u8], limit: usize) -> Vec<Result<String, String>> {
        Lines::with_limit(text, limit)
            .map(|line| line.map_err(|e| e.to_string()))
            .collect::<Vec<_>>()
    }

    #[test]
    fn lines_end_with_newline_or_crlf_or_the_input() {
        assert_eq!(
            read(b"a\r\nbb\n\nccc", 8),
            vec![Ok("a".into()), Ok("bb".into()), Ok(String::new()), Ok("ccc".into())]
        );
    }

    #[test]
    fn a_line_at_the_limit_is_read_and_a_longer_one_refused_then_skipped() {
        assert_eq!(
            read(b"1234\n12345\nok\n123\r\n", 4),
            vec![
                Ok("1234".into()),
                Err("line 2 is longer than 4 bytes".into()),
                Ok("ok".into()),
                Ok("123".into()),
            ]
        );
    }

    #[test]
    fn an_endless_line_is_refused_without_reading_it_all() {
        let mut lines = Lines::with_limit(std::io::BufReader::new(std::io::repeat(0)), 1000);
        assert!(matches!(lines.next(), Some(Err(LineError::TooLong { line: 1, limit: 1000 }))));
    }

    #[test]
    fn bytes_that_are_not_utf8_are_refused_with_the_line_number() {
        assert_eq!(read(b"ok\n\xff\xfe\n", 8)[1], Err("line 2 is not UTF-8 text".into()));
    }
}
