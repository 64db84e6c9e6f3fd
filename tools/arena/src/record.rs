//! The record of a finished game: its JSONL form and its PGN-style form.

use std::fmt::{self, Write as _};

use board_core::Score;
use serde::{Deserialize, Serialize};

use crate::schedule::Pairing;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Termination {
    /// The rules ended it.
    #[serde(rename = "normal")]
    Normal,
    /// The ply cap was reached; the game's adjudication decided.
    #[serde(rename = "max plies")]
    MaxPlies,
    /// An engine ran out of time (beyond the margin): it loses.
    #[serde(rename = "time forfeit")]
    TimeForfeit,
    /// An engine played an illegal or unreadable move: it loses.
    #[serde(rename = "illegal move")]
    IllegalMove,
    /// An engine's process died or closed its pipes: it loses.
    #[serde(rename = "disconnect")]
    Disconnect,
    /// An engine did not answer `ugi`/`isready` in time: it loses.
    #[serde(rename = "stall")]
    Stall,
    /// An engine wrote what is not the protocol: it loses.
    #[serde(rename = "garbage output")]
    GarbageOutput,
    /// The arena ended the game early: by the engines' scores (`--draw`,
    /// `--resign`) or by the game's exact table (`--tb`).
    #[serde(rename = "adjudication")]
    Adjudication,
}

impl Termination {
    /// Every termination.
    pub const ALL: [Termination; 8] = [
        Termination::Normal,
        Termination::MaxPlies,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Disconnect,
        Termination::Stall,
        Termination::GarbageOutput,
        Termination::Adjudication,
    ];

    /// The name in records and tables.
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::MaxPlies => "max plies",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Disconnect => "disconnect",
            Termination::Stall => "stall",
            Termination::GarbageOutput => "garbage output",
            Termination::Adjudication => "adjudication",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A finished game, as one JSONL line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Index in the whole schedule, from 0.
    pub id: u64,
    /// Round, from 1.
    pub round: u32,
    /// The colour-swapped pair (`id / 2`).
    pub pair: u64,
    /// The game's name.
    pub game: String,
    /// Its variant.
    pub variant: String,
    /// The tournament's fingerprint: a hash of everything that decides its
    /// games (game, variant, engines and limits, rounds, pairing, openings,
    /// seed, ply cap), the same in every shard. Empty only in records of
    /// older arenas, which `merge` and resume refuse.
    #[serde(default)]
    pub tournament: String,
    /// The ply cap the game was played under (plies from the base position,
    /// opening included; 0: none). `None` only in records of older arenas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_plies: Option<u32>,
    /// The tournament's engines, rounds and pairing, from which its whole
    /// schedule follows. `None` only in records of older arenas, which
    /// `merge` and resume refuse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairing: Option<Pairing>,
    /// The colour names, first player first.
    pub colours: [String; 2],
    /// The engine playing first.
    pub p1: String,
    /// The engine playing second.
    pub p2: String,
    /// The opening, as the protocol writes it (`startpos moves ...` or `fen ...`).
    pub opening: String,
    /// The base position text, when it is not the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// How many of `moves` are the opening's.
    pub opening_plies: u32,
    /// The base position has the second player to move (the movetext then
    /// starts `1...`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub second_moves_first: bool,
    /// Every move from the base position, opening included, in the game's notation.
    pub moves: Vec<String>,
    /// `1-0`, `0-1` or `1/2-1/2`, from the first player's side.
    pub result: String,
    /// Final points of the first and second player, for games with a score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<[u32; 2]>,
    /// Why the game ended.
    pub termination: Termination,
    /// The details: the rules' reason, or what the engine did wrong.
    pub reason: String,
    /// Engines whose `query result` disagreed with the referee, with their answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub disagreements: Vec<String>,
    /// Wall-clock duration in milliseconds.
    pub duration_ms: u64,
    /// What each engine said of its moves (every move after the opening's,
    /// in order): its score, depth and time. Empty in records of older
    /// arenas.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evals: Vec<MoveEval>,
}

/// What an engine said of one of its moves: the score and depth of its last
/// `info` before `bestmove` and the time the arena measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveEval {
    /// The score from the mover's side, as the protocol writes it (`cp 35`,
    /// `win 5`, `loss 4`); none when the engine reported none.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "score_text")]
    pub score: Option<Score>,
    /// The depth it reported, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Milliseconds from `go` to `bestmove`.
    pub ms: u64,
}

impl MoveEval {
    /// The move's PGN comment as cutechess-cli writes it: `+0.35/12 0.105s`
    /// (score in pawns from the mover's side, `+M3`/`-M2` for a proven win
    /// or loss in moves, `/depth`, time in seconds); without a score only
    /// the time.
    pub fn comment(&self) -> String {
        let time = format!("{:.3}s", self.ms as f64 / 1000.0);
        let Some(score) = self.score else { return time };
        let score = match score {
            Score::Cp(0) => "0.00".to_owned(),
            Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            Score::Win(plies) => format!("+M{}", plies.div_ceil(2)),
            Score::Loss(plies) => format!("-M{}", plies / 2),
        };
        format!("{score}/{} {time}", self.depth.unwrap_or(0))
    }
}

