//! The transposition table, shared by every thread of a search without locks.
//!
//! The table is a list of buckets of four entries, each bucket one 64-byte
//! cache line (a probe costs one memory access). An entry is two
//! `AtomicU64`: the key xor the data, and the data. A reader takes the entry
//! only when the two xor back to its key, so an entry torn by two threads
//! writing at once reads as missing, never as another position's. The best
//! move is stored as its [`Game::move_code`](board_core::Game::move_code).
//!
//! The words are allocated zeroed (all zeros is an empty table), which the
//! operating system gives as zero pages mapped only when first written: a
//! table costs no time to make and no memory until searches fill it, and an
//! idle engine holds none of it.
//!
//! Entries carry the age of the search that wrote them, so a full bucket
//! gives up the shallowest entry of the oldest search first
//! ([`Table::store`]); a new game empties the table ([`Table::clear`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

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
    /// The [move code](board_core::Game::move_code) of the best move.
    pub(crate) code: u32,
    pub(crate) value: i32,
    /// At most [`MAX_DEPTH`]; deeper results are stored as that deep.
    pub(crate) depth: u8,
    pub(crate) bound: Bound,
}

/// The deepest depth an entry holds (7 bits).
pub(crate) const MAX_DEPTH: u8 = 127;
/// Values are stored offset so they are never negative; they fit in 21 bits
/// (proven values are ±1 000 000 at most), and the offset makes every
/// stored data word non-zero, which tells an entry from an empty slot.
const VALUE_OFFSET: i64 = 1 << 20;
const VALUE_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 53;
const BOUND_SHIFT: u32 = 60;
const AGE_SHIFT: u32 = 62;
/// Ages run modulo this (2 bits).
const AGES: u8 = 4;
/// In a full bucket the entry with the least depth minus this times its age
/// (in searches) is replaced.
const AGE_WEIGHT: i32 = 8;
const ENTRIES: usize = 4;
/// The words of a bucket: a check and a data word per entry.
const WORDS: usize = 2 * ENTRIES;
/// The bytes of a cache line, which a bucket fills.
const LINE: usize = 64;

/// The table: any number of buckets (the key picks one by multiplication).
pub(crate) struct Table {
    /// The buckets' words, allocated zeroed, plus a line's worth for
    /// alignment: bucket `i` is `words[first + WORDS * i..][..WORDS]`,
    /// which starts on a cache line.
    words: Vec<AtomicU64>,
    /// The first word of the first bucket: the allocator aligns to 16
    /// bytes only.
    first: usize,
    buckets: usize,
    /// The age of the current search, modulo [`AGES`].
    age: u8,
    /// Whether an entry may have been stored since the table was made or
    /// emptied: emptying an empty table writes nothing (an engine told of a
    /// new game before its first search keeps its pages unmapped).
    used: AtomicBool,
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket), allocated
    /// zeroed: nothing is written until searches store entries.
    pub(crate) fn new(mb: usize) -> Self {
        let buckets = (mb.saturating_mul(1 << 20) / LINE).max(1);
        let words: Vec<AtomicU64> = bytemuck::zeroed_vec(buckets * WORDS + LINE / 8);
        let misaligned = words.as_ptr().addr() % LINE;
        let first = (LINE - misaligned) % LINE / 8;
        Table { words, first, buckets, age: 0, used: AtomicBool::new(false) }
    }

    /// Forgets every entry (a new game): a `memset` of the table, a few
    /// milliseconds for the default 16 MB; nothing when no search has run
    /// since the table was made or last emptied.
    pub(crate) fn clear(&mut self) {
        if std::mem::take(self.used.get_mut()) {
            for word in &mut self.words {
                *word.get_mut() = 0;
            }
        }
    }

    /// Starts a new search: the entries stored so far grow a search older.
    pub(crate) fn new_search(&mut self) {
        self.age = (self.age + 1) % AGES;
    }

    /// The bucket of `key`: its entries as (check, data) pairs.
    fn bucket(&self, key: u64) -> &[[AtomicU64; 2]] {
        let index = ((u128::from(key) * self.buckets as u128) >> 64) as usize;
        let start = self.first + index * WORDS;
        self.words[start..start + WORDS].as_chunks().0
    }

    /// The entry of `key`, if stored.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|[check, data]| {
            let data = data.load(Ordering::Relaxed);
            (data != 0 && check.load(Ordering::Relaxed) ^ data == key).then(|| unpack(data))
        })
    }

    /// Stores `entry` for `key`. The position's own entry is replaced unless
    /// it is deeper, of this search, and the new one is only a bound; else
    /// an empty slot, or the entry of the bucket with the least depth minus
    /// [`AGE_WEIGHT`] times its age in searches.
    pub(crate) fn store(&self, key: u64, entry: Entry) {
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, [check, data]) in bucket.iter().enumerate() {
            let old = data.load(Ordering::Relaxed);
            if old != 0 && check.load(Ordering::Relaxed) ^ old == key {
                let old_depth = (old >> DEPTH_SHIFT) as u8 & MAX_DEPTH;
                if old_depth > entry.depth
                    && entry.bound != Bound::Exact
                    && (old >> AGE_SHIFT) as u8 == self.age
                {
                    return;
                }
                victim = i;
                break;
            }
            let worth = if old == 0 {
                i32::MIN
            } else {
                let age = (self.age + AGES - (old >> AGE_SHIFT) as u8) % AGES;
                i32::from((old >> DEPTH_SHIFT) as u8 & MAX_DEPTH) - AGE_WEIGHT * i32::from(age)
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        if !self.used.load(Ordering::Relaxed) {
            self.used.store(true, Ordering::Relaxed);
        }
        let data = pack(entry, self.age);
        let [check, word] = &bucket[victim];
        check.store(key ^ data, Ordering::Relaxed);
        word.store(data, Ordering::Relaxed);
    }
}

