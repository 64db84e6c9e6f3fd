//! The engine as referee: the position the GUI set up, with the history's
//! legality, forfeits and the ply cap.

use board_core::{GameRecord, Outcome, Player, RecordError, UnknownVariant};
use search::{GameEntry, SearchGame};

use crate::error::{quote, quoting};
use crate::{MoveToken, PositionBase};

/// The game as the last `position` command described it.
#[derive(Clone, Debug)]
pub(crate) struct Referee {
    entry: &'static GameEntry,
    variant: &'static str,
    base: PositionBase,
    /// The base position, the legal moves played from it (as sent) and the
    /// ply cap (`MaxPlies`).
    record: GameRecord<dyn SearchGame>,
    forfeit: Option<Forfeit>,
}

/// A history move that was not legal: its player lost.
#[derive(Clone, Debug)]
struct Forfeit {
    loser: Player,
}

impl Referee {
    /// The start position of `variant` of `entry`, played up to `max_plies`
    /// plies from the base (0: no cap).
    ///
    /// # Errors
    /// When the game has no such variant.
    pub(crate) fn new(
        entry: &'static GameEntry,
        variant: &'static str,
        max_plies: u32,
    ) -> Result<Self, UnknownVariant> {
        let start = entry.start(variant)?;
        Ok(Referee {
            entry,
            variant,
            base: PositionBase::StartPos,
            record: GameRecord::new(start, max_plies),
            forfeit: None,
        })
    }

    /// Back to the start position (`uginewgame`).
    pub(crate) fn reset(&mut self) {
        self.base = PositionBase::StartPos;
        if let Ok(start) = self.entry.start(self.variant) {
            self.record = GameRecord::new(start, self.record.max_plies());
        }
        self.forfeit = None;
    }

    /// The ply cap changed (`MaxPlies`).
    pub(crate) fn set_max_plies(&mut self, max_plies: u32) {
        self.record.set_max_plies(max_plies);
    }

    /// Sets up `position <base> moves <moves>`. A command that repeats or
    /// extends the previous one only plays the new moves.
    ///
    /// # Errors
    /// A message for an unreadable base (the position is then unchanged) or
    /// for an illegal move, which ends the game: the side that played it
    /// loses. A move after the end by the rules or the ply cap is ignored
    /// with a message.
    pub(crate) fn set_position(
        &mut self,
        base: &PositionBase,
        moves: &[MoveToken],
    ) -> Result<(), String> {
        let played = self.record.moves().len();
        let extends = *base == self.base
            && self.forfeit.is_none()
            && moves.len() >= played
            && moves[..played] == self.record.moves()[..];
        if !extends {
            let position = match base {
                PositionBase::StartPos => self.entry.start(self.variant).map_err(|e| e.to_string()),
                PositionBase::Fen(text) => self
                    .entry
                    .from_text(text, self.variant)
                    .map_err(|e| format!("{} ('{}')", quoting(&e.to_string(), text), quote(text))),
            }?;
            self.base = base.clone();
            self.record = GameRecord::new(position, self.record.max_plies());
            self.forfeit = None;
        }
        for (index, text) in moves.iter().enumerate().skip(self.record.moves().len()) {
            let mover = self.record.position().side_to_move();
            match self.record.play(text) {
                Ok(_) => {}
                Err(RecordError::Ended { outcome, .. }) if self.record.ended_at_cap() => {
                    return Err(format!(
                        "move {} of the history, '{}', comes after the ply cap ended the game \
                         ({outcome}); ignored",
                        index + 1,
                        quote(text),
                    ));
                }
                Err(error) => {
                    let reason = match error {
                        RecordError::Move { error, .. } => error.to_string(),
                        RecordError::Ended { .. } => {
                            format!("illegal move '{text}': the game is over")
                        }
                    };
                    self.forfeit = Some(Forfeit { loser: mover });
                    return Err(format!(
                        "move {} of the history, '{}', is illegal ({}); the game is over: \
                         {} wins",
                        index + 1,
                        quote(text),
                        quoting(&reason, text),
                        p_name(mover.other())
                    ));
                }
            }
        }
        Ok(())
    }

    /// The position after the last legal move.
    pub(crate) fn position(&self) -> &dyn SearchGame {
        self.record.position()
    }

    /// Plies left before the ply cap, for the search (`None`: no cap).
    pub(crate) fn plies_left(&self) -> Option<u32> {
        self.record.plies_left()
    }

    /// How the game ended: a forfeit, the rules, or the ply cap with the
    /// game's adjudication.
    pub(crate) fn outcome(&self) -> Option<Outcome> {
        if let Some(forfeit) = &self.forfeit {
            return Some(Outcome::win(forfeit.loser.other(), "illegal move"));
        }
        self.record.outcome()
    }
}

/// `p1` or `p2`.
pub(crate) fn p_name(player: Player) -> &'static str {
    match player {
        Player::First => "p1",
        Player::Second => "p2",
    }
}
