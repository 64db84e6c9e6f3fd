//! The rules are the same for both colours and for both hands: turning the
//! board half a circle and swapping the colours, or mirroring it left to
//! right, must map the legal moves and the result of every position onto those
//! of the transformed position. This checks the geometry (which rows are
//! longer, which fields touch), the forward directions and the promotion rows
//! of Black against White's, independently of any hand-computed move list.

use board_core::{Cell as _, Game, Outcome, Player, Rng, Variant as _};
use hexdraughts::{Field, Move, Piece, Position, Setup, Variant};

/// The field seen from the other side of the board (turned half a circle).
fn turned(field: Field) -> Field {
    let row = 10 - field.row();
    let len = Field::all().filter(|f| f.row() == row).count() as u8;
    Field::new(row, len + 1 - field.number()).expect("the board is symmetric")
}

/// The field mirrored left to right in its row.
fn mirrored(field: Field) -> Field {
    let len = Field::all().filter(|f| f.row() == field.row()).count() as u8;
    Field::new(field.row(), len + 1 - field.number()).expect("the rows are symmetric")
}

fn map_setup(pos: &Position, map: fn(Field) -> Field, swap: bool) -> Position {
    let owner = |p: Player| if swap { p.other() } else { p };
    let setup = Setup {
        side_to_move: owner(pos.side_to_move()),
        pieces: pos
            .occupied()
            .map(|(field, piece)| (map(field), Piece::new(owner(piece.owner), piece.kind)))
            .collect(),
    };
    Position::from_setup(setup, pos.variant()).unwrap_or_else(|e| panic!("{pos}: {e}"))
}

/// The text of `mv` with every field mapped.
fn mapped_text(mv: &Move, map: fn(Field) -> Field) -> String {
    let separator = if mv.is_capture() { ":" } else { "-" };
    mv.fields().map(|f| map(f).to_string()).collect::<Vec<_>>().join(separator)
}

fn move_texts(pos: &Position, map: fn(Field) -> Field) -> Vec<String> {
    let mut texts: Vec<String> = pos.legal_moves().iter().map(|mv| mapped_text(mv, map)).collect();
    texts.sort();
    texts
}

fn outcome_mapped(outcome: Option<Outcome>, swap: bool) -> Option<(Option<Player>, String)> {
    outcome.map(|o| {
        let winner = o.winner.map(|p| if swap { p.other() } else { p });
        (winner, o.reason.to_owned())
    })
}

fn check(pos: &Position) {
    let identity: fn(Field) -> Field = |f| f;
    for (map, swap) in [(turned as fn(Field) -> Field, true), (mirrored, false)] {
        let image = map_setup(pos, map, swap);
        assert_eq!(move_texts(pos, map), move_texts(&image, identity), "{pos} vs {image}");
        assert_eq!(
            outcome_mapped(pos.outcome(), swap),
            outcome_mapped(image.outcome(), false),
            "{pos} vs {image}"
        );
        for mv in pos.legal_moves() {
            let mut after = *pos;
            after.play_unchecked(mv);
            let mut image_after = image;
            let text = mapped_text(&mv, map);
            image_after.play_text(&text).unwrap_or_else(|e| panic!("{text} in {image}: {e}"));
            assert_eq!(map_setup(&after, map, swap), image_after, "{mv} in {pos}");
        }
    }
}

#[test]
fn the_rules_positions_look_the_same_for_black_and_mirrored() {
    for text in [
        "W:WG8:BA1",
        "W:WI3:BH3,F4",
        "W:WE5:BF5,A1",
        "W:WKG2:BA5",
        "W:WKK4:BH4,E5,F8",
        "W:WKF5:BD5,B4,C3,H5",
        "W:WKD3:BF5,F7,D6,H3",
        "W:WC3,J5:BB3,D6,F5,KA5",
        "W:WF5:BE4,E5,C3,C4",
        "W:WJ1:BI1,I2,H1,H3",
        "B:WE4:B",
        "W:WC1,C2,C3,C4,C5,C6,C7,D1,D2,D3,D4,D5,D6,D7,D8:BA1,A2,A3,A4,A5,B1,B2,B3,B4,B5,B6",
    ] {
        for &variant in Variant::ALL {
            check(&Position::from_text(text, variant).unwrap_or_else(|e| panic!("{text}: {e}")));
        }
    }
    check(&Position::default());
}

#[test]
fn random_games_look_the_same_for_black_and_mirrored() {
    let mut rng = Rng::new(31);
    for _ in 0..12 {
        let mut pos = Position::default();
        for _ in 0..100 {
            check(&pos);
            let moves = pos.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            pos.play_unchecked(mv);
        }
    }
}

#[test]
fn the_start_position_is_symmetric() {
    let start = Position::default();
    assert_eq!(
        map_setup(&start, turned, true).to_string(),
        start.to_string().replacen('W', "B", 1)
    );
    assert_eq!(map_setup(&start, mirrored, false), start);
}
