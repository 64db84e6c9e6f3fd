//! Property: every message that can be made reads back as itself, whatever
//! text the moves and position texts were made from. Texts are drawn from an
//! alphabet heavy in what breaks a line protocol: every kind of Unicode
//! space, line breaks, control characters, and the protocol's own keywords.

use board_core::{Rng, Score};
use pretty_assertions::assert_eq;
use protocol::{
    EngineMessage, Go, GuiMessage, MoveToken, PositionBase, PositionText, Query, SearchInfo,
};

const PIECES: &[&str] = &[
    "a",
    "h8",
    "-",
    "x",
    ":",
    "/",
    "1",
    "W",
    "b",
    "пас",
    "(none)",
    "moves",
    "MOVES",
    "fen",
    "startpos",
    "searchmoves",
    "pv",
    "value",
    "name",
    " ",
    "  ",
    "\t",
    "\n",
    "\r",
    "\u{0}",
    "\u{7}",
    "\u{85}",
    "\u{a0}",
    "\u{1680}",
    "\u{2000}",
    "\u{2028}",
    "\u{2029}",
    "\u{202f}",
    "\u{3000}",
    "\u{feff}",
    "é",
];

fn text(rng: &mut Rng) -> String {
    (0..rng.below(6)).map(|_| *rng.choose(PIECES).unwrap_or(&"a")).collect()
}

/// `n` attempts at tokens from random texts: the ones that are made.
fn tokens(rng: &mut Rng, n: usize) -> Vec<MoveToken> {
    (0..n).filter_map(|_| MoveToken::new(text(rng)).ok()).collect()
}

fn round_trips_gui(message: &GuiMessage) {
    let line = message.to_string();
    assert!(!line.contains(['\n', '\r']), "{line:?} is more than one line");
    assert_eq!(line.parse::<GuiMessage>().as_ref(), Ok(message), "{line:?}");
}

fn round_trips_engine(message: &EngineMessage) {
    let line = message.to_string();
    assert!(!line.contains(['\n', '\r']), "{line:?} is more than one line");
    assert_eq!(line.parse::<EngineMessage>().as_ref(), Ok(message), "{line:?}");
}

#[test]
fn messages_made_of_checked_texts_read_back_as_themselves() {
    let mut rng = Rng::new(30);
    let (mut made, mut refused) = (0, 0);
    for _ in 0..20_000 {
        let raw = text(&mut rng);
        let Ok(mv) = MoveToken::new(raw.as_str()) else {
            refused += 1;
            // What is refused is exactly what would not read back as one
            // move: no word, several words, a control character, '(none)'.
            let words: Vec<&str> = raw.split_whitespace().collect();
            assert!(
                words.len() != 1
                    || words[0] != raw
                    || raw.contains(char::is_control)
                    || raw == "(none)",
                "{raw:?} was refused"
            );
            continue;
        };
        made += 1;
        assert_eq!(mv.as_str(), raw);
        let moves = tokens(&mut rng, 4);
        let base = match PositionText::new(&text(&mut rng)) {
            Ok(text) => PositionBase::Fen(text),
            Err(_) => PositionBase::StartPos,
        };
        for message in [
            GuiMessage::Position { base: base.clone(), moves: moves.clone() },
            GuiMessage::Position { base, moves: vec![mv.clone()] },
            GuiMessage::Query(Query::IsLegal(mv.clone())),
            GuiMessage::Go(Go { depth: Some(3), searchmoves: moves.clone(), ..Go::default() }),
        ] {
            round_trips_gui(&message);
        }
        round_trips_engine(&EngineMessage::BestMove(Some(mv.clone())));
        round_trips_engine(&EngineMessage::Info(SearchInfo {
            depth: Some(2),
            score: Some(Score::Cp(-3)),
            pv: [vec![mv], moves].concat(),
            ..SearchInfo::default()
        }));
    }
    // Both sides of the property were exercised.
    assert!(made > 1_000 && refused > 1_000, "made {made}, refused {refused}");
}

#[test]
fn a_position_text_reads_back_as_itself() {
    let mut rng = Rng::new(31);
    let mut made = 0;
    for _ in 0..20_000 {
        let raw = text(&mut rng);
        let Ok(fen) = PositionText::new(&raw) else { continue };
        made += 1;
        assert_eq!(fen.as_str(), raw.split_whitespace().collect::<Vec<_>>().join(" "));
        round_trips_gui(&GuiMessage::Position {
            base: PositionBase::Fen(fen),
            moves: tokens(&mut rng, 3),
        });
    }
    assert!(made > 1_000, "made {made}");
}

/// The way a person's two moves got played as one (issue 30): the words can
/// no longer be made into a move, and `query islegal` with two words is an
/// error, not a question about the first.
#[test]
fn two_moves_are_never_one() {
    for spaced in ["d2-d3 d7-d6", "d2-d3\u{a0}d7-d6", "d2-d3\u{2028}d7-d6", "d2-d3\u{3000}d7-d6"] {
        assert!(MoveToken::new(spaced).is_err(), "{spaced:?}");
        assert!(PositionText::new(&format!("8/8 w moves {spaced}")).is_err(), "{spaced:?}");
    }
    assert_eq!(
        "query islegal d2-d3 d7-d6".parse::<GuiMessage>().map_err(|e| e.to_string()),
        Err("query islegal: expected one move, found 2 words 'd2-d3 d7-d6'".to_owned())
    );
}