/// A score as its protocol text (`cp 35`, `win 5`, `loss 4`) in JSON.
mod score_text {
    use board_core::Score;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    #[allow(clippy::ref_option)] // serde's `with` hands the field by reference
    pub(super) fn serialize<S: Serializer>(score: &Option<Score>, s: S) -> Result<S::Ok, S::Error> {
        match score {
            Some(score) => s.collect_str(score),
            None => s.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Score>, D::Error> {
        let Some(text) = Option::<String>::deserialize(d)? else { return Ok(None) };
        let bad = || D::Error::custom(format!("score '{text}' is not cp N, win N or loss N"));
        let (kind, value) = text.split_once(' ').ok_or_else(bad)?;
        Ok(Some(match kind {
            "cp" => Score::Cp(value.parse().map_err(|_| bad())?),
            "win" => Score::Win(value.parse().map_err(|_| bad())?),
            "loss" => Score::Loss(value.parse().map_err(|_| bad())?),
            _ => return Err(bad()),
        }))
    }
}

impl GameRecord {
    /// Points of the first player: 1, ½ or 0.
    pub fn p1_points(&self) -> f64 {
        match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        }
    }

    /// The plies played from the base position, opening included.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Whether the first player is White in standard PGN's sense: the
    /// player whose colour is named `White`, or, in a game without one (tic-
    /// tac-toe's X and O), the first player. In focus the first player is
    /// Black.
    fn white_is_p1(&self) -> bool {
        self.colours[1] != "White"
    }

    /// The result as standard PGN has it (`[Result]` and the movetext's
    /// end): from White's side ([`GameRecord::white_is_p1`]), which `result`
    /// is not where the first player is Black.
    fn white_result(&self) -> &str {
        match self.result.as_str() {
            "1-0" if !self.white_is_p1() => "0-1",
            "0-1" if !self.white_is_p1() => "1-0",
            result => result,
        }
    }

    /// The record in PGN style: tags (`White`, `Black` and `Result` as
    /// rating tools read them), then the numbered movetext (two plies a
    /// move number, opening moves in a leading comment-free run) and the
    /// result.
    pub fn pgn(&self, event: &str) -> String {
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), event.into()),
            ("Game".into(), self.game.clone()),
            ("Variant".into(), self.variant.clone()),
            ("Round".into(), self.round.to_string()),
            ("P1".into(), self.p1.clone()),
            ("P2".into(), self.p2.clone()),
        ];
        for (colour, engine) in self.colours.iter().zip([&self.p1, &self.p2]) {
            let tag = capitalised(colour);
            if !["P1", "P2", "White", "Black"].contains(&tag.as_str()) && is_tag_name(&tag) {
                tags.push((tag, engine.clone()));
            }
        }
        let result = self.white_result();
        let (white, black) =
            if self.white_is_p1() { (&self.p1, &self.p2) } else { (&self.p2, &self.p1) };
        tags.push(("White".into(), white.clone()));
        tags.push(("Black".into(), black.clone()));
        tags.push(("Result".into(), result.to_owned()));
        if let Some([a, b]) = self.score {
            tags.push(("Score".into(), format!("{a}-{b}")));
        }
        tags.push(("Termination".into(), self.termination.name().into()));
        tags.push(("PlyCount".into(), self.plies().to_string()));
        if let Some(cap) = self.max_plies {
            tags.push(("MaxPlies".into(), cap.to_string()));
        }
        tags.push(("Opening".into(), self.opening.clone()));
        if let Some(fen) = &self.fen {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), fen.clone()));
        }
        let mut out = String::new();
        for (name, value) in tags {
            let _ = writeln!(out, "[{name} \"{}\"]", escape(&value));
        }
        out.push('\n');
        let mut line = String::new();
        let mut words: Vec<String> = Vec::new();
        let offset = usize::from(self.second_moves_first);
        let opening = self.opening_plies as usize;
        for (i, mv) in self.moves.iter().enumerate() {
            let ply = i + offset;
            if ply % 2 == 0 {
                words.push(format!("{}.", ply / 2 + 1));
            } else if i == 0 {
                words.push("1...".to_owned());
            }
            words.push(mv.clone());
            if let Some(eval) = i.checked_sub(opening).and_then(|k| self.evals.get(k)) {
                words.push(format!("{{{}}}", eval.comment()));
            }
        }
        words.push(format!("{{{}: {}}}", self.termination, self.reason.replace('}', ")")));
        words.push(result.to_owned());
        for word in words {
            if !line.is_empty() && line.len() + 1 + word.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn is_tag_name(word: &str) -> bool {
    !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}
