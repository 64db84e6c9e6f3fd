//! With both `std::hash::Hash` and the crate's `Game` in scope, `zobrist()`
//! and `hash(&mut hasher)` are both callable: the game's key is not named
//! `hash`, which made every call ambiguous (E0034).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use city::{Game, Position};

fn std_hash(pos: &Position) -> u64 {
    let mut hasher = DefaultHasher::new();
    pos.hash(&mut hasher);
    hasher.finish()
}

#[test]
fn zobrist_and_std_hash_do_not_clash() {
    let start = Position::default();
    let mut moved = start;
    moved.play_text("c4-c3").expect("a legal move");
    assert_ne!(start.zobrist(), moved.zobrist());
    assert_eq!(start.zobrist(), start.zobrist_from_scratch());
    assert_eq!(std_hash(&start), std_hash(&Position::default()));
    assert_ne!(std_hash(&start), std_hash(&moved));
}
