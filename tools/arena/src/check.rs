//! Checking game records wherever they come from — read back from a state
//! file on resume, or from the shards given to `merge`: every record is
//! replayed under its own ply cap, and its end, result, score, blame and
//! opening must be what its moves give.

use std::collections::HashSet;
use std::sync::Mutex;

use anyhow::{Result, bail};
use board_core::{Outcome, Player, RecordError};
use search::{DynTable, GameEntry, SearchGame};

use crate::adjudicate::{TableResults, table_verdict};
use crate::record::{GameRecord, Termination};
use crate::schedule::Opening;

/// Checks what `record` says of itself against `entry`'s rules: its game,
/// variant and colours, its engines and round (those its pairing's schedule
/// has for its id), its pair (the schedule's: `id / 2` with two games per
/// encounter), its opening (the base position
/// and the first `opening_plies` moves, not already over), every move legal
/// under its ply cap, and its end: a normal end or the cap where the moves
/// end the game so, with the result, score and reason they give; a forfeit
/// where they do not, lost by the side to move (or, for an engine that did
/// not start, by either side before the first engine move), its reason
/// naming that engine.
///
/// # Errors
/// The first thing that does not fit, in words.
pub(crate) fn verify(entry: &GameEntry, record: &GameRecord) -> Result<()> {
    if record.game != entry.name {
        bail!("a game of {}, not {}", record.game, entry.name);
    }
    let variant = entry.variant(&record.variant)?;
    if variant != record.variant {
        bail!("variant '{}', which the arena writes '{variant}'", record.variant);
    }
    if record.tournament.is_empty() {
        bail!("no tournament fingerprint: a record of an older arena");
    }
    let Some(max_plies) = record.max_plies else {
        bail!("no max_plies: a record of an older arena");
    };
    let Some(pairing) = &record.pairing else {
        bail!("no pairing (engines and rounds): a record of an older arena");
    };
    let Some(fixture) = pairing.fixture(record.id) else {
        bail!("the id is not in the schedule of {} games", pairing.games());
    };
    let (p1, p2) = (&pairing.engines[fixture.p1], &pairing.engines[fixture.p2]);
    if (&record.p1, &record.p2) != (p1, p2) || record.round != fixture.round {
        bail!(
            "{} vs {} in round {}, where the schedule has {p1} vs {p2} in round {}",
            record.p1,
            record.p2,
            record.round,
            fixture.round
        );
    }
    let colours = [entry.player_names.first, entry.player_names.second];
    if record.colours != colours {
        bail!("colours {:?}, where {} has {colours:?}", record.colours, entry.name);
    }
    if record.pair != fixture.pair {
        bail!("pair {}, where game {} belongs to pair {}", record.pair, record.id, fixture.pair);
    }
    let plies = record.opening_plies as usize;
    let Some((opening_moves, engine_moves)) = record.moves.split_at_checked(plies) else {
        bail!("{plies} opening plies, but {} moves", record.moves.len());
    };
    let opening = Opening { fen: record.fen.clone(), moves: opening_moves.to_vec() };
    if record.opening != opening.to_string() {
        bail!("opening '{}', where its position and first moves make '{opening}'", record.opening);
    }
    let mut game = board_core::GameRecord::new(opening.base(entry, variant)?, max_plies);
    let second_first = plies == 0 && game.position().side_to_move() == Player::Second;
    if record.second_moves_first != second_first {
        bail!(
            "second_moves_first is {}, where the position says {second_first}",
            record.second_moves_first
        );
    }
    for mv in opening_moves {
        play(&mut game, mv)?;
    }
    if let Some(end) = game.outcome() {
        bail!("the opening '{opening}' ends the game ({end})");
    }
    for mv in engine_moves {
        play(&mut game, mv)?;
    }
    let loser = match record.result.as_str() {
        "1-0" => Some(Player::Second),
        "0-1" => Some(Player::First),
        "1/2-1/2" => None,
        other => bail!("result {other}: not 1-0, 0-1 or 1/2-1/2"),
    };
    let name = |side: Player| if side == Player::First { &record.p1 } else { &record.p2 };
    match (record.termination, game.outcome()) {
        (Termination::Normal | Termination::MaxPlies, Some(end))
            if (record.termination == Termination::MaxPlies) == game.ended_at_cap() =>
        {
            if record.result != end.result_text() {
                bail!("result {} where the moves give {}", record.result, end.result_text());
            }
            let score = end.score.map(|s| [s.first, s.second]);
            if record.score != score {
                bail!(
                    "score {} where the moves give {}",
                    score_text(record.score),
                    score_text(score)
                );
            }
            if record.reason != end.reason {
                bail!("reason '{}' where the moves give '{}'", record.reason, end.reason);
            }
            for disagreement in &record.disagreements {
                let of = |side| disagreement.starts_with(&format!("{}: ", name(side)));
                if !Player::BOTH.into_iter().any(of) {
                    bail!("disagreement '{disagreement}' of no engine of the game");
                }
            }
        }
        (Termination::Normal | Termination::MaxPlies, _) => {
            bail!("'{}' where the moves do not end so", record.termination)
        }
        (Termination::Adjudication, Some(end)) => bail!("an adjudication after the end ({end})"),
        (Termination::Adjudication, None) => {
            if engine_moves.is_empty() {
                bail!("an adjudication before any engine move");
            }
            adjudicated(entry, record, game.position(), loser)?;
            if record.score.is_some() {
                bail!("a score ({}) in an adjudicated game", score_text(record.score));
            }
            if record.reason.is_empty() {
                bail!("an adjudication without a reason");
            }
            if !record.disagreements.is_empty() {
                bail!("disagreements about an adjudicated game");
            }
        }
        (forfeit, Some(end)) => bail!("a forfeit ('{forfeit}') after the end ({end})"),
        (forfeit, None) => {
            let Some(loser) = loser else {
                bail!("a forfeit ('{forfeit}') with result {}", record.result);
            };
            let to_move = game.position().side_to_move();
            let before_play = engine_moves.is_empty()
                && matches!(
                    forfeit,
                    Termination::Disconnect | Termination::Stall | Termination::GarbageOutput
                );
            let colour = entry.player_names[loser];
            if loser != to_move && !before_play {
                bail!(
                    "a {forfeit} lost by {} ({colour}), who was not to move after ply {}",
                    name(loser),
                    record.moves.len()
                );
            }
            if record.score.is_some() {
                bail!("a score ({}) in a forfeit", score_text(record.score));
            }
            let blamed = format!("{} ({colour}): ", name(loser));
            if !record.reason.starts_with(&blamed) {
                bail!("reason '{}' does not begin with the loser '{blamed}'", record.reason);
            }
            if !record.disagreements.is_empty() {
                bail!("disagreements about a forfeit");
            }
        }
    }
    if !record.evals.is_empty() && record.evals.len() != engine_moves.len() {
        bail!(
            "{} move evaluations for {} moves after the opening",
            record.evals.len(),
            engine_moves.len()
        );
    }
    Ok(())
}

