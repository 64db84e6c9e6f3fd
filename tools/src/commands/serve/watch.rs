//! Games others can watch: every game a tab plays has a short link
//! (`/?g=<id>`), and tabs that open it are spectators. The tab that plays
//! publishes what it shows ([`Snapshot`]: the board, the position with its
//! clocks, the engines' last `info`) into the game's [`Entry`]; spectators
//! read the latest of it through a `watch` channel, so a slow spectator
//! skips positions, never holds the player up, and costs one snapshot per
//! game however many watch.
//!
//! A game stays listed while its tab plays it, and, once that tab has left
//! or started another game, among the last `--watch-kept` ended games;
//! then it is dropped and its spectators are told.
//!
//! The owner's tab gets a key with the link: a reload (or a restart after
//! an engine failed) that shows the key continues the game under the same
//! link, so spectators keep watching.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

use super::messages::{NewGame, Notice, State};

/// The letters of a link's id and key.
const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
/// The length of a link's id: 32^8, about 10^12 ids.
const ID_LEN: usize = 8;
/// The length of the owner's key.
const KEY_LEN: usize = 24;
/// How long a claim waits for the tab that played the game to leave: a
/// reload's old page closes its socket while the new one connects.
const CLAIM_WAIT: Duration = Duration::from_secs(3);
/// How many spectators' questions may wait for the player's tab at once.
const VIEW_QUEUE: usize = 4;

/// A spectator's question to the player's tab, whose referee knows the
/// game. The answer is a notice's text, or why there is none.
pub type ViewAsk = (Question, oneshot::Sender<Result<String, String>>);

/// What a spectator asks the player's tab.
pub enum Question {
    /// The position after `ply` moves: a `view` notice.
    View(usize),
    /// A position of the analysis board (the game's first `ply` moves, then
    /// `moves`): an `explored` or `explore_refused` notice.
    Explore {
        /// How many of the game's moves.
        ply: usize,
        /// The variation's moves from there.
        moves: Vec<String>,
    },
}

/// What a spectator is shown of a game: the latest of each notice.
#[derive(Clone)]
pub struct Snapshot {
    /// The `watch` notice's text ([`WatchNotice`]): the link, the settings, whether the
    /// owner's tab plays on.
    pub watch: Arc<str>,
    /// The [`Notice::Board`] text.
    pub board: Option<Arc<str>>,
    /// The latest position, and when it was published (the clock of the
    /// side to move has run since).
    pub state: Option<(Arc<State>, Instant)>,
    /// The last [`Notice::Info`] text of each side since that position.
    pub info: [Option<Arc<str>>; 2],
}

/// One game's link.
pub struct Entry {
    /// The short id in the link.
    pub id: String,
    /// The secret the owner's tab resumes the game with.
    pub key: String,
    /// The settings the game started with (for the spectators' page).
    settings: Mutex<NewGame>,
    snapshot: watch::Sender<Snapshot>,
    /// Whether a tab plays the game now.
    owned: watch::Sender<bool>,
    /// Where spectators ask the player's tab for earlier positions and
    /// variations (its referee knows them), while a tab plays the game.
    views: Mutex<Option<mpsc::Sender<ViewAsk>>>,
}

/// The games being played and the last ones ended, by id.
pub struct Registry {
    inner: Mutex<Inner>,
    /// How many ended games are kept (`--watch-kept`).
    kept: usize,
    /// Makes ids and keys: randomly keyed SipHash of a counter.
    random: std::collections::hash_map::RandomState,
    counter: AtomicU64,
}

#[derive(Default)]
struct Inner {
    games: HashMap<String, Arc<Entry>>,
    /// The ended games kept, oldest first.
    ended: VecDeque<String>,
}

/// The `watch` notice as spectators get it.
#[derive(Serialize)]
struct WatchNotice<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    id: &'a str,
    settings: &'a NewGame,
    /// Whether the tab that plays the game is still there.
    owner: bool,
}

