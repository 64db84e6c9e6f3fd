//! The table on disk (feature `cache`): postcard, versioned and checked on
//! load; a file that fails any check is rebuilt, never trusted.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::Tablebase;

/// Raised when the file's layout changes.
const FORMAT_VERSION: u32 = 1;
/// Raised when the rules, their interpretation or the table's meaning change.
const RULES_VERSION: u32 = 1;
/// Positions checked against their children when a file is read.
const SPOT_CHECKS: usize = 4096;

/// The file: versions first, so that any later format can still read them.
#[derive(Serialize, Deserialize)]
struct CacheFile {
    format: u32,
    rules: u32,
    /// FNV-1a of the class lengths and bytes.
    checksum: u64,
    classes: Vec<Vec<u8>>,
}

/// Why a cache file was not used, or could not be written.
#[derive(Debug)]
pub enum CacheError {
    /// Reading or writing the file failed (a missing file among others).
    Io(PathBuf, std::io::Error),
    /// The bytes are not a table file.
    Corrupt(PathBuf, String),
    /// Written by another format or rules version.
    Stale {
        /// The file.
        path: PathBuf,
        /// Its format version.
        format: u32,
        /// Its rules version.
        rules: u32,
    },
    /// The checksum or the table's shape does not match, or a position
    /// disagrees with its children.
    Damaged(PathBuf, String),
}

impl fmt::Display for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CacheError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            CacheError::Corrupt(path, why) => {
                write!(f, "{}: not an Otrazhenie table file ({why})", path.display())
            }
            CacheError::Stale { path, format, rules } => write!(
                f,
                "{}: written for format {format}, rules {rules}; this build reads format \
                 {FORMAT_VERSION}, rules {RULES_VERSION}",
                path.display()
            ),
            CacheError::Damaged(path, why) => write!(f, "{}: damaged ({why})", path.display()),
        }
    }
}

impl std::error::Error for CacheError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CacheError::Io(_, e) => Some(e),
            _ => None,
        }
    }
}

/// What [`Tablebase::load_or_build`] did.
#[derive(Debug)]
pub enum CacheUse {
    /// The file was read and passed every check.
    Loaded,
    /// The file was missing or unusable (`reason`), so the table was built
    /// and written back (`saved`).
    Built {
        /// Why the file was not used.
        reason: CacheError,
        /// Whether writing the new file worked.
        saved: Result<(), CacheError>,
    },
}

/// Nothing here runs unless called: the crate keeps no table and no file
/// name of its own. An engine that wants the table calls
/// [`load`](Tablebase::load) and, when that fails, [`build`](Tablebase::build)
/// in memory, without writing; only a command that is asked to make the file
/// (`igroteka solve`) calls [`load_or_build`](Tablebase::load_or_build) or
/// [`save`](Tablebase::save).
impl Tablebase {
    /// Reads a table file and checks it: versions, shape, checksum, and a
    /// spread of positions against their children.
    ///
    /// # Errors
    /// [`CacheError`] says what failed.
    pub fn load(path: &Path) -> Result<Tablebase, CacheError> {
        let bytes = std::fs::read(path).map_err(|e| CacheError::Io(path.to_owned(), e))?;
        let file: CacheFile = postcard::from_bytes(&bytes)
            .map_err(|e| CacheError::Corrupt(path.to_owned(), e.to_string()))?;
        if (file.format, file.rules) != (FORMAT_VERSION, RULES_VERSION) {
            return Err(CacheError::Stale {
                path: path.to_owned(),
                format: file.format,
                rules: file.rules,
            });
        }
        let damaged = |why: String| CacheError::Damaged(path.to_owned(), why);
        if checksum(&file.classes) != file.checksum {
            return Err(damaged("checksum mismatch".to_owned()));
        }
        let table = Tablebase::from_classes(file.classes).map_err(damaged)?;
        match table.spot_check(SPOT_CHECKS) {
            Some(pos) => Err(damaged(format!("the value of {pos} disagrees with its moves"))),
            None => Ok(table),
        }
    }

    /// Writes the table to `path` (through a temporary file renamed into
    /// place, so a reader never sees half a file).
    ///
    /// # Errors
    /// [`CacheError::Io`] if the directory cannot be made or the file written.
    pub fn save(&self, path: &Path) -> Result<(), CacheError> {
        let io = |e| CacheError::Io(path.to_owned(), e);
        if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let classes = self.classes().to_vec();
        let file = CacheFile {
            format: FORMAT_VERSION,
            rules: RULES_VERSION,
            checksum: checksum(&classes),
            classes,
        };
        let bytes = postcard::to_allocvec(&file)
            .map_err(|e| CacheError::Corrupt(path.to_owned(), e.to_string()))?;
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(format!(".{}.tmp", std::process::id()));
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, bytes).and_then(|()| std::fs::rename(&temporary, path)).map_err(
            |e| {
                let _ = std::fs::remove_file(&temporary);
                io(e)
            },
        )
    }

    /// The table from `path`, or, when that file is missing or fails a check,
    /// built and **written there** (through [`save`](Tablebase::save)).
    ///
    /// For a command that is asked to make or refresh the file (`igroteka
    /// solve`). An engine should not write behind its user's back: it calls
    /// [`load`](Tablebase::load) and falls back to
    /// [`build`](Tablebase::build), which writes nothing.
    pub fn load_or_build(path: &Path) -> (Tablebase, CacheUse) {
        match Tablebase::load(path) {
            Ok(table) => (table, CacheUse::Loaded),
            Err(reason) => {
                let table = Tablebase::build();
                let saved = table.save(path);
                (table, CacheUse::Built { reason, saved })
            }
        }
    }
}

/// FNV-1a over each class's length and bytes.
fn checksum(classes: &[Vec<u8>]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let lengths = classes.iter().flat_map(|class| (class.len() as u64).to_le_bytes());
    for byte in lengths.chain(classes.iter().flatten().copied()) {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}