/// Checks what can be checked of an adjudication from the record alone:
/// a table's verdict is the table's on the last position (the table built
/// or loaded once per process); a resignation is lost by the engine that
/// resigned; a score draw is a draw. (Whether the scores met `--draw` or
/// `--resign` depends on the tournament's rules, which its fingerprint
/// holds.)
fn adjudicated(
    entry: &GameEntry,
    record: &GameRecord,
    pos: &dyn SearchGame,
    loser: Option<Player>,
) -> Result<()> {
    let winner = loser.map(Player::other);
    if record.reason.starts_with("table: ") {
        let Some(table) = game_table(entry) else {
            bail!("a table adjudication in {}, which has no table", entry.name);
        };
        let colours = [entry.player_names.first, entry.player_names.second];
        let verdict = pos.probe_table(&table).and_then(|value| {
            table_verdict(value, pos.side_to_move(), TableResults::Both, colours)
        });
        let Some(verdict) = verdict else {
            bail!("a table adjudication where the table has no value")
        };
        if (verdict.winner, verdict.reason.as_str()) != (winner, record.reason.as_str()) {
            let result = Outcome { winner: verdict.winner, score: None, reason: "" }.result_text();
            bail!(
                "'{}' ({}) where the table says '{}' ({result})",
                record.reason,
                record.result,
                verdict.reason
            );
        }
    } else if let Some((name, _)) = record.reason.split_once(" resigns: ") {
        let resigned = Player::BOTH
            .into_iter()
            .find(|&side| name == if side == Player::First { &record.p1 } else { &record.p2 });
        if resigned.is_none() || resigned != loser {
            bail!("'{}' with result {}", record.reason, record.result);
        }
    } else if record.reason.starts_with("draw: ") {
        if loser.is_some() {
            bail!("'{}' with result {}", record.reason, record.result);
        }
    } else {
        bail!("an adjudication for an unknown reason ('{}')", record.reason);
    }
    Ok(())
}

/// The game's exact table, built or loaded once per process.
pub(crate) fn game_table(entry: &GameEntry) -> Option<DynTable> {
    static TABLES: Mutex<Vec<(&str, DynTable)>> = Mutex::new(Vec::new());
    let mut tables = TABLES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, table)) = tables.iter().find(|(name, _)| *name == entry.name) {
        return Some(table.clone());
    }
    let table = entry.endgame_table()?;
    tables.push((entry.name, table.clone()));
    Some(table)
}

/// Plays one recorded move; the error names it.
fn play(game: &mut board_core::GameRecord<dyn search::SearchGame>, mv: &str) -> Result<()> {
    match game.play(mv) {
        Ok(_) => Ok(()),
        Err(RecordError::Move { ply, error }) => bail!("move {ply} ({mv}): {error}"),
        Err(e) => Err(e.into()),
    }
}

fn score_text(score: Option<[u32; 2]>) -> String {
    score.map_or_else(|| "none".to_owned(), |[a, b]| format!("{a}-{b}"))
}

/// How many of `records` repeat an earlier one move for move: the same
/// engines in the same colours, the same base position and the same moves.
/// Deterministic engines (fixed depth or nodes, no seed they use) repeat
/// their games from one opening; such games add no information.
pub fn repeated_games(records: &[GameRecord]) -> usize {
    let mut seen = HashSet::new();
    records.iter().filter(|r| !seen.insert((&r.p1, &r.p2, &r.fen, &r.moves))).count()
}
