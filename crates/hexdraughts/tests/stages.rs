//! The staged generators search uses instead of all the moves at once: the
//! table move decoded from its code, then the tactical moves, then the quiet
//! ones. Search visits the same nodes only if the stages hand out the same
//! moves in the same order as filtering all the moves, so these compare
//! them in order, over the positions of seeded random games (captures,
//! promotions, kings' slides and king captures all come up).

use board_core::{Game, Rng, Variant as _};
use hexdraughts::{Move, Position, Variant};

/// Every position of `games` seeded random games from the start of each
/// variant, to the ply cap, and a few of the conformance suite's.
fn positions(games: u32) -> Vec<Position> {
    let mut all = Vec::new();
    let mut rng = Rng::new(34);
    for &variant in Variant::ALL {
        for _ in 0..games {
            let mut pos = Position::start(variant);
            for _ in 0..Position::DEFAULT_MAX_PLIES {
                all.push(pos);
                let moves = pos.legal_moves();
                let Some(&mv) = rng.choose(&moves) else { break };
                pos.play_unchecked(mv);
            }
        }
    }
    for text in [
        "W:WKK4:BH4,E5,F8",
        "W:WI3,KG2:BH3,F4,KB3",
        "W:WC3,J5:BB3,D6,F5,KA5",
        // A man's step onto the promotion row is the only quiet move left.
        "W:WB2:BKK1",
        // Only promotions and a king boxed in by its own men.
        "W:WB2,B4,KF5,E5,E6,G5,G6:BKK1",
    ] {
        all.push(text.parse().expect("a valid position"));
    }
    all
}

#[test]
fn the_stages_hand_out_every_move_once_in_generation_order() {
    let mut checked = 0;
    let mut promotions = 0;
    for pos in positions(6) {
        let all = pos.legal_moves();
        let mut tactical = Vec::new();
        pos.generate_tactical(&mut tactical);
        let mut quiet = Vec::new();
        pos.generate_quiet(&mut quiet);
        let wanted_tactical: Vec<Move> =
            all.iter().copied().filter(|&mv| pos.is_tactical(mv)).collect();
        let wanted_quiet: Vec<Move> =
            all.iter().copied().filter(|&mv| !pos.is_tactical(mv)).collect();
        assert_eq!(tactical, wanted_tactical, "the tactical moves of {pos}");
        assert_eq!(quiet, wanted_quiet, "the quiet moves of {pos}");
        let mut forced_moves = Vec::new();
        let forced = pos.generate_tactical_forced(&mut forced_moves);
        assert_eq!(forced_moves, wanted_tactical, "generate_tactical_forced's moves in {pos}");
        assert_eq!(
            forced,
            !wanted_tactical.is_empty() && wanted_quiet.is_empty(),
            "whether the tactical moves are forced in {pos}"
        );
        promotions += usize::from(tactical.iter().any(|mv| !mv.is_capture()));
        checked += 1;
    }
    assert!(checked > 1_000, "only {checked} positions");
    assert!(promotions > 10, "only {promotions} positions with a promotion to try");
}

#[test]
fn a_quiet_move_decodes_from_its_code_and_nothing_else_does() {
    let pool = positions(2);
    let mut decoded = 0;
    for (k, pos) in pool.iter().enumerate() {
        let legal = pos.legal_moves();
        for &mv in &legal {
            let code = pos.move_code(mv);
            match pos.move_from_code(code) {
                Some(back) => {
                    assert_eq!(back, mv, "code {code} of {mv} in {pos}");
                    decoded += 1;
                }
                None => assert!(mv.is_capture(), "the quiet move {mv} is not decoded in {pos}"),
            }
        }
        // The codes of another position's moves: legal here, or nothing.
        let other = &pool[(k * 7 + 3) % pool.len()];
        for mv in other.legal_moves() {
            let code = other.move_code(mv);
            if let Some(found) = pos.move_from_code(code) {
                assert!(legal.contains(&found), "{found} from code {code} is not legal in {pos}");
                assert_eq!(pos.move_code(found), code);
            }
        }
        // Every code below 2^14 (start and end field) and a few above.
        if k % 211 == 0 {
            for code in (0..1 << 14).chain([1 << 14, 1 << 31, u32::MAX]) {
                if let Some(found) = pos.move_from_code(code) {
                    assert!(legal.contains(&found), "{found} from code {code} in {pos}");
                }
            }
        }
    }
    assert!(decoded > 5_000, "only {decoded} moves decoded");
}

#[test]
fn a_move_is_sixteen_bytes_and_keeps_its_path() {
    assert_eq!(std::mem::size_of::<Move>(), 16);
    let pos: Position = "W:WC3,J5:BB3,D6,F5,KA5".parse().expect("a valid position");
    for mv in pos.legal_moves() {
        let text = mv.to_string();
        assert_eq!(pos.parse_move(&text).expect("its own notation"), mv);
        assert_eq!(mv.fields().count(), mv.capture_count() + 1, "{text}");
        assert_eq!(mv.fields().next(), Some(mv.from()));
        assert_eq!(mv.fields().last(), Some(mv.to()));
    }
}
