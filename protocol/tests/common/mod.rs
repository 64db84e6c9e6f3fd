//! What the engine-session tests share: settings and an output buffer.

use std::io::{self, Cursor, Write};
use std::sync::{Arc, Mutex};

use protocol::{EngineSettings, run_engine};
use search::GameEntry;

/// The engine's settings for `game` in its default variant.
pub fn settings(game: &str) -> EngineSettings {
    EngineSettings {
        game: game.to_owned(),
        variant: None,
        name: "Test Engine".to_owned(),
        author: "Tester".to_owned(),
        options: Vec::new(),
    }
}

/// An output buffer shared with the test.
#[derive(Clone, Default)]
pub struct Shared(pub Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs `input` (then the end of input) through an engine of `game`; returns
/// every line it wrote.
pub fn session(games: &'static [GameEntry], game: &str, input: Vec<u8>) -> Vec<String> {
    let out = Shared::default();
    run_engine(games, settings(game), Cursor::new(input), out.clone()).unwrap();
    let bytes = out.0.lock().unwrap().clone();
    String::from_utf8(bytes).unwrap().lines().map(str::to_owned).collect()
}