impl Registry {
    pub fn new(kept: usize) -> Registry {
        Registry {
            inner: Mutex::new(Inner::default()),
            kept,
            random: std::collections::hash_map::RandomState::new(),
            counter: AtomicU64::new(0),
        }
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `len` random letters of [`ALPHABET`].
    fn word(&self, len: usize) -> String {
        let mut word = String::with_capacity(len);
        while word.len() < len {
            let mut hasher = self.random.build_hasher();
            hasher.write_u64(self.counter.fetch_add(1, Ordering::Relaxed));
            let mut bits = hasher.finish();
            for _ in 0..12 {
                if word.len() == len {
                    break;
                }
                word.push(char::from(ALPHABET[(bits % 32) as usize]));
                bits /= 32;
            }
        }
        word
    }

    /// A new link for a game with `settings`, owned by the caller's tab.
    pub fn create(&self, settings: &NewGame) -> Arc<Entry> {
        let mut inner = self.inner();
        let id = loop {
            let id = self.word(ID_LEN);
            if !inner.games.contains_key(&id) {
                break id;
            }
        };
        let settings = shown(settings);
        let snapshot = Snapshot {
            watch: watch_text(&id, &settings, true),
            board: None,
            state: None,
            info: [None, None],
        };
        let entry = Arc::new(Entry {
            key: self.word(KEY_LEN),
            settings: Mutex::new(settings),
            snapshot: watch::Sender::new(snapshot),
            owned: watch::Sender::new(true),
            views: Mutex::new(None),
            id: id.clone(),
        });
        inner.games.insert(id, Arc::clone(&entry));
        entry
    }

    /// The game of link `id` for a tab that shows its `key`, once no other
    /// tab plays it (waiting a moment for a reloaded page's old socket);
    /// `None` when the link is unknown, dropped, the key wrong, or another
    /// tab still plays it.
    pub async fn claim(&self, id: &str, key: &str, settings: &NewGame) -> Option<Arc<Entry>> {
        let entry = self.inner().games.get(id).cloned()?;
        if entry.key != key {
            return None;
        }
        let mut owned = entry.owned.subscribe();
        // (The borrow `wait_for` returns is let go at once: it would block
        // the claim below.)
        let free = matches!(
            tokio::time::timeout(CLAIM_WAIT, owned.wait_for(|owned| !owned)).await,
            Ok(Ok(_))
        );
        if !free {
            return None;
        }
        let claimed = entry.owned.send_if_modified(|owned| !std::mem::replace(owned, true));
        if !claimed {
            return None;
        }
        let mut inner = self.inner();
        // Dropped meanwhile: a new link instead.
        if !inner.games.contains_key(id) {
            return None;
        }
        inner.ended.retain(|ended| ended != id);
        drop(inner);
        *entry.settings.lock().unwrap_or_else(PoisonError::into_inner) = shown(settings);
        entry.publish_watch(true);
        Some(entry)
    }

    /// The game of link `id`, for a spectator.
    pub fn find(&self, id: &str) -> Option<Arc<Entry>> {
        self.inner().games.get(id).cloned()
    }

    /// The owner's tab has left `entry`'s game (closed, another game, an
    /// engine failed): its clocks stop, it joins the kept ended games, and
    /// the oldest ended game beyond `--watch-kept` is dropped.
    pub fn release(&self, entry: &Entry) {
        entry.snapshot.send_modify(|snapshot| {
            if let Some((state, at)) = &mut snapshot.state {
                let mut stopped = State::clone(state);
                if let Some(side) = stopped.ticking.take()
                    && let Some(left) = &mut stopped.clocks[usize::from(side - 1)]
                {
                    *left -= at.elapsed().as_millis().min(i64::MAX as u128) as i64;
                }
                stopped.thinking = None;
                stopped.human_to_move = false;
                *state = Arc::new(stopped);
                *at = Instant::now();
            }
        });
        entry.publish_watch(false);
        *entry.views.lock().unwrap_or_else(PoisonError::into_inner) = None;
        entry.owned.send_replace(false);
        let mut inner = self.inner();
        if inner.games.contains_key(&entry.id) && !inner.ended.contains(&entry.id) {
            inner.ended.push_back(entry.id.clone());
        }
        while inner.ended.len() > self.kept {
            if let Some(oldest) = inner.ended.pop_front() {
                inner.games.remove(&oldest);
            }
        }
    }
}

impl Entry {
    /// A spectator's view of the game; it ends when the game is dropped.
    pub fn subscribe(&self) -> watch::Receiver<Snapshot> {
        self.snapshot.subscribe()
    }

