//! The engine as referee: the position the GUI set up, with the history's
//! legality, forfeits and the ply cap.

use board_core::{Outcome, Player};
use search::{GameEntry, SearchGame};

use crate::PositionBase;
use crate::error::{quote, quoting};

/// The game as the last `position` command described it.
#[derive(Clone, Debug)]
pub(crate) struct Referee {
    entry: &'static GameEntry,
    variant: &'static str,
    base: PositionBase,
    base_position: Box<dyn SearchGame>,
    current: Box<dyn SearchGame>,
    /// The moves played from the base, as sent (all legal).
    moves: Vec<String>,
    forfeit: Option<Forfeit>,
}

/// A history move that was not legal: its player lost.
#[derive(Clone, Debug)]
struct Forfeit {
    loser: Player,
}

impl Referee {
    /// The start position of `variant` of `entry`.
    ///
    /// # Errors
    /// A message when the game has no such variant.
    pub(crate) fn new(entry: &'static GameEntry, variant: &'static str) -> Result<Self, String> {
        let start = entry.start(variant).map_err(|e| e.to_string())?;
        Ok(Referee {
            entry,
            variant,
            base: PositionBase::StartPos,
            base_position: start.clone(),
            current: start,
            moves: Vec::new(),
            forfeit: None,
        })
    }

    /// Back to the start position (`uginewgame`).
    pub(crate) fn reset(&mut self) {
        self.base = PositionBase::StartPos;
        if let Ok(start) = self.entry.start(self.variant) {
            self.base_position = start;
        }
        self.replay_from_base();
    }

    fn replay_from_base(&mut self) {
        self.current = self.base_position.clone();
        self.moves.clear();
        self.forfeit = None;
    }

    /// Sets up `position <base> moves <moves>`. A command that repeats or
    /// extends the previous one only plays the new moves.
    ///
    /// # Errors
    /// A message for an unreadable base (the position is then unchanged) or
    /// for an illegal move, which ends the game: the side that played it loses.
    pub(crate) fn set_position(
        &mut self,
        base: &PositionBase,
        moves: &[String],
    ) -> Result<(), String> {
        let extends = *base == self.base
            && self.forfeit.is_none()
            && moves.len() >= self.moves.len()
            && moves[..self.moves.len()] == self.moves[..];
        if !extends {
            let position = match base {
                PositionBase::StartPos => self.entry.start(self.variant).map_err(|e| e.to_string()),
                PositionBase::Fen(text) => self
                    .entry
                    .from_text(text, self.variant)
                    .map_err(|e| format!("{} ('{}')", quoting(&e.to_string(), text), quote(text))),
            }?;
            self.base = base.clone();
            self.base_position = position;
            self.replay_from_base();
        }
        for (index, text) in moves.iter().enumerate().skip(self.moves.len()) {
            let mover = self.current.side_to_move();
            if let Err(e) = self.current.play_move_text(text) {
                self.forfeit = Some(Forfeit { loser: mover });
                return Err(format!(
                    "move {} of the history, '{}', is illegal ({}); the game is over: \
                     {} wins",
                    index + 1,
                    quote(text),
                    quoting(&e.to_string(), text),
                    p_name(mover.other())
                ));
            }
            self.moves.push(text.clone());
        }
        Ok(())
    }

    /// The position after the last legal move.
    pub(crate) fn position(&self) -> &dyn SearchGame {
        self.current.as_ref()
    }

    /// How the game ended: a forfeit, the rules, or the ply cap (`max_plies`
    /// moves after the base, 0 = no cap) with the game's adjudication.
    pub(crate) fn outcome(&self, max_plies: u32) -> Option<Outcome> {
        if let Some(forfeit) = &self.forfeit {
            return Some(Outcome::win(forfeit.loser.other(), "illegal move"));
        }
        self.current.outcome_within(self.moves.len(), max_plies)
    }
}

/// `p1` or `p2`.
pub(crate) fn p_name(player: Player) -> &'static str {
    match player {
        Player::First => "p1",
        Player::Second => "p2",
    }
}