fn pack(entry: Entry, age: u8) -> u64 {
    let bound = match entry.bound {
        Bound::Exact => 0,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    let value = (i64::from(entry.value) + VALUE_OFFSET) as u64;
    u64::from(entry.code)
        | value << VALUE_SHIFT
        | u64::from(entry.depth.min(MAX_DEPTH)) << DEPTH_SHIFT
        | bound << BOUND_SHIFT
        | u64::from(age) << AGE_SHIFT
}

fn unpack(data: u64) -> Entry {
    Entry {
        code: data as u32,
        value: (((data >> VALUE_SHIFT) & ((1 << 21) - 1)) as i64 - VALUE_OFFSET) as i32,
        depth: (data >> DEPTH_SHIFT) as u8 & MAX_DEPTH,
        bound: match (data >> BOUND_SHIFT) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_other_keys_miss() {
        let mut table = Table::new(1);
        let entry = Entry { code: u32::MAX, value: -1_000_001, depth: 100, bound: Bound::Upper };
        table.store(42, entry);
        assert_eq!(table.probe(42), Some(entry));
        assert_eq!(table.probe(43), None);
        let won = Entry { code: 0, value: 1_000_001, depth: 3, bound: Bound::Lower };
        table.store(7, won);
        assert_eq!(table.probe(7), Some(won));
        table.clear();
        assert_eq!(table.probe(7), None, "a new game forgets");
        assert_eq!(table.probe(42), None, "a new game forgets");
    }

    #[test]
    fn every_bucket_is_one_cache_line() {
        for mb in [0, 1, 3] {
            let table = Table::new(mb);
            assert_eq!(table.buckets, (mb << 20).max(LINE) / LINE);
            let words = table.words.as_ptr_range();
            for key in [0, 1, u64::MAX / 3, u64::MAX / 2 + 7, u64::MAX] {
                let bucket = table.bucket(key).as_ptr_range();
                assert_eq!(bucket.start.addr() % LINE, 0, "{mb} MB, key {key}");
                assert_eq!(bucket.end.addr() - bucket.start.addr(), LINE);
                assert!(words.start.addr() <= bucket.start.addr());
                assert!(bucket.end.addr() <= words.end.addr());
            }
        }
    }

    #[test]
    fn emptying_after_stores_forgets_them_and_an_empty_table_stays_empty() {
        let mut table = Table::new(1);
        table.clear();
        assert!(table.words.iter().all(|word| word.load(Ordering::Relaxed) == 0));
        assert!(!*table.used.get_mut(), "nothing stored yet");
        table.store(5, Entry { code: 1, value: 2, depth: 3, bound: Bound::Exact });
        assert!(*table.used.get_mut());
        table.clear();
        assert_eq!(table.probe(5), None);
        assert!(table.words.iter().all(|word| word.load(Ordering::Relaxed) == 0));
    }

    #[test]
    fn a_shallower_bound_does_not_replace_a_deeper_entry_of_this_search() {
        let mut table = Table::new(1);
        let deep = Entry { code: 1, value: 5, depth: 6, bound: Bound::Lower };
        table.store(9, deep);
        table.store(9, Entry { code: 2, value: 1, depth: 2, bound: Bound::Upper });
        assert_eq!(table.probe(9), Some(deep));
        let exact = Entry { code: 3, value: 2, depth: 2, bound: Bound::Exact };
        table.store(9, exact);
        assert_eq!(table.probe(9), Some(exact));
        table.store(9, deep);
        table.new_search();
        let shallow = Entry { code: 4, value: 0, depth: 1, bound: Bound::Upper };
        table.store(9, shallow);
        assert_eq!(table.probe(9), Some(shallow), "an older search's entry gives way");
    }

    #[test]
    fn a_full_bucket_gives_up_old_and_shallow_entries_first() {
        // One bucket: every key lands in it.
        let mut table = Table::new(0);
        let at = |depth| Entry { code: 0, value: 0, depth, bound: Bound::Exact };
        for key in 1..=4 {
            table.store(key, at(10 + key as u8));
        }
        table.store(5, at(1));
        assert_eq!(table.probe(1), None, "the shallowest went");
        assert!((2..=5).all(|key| table.probe(key).is_some()));
        table.new_search();
        table.new_search();
        table.store(6, at(1));
        assert_eq!(table.probe(5), None, "old and shallow first");
        // Two searches old weighs 16 plies: the deep old entries go before a
        // shallow new one.
        table.store(7, at(2));
        assert_eq!(table.probe(6), Some(at(1)));
        assert_eq!(table.probe(2), None);
    }
}
