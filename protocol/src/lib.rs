//! The Igroteka engine protocol: UGI (the Universal Game Interface, UCI for
//! any two-player game) with the good habits of the Hub protocol — unknown
//! tokens are ignored, bad input is answered with `info string error: ...`
//! and the engine never stops.
//!
//! - [`GuiMessage`] and [`EngineMessage`]: one type per direction, read with
//!   `FromStr` and written with `Display` (pure, round-trip tested).
//! - `run_engine` (feature `engine`, on by default): the engine loop over any
//!   reader and writer, for any game of a `search::GameEntry` registry.
//!   Searches run on their own thread, so `stop`, `isready` and `quit` are
//!   answered while one runs. Clients that only speak the messages (the
//!   arena, a GUI server) turn the feature off and need no search.
//! - [`Lines`]: lines with a length limit, for every reader of untrusted input.
//! - `client` (feature `client`): one engine process driven through the
//!   protocol, used by every program that drives engines (the arena, the
//!   GUI server, `match`): process group, bounded reads and waits, stderr
//!   kept, quit then kill.
//!
//! The wire format, every command and option, and the edge rules are described
//! for GUI authors in `docs/protocol.md`.
//!
//! ```
//! use protocol::{EngineMessage, GuiMessage};
//! assert_eq!("isready".parse::<GuiMessage>(), Ok(GuiMessage::IsReady));
//! assert_eq!(EngineMessage::ReadyOk.to_string(), "readyok");
//! ```

#[cfg(feature = "client")]
pub mod client;
mod clock;
mod engine;
mod error;
mod gui;
mod lines;
#[cfg(feature = "engine")]
mod options;
#[cfg(feature = "engine")]
mod referee;
#[cfg(feature = "engine")]
mod run;
mod token;
#[cfg(feature = "engine")]
mod view;

pub use clock::time_budget;
pub use engine::{Count, EngineMessage, OptionDecl, OptionKind, SearchInfo, result_word};
pub use error::ParseError;
pub use gui::{Go, GuiMessage, PositionBase, Query};
pub use lines::{LineError, Lines, MAX_LINE_BYTES};
#[cfg(feature = "engine")]
pub use run::{EngineSettings, run_engine};
pub use token::{MoveToken, PositionText};