    /// The questions of this game's spectators, for the tab that plays it
    /// (replacing an earlier tab's).
    pub fn answer_views(&self) -> mpsc::Receiver<ViewAsk> {
        let (ask, asked) = mpsc::channel(VIEW_QUEUE);
        *self.views.lock().unwrap_or_else(PoisonError::into_inner) = Some(ask);
        asked
    }

    /// Asks the player's tab `question`, waiting at most `timeout`.
    ///
    /// # Errors
    /// Why there is no answer, for people: no tab plays the game, it has
    /// too many questions waiting, or it did not answer in time.
    pub async fn ask(&self, question: Question, timeout: Duration) -> Result<String, String> {
        let ask = self.views.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let Some(ask) = ask else {
            return Err("earlier positions of this game cannot be shown now: this tab shows \
                        those it has seen"
                .into());
        };
        let (reply, answer) = oneshot::channel();
        if ask.try_send((question, reply)).is_err() {
            return Err("the player's tab is busy: try again".into());
        }
        match tokio::time::timeout(timeout, answer).await {
            Ok(Ok(answer)) => answer,
            _ => Err("the player's tab did not answer: try again".into()),
        }
    }

    fn publish_watch(&self, owner: bool) {
        let settings = self.settings.lock().unwrap_or_else(PoisonError::into_inner);
        let text = watch_text(&self.id, &settings, owner);
        drop(settings);
        self.snapshot.send_modify(|snapshot| snapshot.watch = text);
    }

    /// What the owner's tab was just sent, for the spectators: a board,
    /// a position (which clears the last position's `info`), an `info`.
    pub fn publish(&self, notice: Notice, text: &str) {
        self.snapshot.send_modify(|snapshot| match notice {
            Notice::Board { .. } => {
                snapshot.board = Some(text.into());
                snapshot.state = None;
                snapshot.info = [None, None];
            }
            Notice::State(state) => {
                snapshot.state = Some((Arc::new(state), Instant::now()));
                snapshot.info = [None, None];
            }
            Notice::Info { side: side @ 1..=2, .. } => {
                snapshot.info[usize::from(side - 1)] = Some(text.into());
            }
            _ => {}
        });
    }
}

/// The settings as spectators see them: no moves (the positions carry
/// them), no verdict, no key.
fn shown(settings: &NewGame) -> NewGame {
    NewGame { moves: Vec::new(), verdict: None, link: None, ..settings.clone() }
}

fn watch_text(id: &str, settings: &NewGame, owner: bool) -> Arc<str> {
    let notice = WatchNotice { kind: "watch", id, settings, owner };
    serde_json::to_string(&notice).unwrap_or_default().into()
}

/// Whether `id` could be a link's id (checked before it is looked up or
/// echoed).
pub fn is_id(id: &str) -> bool {
    id.len() == ID_LEN && id.bytes().all(|b| ALPHABET.contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> NewGame {
        serde_json::from_str(r#"{"game": "focus", "sides": [{}, {}], "moves": ["a"]}"#)
            .expect("settings")
    }

    #[test]
    fn ids_are_short_distinct_and_of_the_alphabet() {
        let registry = Registry::new(4);
        let ids: std::collections::HashSet<String> =
            (0..200).map(|_| registry.create(&settings()).id.clone()).collect();
        assert_eq!(ids.len(), 200);
        assert!(ids.iter().all(|id| is_id(id)), "{ids:?}");
        assert!(!is_id("abc"));
        assert!(!is_id("ABCDEFGH"));
    }

    #[tokio::test]
    async fn ended_games_beyond_the_cap_are_dropped_oldest_first() {
        let registry = Registry::new(2);
        let entries: Vec<Arc<Entry>> = (0..3).map(|_| registry.create(&settings())).collect();
        for entry in &entries {
            registry.release(entry);
        }
        assert!(registry.find(&entries[0].id).is_none());
        assert!(registry.find(&entries[1].id).is_some());
        assert!(registry.find(&entries[2].id).is_some());
        // Claimed again by its key, a kept game is no longer counted ended.
        let (first, second) = (&entries[1], &entries[2]);
        assert!(registry.claim(&first.id, "wrong", &settings()).await.is_none());
        assert!(registry.claim(&first.id, &first.key, &settings()).await.is_some());
        let fourth = registry.create(&settings());
        registry.release(&fourth);
        registry.release(&registry.create(&settings()));
        assert!(registry.find(&first.id).is_some(), "a played game is never dropped");
        assert!(registry.find(&second.id).is_none());
    }
}
