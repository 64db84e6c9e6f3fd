//! Move text: the full notation (`g3-h4`, `c5:e3:c1:a3`) and the short form
//! of published records (`gh4`, `h:f6`), read in two stages.

use std::fmt;
use std::str::FromStr;

use board_core::{Game, IllegalMoveError, MoveSyntaxError};

use crate::board::square_error;
use crate::{MAX_LANDINGS, Move, Position, Square};

/// Annotations of published records, ignored at the end of a move:
/// `Д.` (becomes a king), `Пр.` (becomes a man again), `!`, `?`.
const ANNOTATIONS: &[&str] = &["Д.", "Пр.", "Д", "Пр", "!", "?"];

/// A move as read from text, before it is checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveText {
    /// Full notation: `g3-h4`, or a capture with every landing square
    /// `c5:e3:c1`. A two-square capture `c5:a3` that is not itself legal is
    /// also read as "the capture from c5 that ends on a3".
    Full(Move),
    /// Short quiet move `gh4`: from the g-file to h4.
    ShortQuiet {
        /// Zero-based file the column comes from.
        from_file: u8,
        /// Where it goes.
        to: Square,
    },
    /// Short capture `h:f6`: from the h-file, ending on f6.
    ShortCapture {
        /// Zero-based file the column comes from.
        from_file: u8,
        /// Where the capture ends.
        to: Square,
    },
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveText::Full(mv) => mv.fmt(f),
            MoveText::ShortQuiet { from_file, to } => write!(f, "{}{to}", file_letter(from_file)),
            MoveText::ShortCapture { from_file, to } => {
                write!(f, "{}:{to}", file_letter(from_file))
            }
        }
    }
}

fn file_letter(file: u8) -> char {
    char::from(b'a' + file % 8)
}

/// The file of a one-letter text `a`..`h`.
fn file_of(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [c @ b'a'..=b'h'] => Some(c - b'a'),
        _ => None,
    }
}

/// The move itself: without a leading move number (`12.`) or trailing
/// annotations.
fn strip_decorations(text: &str) -> &str {
    let mut core = text.trim();
    let number_end = core.find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
    if number_end > 0
        && let Some(rest) = core.get(number_end..).and_then(|r| r.strip_prefix('.'))
    {
        core = rest.trim_start_matches('.').trim_start();
    }
    loop {
        core = core.trim_end();
        match ANNOTATIONS.iter().find_map(|a| core.strip_suffix(a)) {
            Some(rest) => core = rest,
            None => return core,
        }
    }
}

impl FromStr for MoveText {
    type Err = MoveSyntaxError;

    fn from_str(text: &str) -> Result<MoveText, MoveSyntaxError> {
        let err = |reason: String| MoveSyntaxError::new(text, reason);
        let square = |name: &str| name.parse::<Square>().map_err(|e| err(square_error(&e)));
        let core = strip_decorations(text);
        if core.is_empty() {
            return Err(err("no move given".to_owned()));
        }
        if core.contains(char::is_whitespace) {
            return Err(err("a move is one word, e.g. g3-h4 or c5:e3".to_owned()));
        }
        if let Some((from, to)) = core.split_once('-') {
            return Ok(MoveText::Full(Move::quiet(square(from)?, square(to)?)));
        }
        if let Some((first, rest)) = core.split_once(':') {
            if let Some(from_file) = file_of(first) {
                return Ok(MoveText::ShortCapture { from_file, to: square(rest)? });
            }
            let from = square(first)?;
            let landings = rest.split(':').map(square).collect::<Result<Vec<_>, _>>()?;
            return Move::capture(from, &landings).map(MoveText::Full).ok_or_else(|| {
                err(format!("a capture has at most {MAX_LANDINGS} landing squares"))
            });
        }
        let mut chars = core.chars();
        if let (Some(c @ 'a'..='h'), Ok(to)) = (chars.next(), chars.as_str().parse::<Square>()) {
            return Ok(MoveText::ShortQuiet { from_file: c as u8 - b'a', to });
        }
        Err(err("expected a move like g3-h4, c5:e3:c1, gh4 or h:f6".to_owned()))
    }
}

impl MoveText {
    /// The legal move this text names in `pos`.
    pub(crate) fn resolve(&self, pos: &Position) -> Result<Move, IllegalMoveError> {
        let legal = pos.legal_moves();
        let text = self.to_string();
        let candidates: Vec<Move> = match *self {
            MoveText::Full(mv) if legal.contains(&mv) => return Ok(mv),
            MoveText::Full(mv) if mv.is_capture() && mv.len() == 1 => legal
                .iter()
                .copied()
                .filter(|m| m.is_capture() && m.from() == mv.from() && m.to() == mv.to())
                .collect(),
            MoveText::Full(mv) => {
                return Err(IllegalMoveError::not_legal(text, why(pos, mv, &legal)));
            }
            MoveText::ShortQuiet { from_file, to } | MoveText::ShortCapture { from_file, to } => {
                let capture = matches!(self, MoveText::ShortCapture { .. });
                legal
                    .iter()
                    .copied()
                    .filter(|m| {
                        m.is_capture() == capture && m.from().file() == from_file && m.to() == to
                    })
                    .collect()
            }
        };
        match candidates.as_slice() {
            [mv] => Ok(*mv),
            [] => {
                let reason = match *self {
                    MoveText::Full(mv) => why(pos, mv, &legal),
                    MoveText::ShortQuiet { .. } if legal.iter().any(|m| m.is_capture()) => {
                        "a capture is compulsory".to_owned()
                    }
                    MoveText::ShortQuiet { from_file, to } => format!(
                        "no column can step from the {}-file to {to}",
                        file_letter(from_file)
                    ),
                    MoveText::ShortCapture { from_file, to } => {
                        format!("no capture from the {}-file ends on {to}", file_letter(from_file))
                    }
                };
                Err(IllegalMoveError::not_legal(text, reason))
            }
            several => Err(IllegalMoveError::Ambiguous {
                text,
                candidates: several.iter().map(ToString::to_string).collect(),
            }),
        }
    }
}

/// Why the full-notation move `mv` is not legal in `pos`.
fn why(pos: &Position, mv: Move, legal: &[Move]) -> String {
    let from = mv.from();
    let Some(top) = pos.column(from).top() else {
        return format!("no column on {from}");
    };
    if top.color != pos.turn() {
        return format!(
            "the column on {from} is {}'s and {} is to move",
            top.color.name(),
            pos.turn().name()
        );
    }
    let must_capture = legal.iter().any(|m| m.is_capture());
    if !mv.is_capture() {
        return if top.king {
            format!("the column on {from} is topped by a king, and kings only capture")
        } else if must_capture {
            "a capture is compulsory".to_owned()
        } else {
            format!("{} is not a step forward to an empty square", mv)
        };
    }
    let from_here: Vec<&Move> =
        legal.iter().filter(|m| m.is_capture() && m.from() == from).collect();
    if from_here.is_empty() {
        return format!("the column on {from} has no capture");
    }
    let path: Vec<Square> = mv.landings().collect();
    let continues = from_here
        .iter()
        .any(|m| m.len() > path.len() && m.landings().zip(&path).all(|(a, &b)| a == b));
    match path.last() {
        Some(last) if continues => format!("the capture must go on from {last}"),
        _ => format!("no capture from {from} takes that path"),
    }
}
