//! The table's cache file (feature `cache`): a round trip, and a missing,
//! damaged, stale or truncated file rebuilt rather than trusted.
#![cfg(feature = "cache")]

use std::path::PathBuf;
use std::sync::OnceLock;

use otrazhenie::{CacheError, CacheUse, Tablebase};

/// The table, built once for this test binary and shared by its tests.
fn table() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(Tablebase::build)
}

fn temp_file(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("otrazhenie-cache-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn a_saved_table_loads_back_equal() {
    let path = temp_file("sub/dir/round-trip.bin");
    let (built, how) = Tablebase::load_or_build(&path);
    assert!(
        matches!(how, CacheUse::Built { reason: CacheError::Io(..), saved: Ok(()) }),
        "{how:?}"
    );
    assert_eq!(&built, table());
    let (loaded, how) = Tablebase::load_or_build(&path);
    assert!(matches!(how, CacheUse::Loaded), "{how:?}");
    assert_eq!(loaded, built);
    // One byte a position and a few bytes of header and lengths.
    let size = std::fs::metadata(&path).expect("the file").len();
    assert!((4_300_000..4_400_000).contains(&size), "{size} bytes");
}

/// Saves a good file, spoils it with `spoil`, and expects `load` to refuse it
/// with an error `check` accepts; returns the file.
fn refused(
    name: &str,
    spoil: impl FnOnce(&mut Vec<u8>),
    check: fn(&CacheError) -> bool,
) -> PathBuf {
    let path = temp_file(name);
    table().save(&path).expect("saved");
    let mut bytes = std::fs::read(&path).expect("read");
    spoil(&mut bytes);
    std::fs::write(&path, &bytes).expect("spoilt");
    match Tablebase::load(&path) {
        Ok(_) => panic!("{name}: a spoilt file was trusted"),
        Err(e) => {
            assert!(check(&e), "{name}: {e:?}");
            assert!(e.to_string().contains(name), "{name}: the message names the file: {e}");
        }
    }
    path
}

#[test]
fn a_flipped_byte_fails_the_checksum_and_the_file_is_rebuilt() {
    let path = refused(
        "flipped.bin",
        |bytes| {
            let middle = bytes.len() / 2;
            bytes[middle] ^= 0x01;
        },
        |e| matches!(e, CacheError::Damaged(..)),
    );
    let (rebuilt, how) = Tablebase::load_or_build(&path);
    assert!(
        matches!(how, CacheUse::Built { reason: CacheError::Damaged(..), saved: Ok(()) }),
        "{how:?}"
    );
    assert_eq!(&rebuilt, table());
    assert!(Tablebase::load(&path).is_ok(), "rewritten");
}

#[test]
fn another_format_or_rules_version_is_stale() {
    // The format version is the first byte (a postcard varint).
    refused(
        "format.bin",
        |bytes| bytes[0] += 1,
        |e| matches!(e, CacheError::Stale { format: 2, rules: 1, .. }),
    );
    refused(
        "rules.bin",
        |bytes| bytes[1] += 1,
        |e| matches!(e, CacheError::Stale { format: 1, rules: 2, .. }),
    );
}

#[test]
fn a_truncated_or_foreign_file_is_corrupt() {
    refused(
        "truncated.bin",
        |bytes| bytes.truncate(bytes.len() - 100),
        |e| matches!(e, CacheError::Corrupt(..)),
    );
    refused(
        "foreign.bin",
        |bytes| *bytes = b"not a table".to_vec(),
        |e| matches!(e, CacheError::Corrupt(..) | CacheError::Stale { .. }),
    );
}
