//! The transposition table, shared by every thread of a search without locks.
//!
//! An entry is two `AtomicU64`: the key xor the data, and the data. A reader
//! takes the entry only when the two xor back to its key, so an entry torn by
//! two threads writing at once reads as missing, never as another position's.
//! The best move is stored as its index in the order the game generates moves,
//! which works for any move type; readers check the index against the list.

use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    /// The true value is at least this.
    Lower,
    /// The true value is at most this.
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Index of the best move in the generated list, if there is one.
    pub(crate) best: Option<u16>,
    pub(crate) value: i32,
    pub(crate) depth: u8,
    pub(crate) bound: Bound,
}

/// No best move.
const NO_MOVE: u64 = 0xFFFF;
/// Values are stored offset so they are never negative; they fit in 30 bits.
const VALUE_OFFSET: i64 = 1 << 29;

/// The table: any number of slots (the key picks one by multiplication),
/// each holding one entry, replaced by depth.
pub(crate) struct Table {
    slots: Vec<[AtomicU64; 2]>,
    /// Entries of another generation (an earlier game) are ignored; 0 marks
    /// an empty slot, so generations run 1..=255.
    generation: u8,
}

impl Table {
    /// A table of about `mb` megabytes (at least one slot).
    pub(crate) fn new(mb: usize) -> Self {
        let len = (mb.saturating_mul(1 << 20) / std::mem::size_of::<[AtomicU64; 2]>()).max(1);
        Table {
            slots: (0..len).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect(),
            generation: 1,
        }
    }

    /// Forgets every entry: costs nothing but every 255th time.
    pub(crate) fn clear(&mut self) {
        self.generation = self.generation.checked_add(1).unwrap_or_else(|| {
            for slot in &mut self.slots {
                *slot = [AtomicU64::new(0), AtomicU64::new(0)];
            }
            1
        });
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[((u128::from(key) * self.slots.len() as u128) >> 64) as usize]
    }

    /// The data word of `key`'s entry, if the slot holds it.
    fn load(&self, key: u64) -> Option<u64> {
        let [check, data] = self.slot(key);
        let data = data.load(Ordering::Relaxed);
        let check = check.load(Ordering::Relaxed);
        (check ^ data == key && generation_of(data) == self.generation).then_some(data)
    }

    /// The entry of `key`, if stored in this generation.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        self.load(key).map(unpack)
    }

    /// Stores `entry` for `key`, unless the slot holds a deeper result of the
    /// same position that is not overruled by an exact one.
    pub(crate) fn store(&self, key: u64, entry: Entry) {
        let keep = self.load(key).map(unpack).is_some_and(|old| {
            u32::from(old.depth) > u32::from(entry.depth) && entry.bound != Bound::Exact
        });
        if !keep {
            let data = pack(entry, self.generation);
            let [check, word] = self.slot(key);
            check.store(key ^ data, Ordering::Relaxed);
            word.store(data, Ordering::Relaxed);
        }
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> 26) as u8
}

fn pack(entry: Entry, generation: u8) -> u64 {
    let best = entry.best.map_or(NO_MOVE, u64::from);
    let bound = match entry.bound {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    let value = (i64::from(entry.value) + VALUE_OFFSET) as u64;
    best | u64::from(entry.depth) << 16 | bound << 24 | u64::from(generation) << 26 | value << 34
}

fn unpack(data: u64) -> Entry {
    let best = data & 0xFFFF;
    Entry {
        best: (best != NO_MOVE).then_some(best as u16),
        depth: (data >> 16) as u8,
        bound: match (data >> 24) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        value: ((data >> 34) as i64 - VALUE_OFFSET) as i32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_other_keys_miss() {
        let mut table = Table::new(1);
        let entry = Entry { best: Some(513), value: -1_000_001, depth: 200, bound: Bound::Upper };
        table.store(42, entry);
        assert_eq!(table.probe(42), Some(entry));
        assert_eq!(table.probe(43), None);
        let won = Entry { best: None, value: 999_990, depth: 3, bound: Bound::Lower };
        table.store(7, won);
        assert_eq!(table.probe(7), Some(won));
        table.clear();
        assert_eq!(table.probe(7), None, "a new game forgets");
    }

    #[test]
    fn a_shallower_bound_does_not_replace_a_deeper_entry() {
        let table = Table::new(1);
        let deep = Entry { best: Some(1), value: 5, depth: 6, bound: Bound::Lower };
        table.store(9, deep);
        table.store(9, Entry { best: Some(2), value: 1, depth: 2, bound: Bound::Upper });
        assert_eq!(table.probe(9), Some(deep));
        let exact = Entry { best: Some(3), value: 2, depth: 2, bound: Bound::Exact };
        table.store(9, exact);
        assert_eq!(table.probe(9), Some(exact));
    }
}
