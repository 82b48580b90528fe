//! A game as played: its moves, and the rules about its history (repetition, quiet moves) and about the
//! players (draw by agreement, resignation), which a position alone cannot know.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::{DynPosition, MoveError, Outcome, Player};

/// Draw rules that need the history of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HistoryRules {
    /// The game is drawn when a position occurs this many times (same pieces, same side to move).
    pub repetitions: Option<u32>,
    /// The game is drawn after this many plies in a row without progress ([`crate::Position::is_progress`]).
    pub quiet_plies: Option<u32>,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The position ended the game by the game's own rules (no move, no pieces, a full board...).
    Rules,
    /// A position occurred for the third time (or as the game's rule says).
    Repetition,
    /// Too many moves without progress.
    QuietMoves,
    /// A draw offered and accepted.
    Agreement,
    Resignation,
    /// A player's clock ran out.
    Timeout,
    /// A player let the time for a move pass, and the opponent claimed the game.
    Abandoned,
    /// A player's pages were all gone from a live game for the claim's time, and the opponent claimed the win
    /// or a draw.
    Left,
}

/// A request that the record refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    #[error("the game is over")]
    GameOver,
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error("there is no draw offer from your opponent to accept")]
    NoDrawOffer,
    #[error("you have already offered a draw")]
    AlreadyOffered,
}

/// A game from its start position, move by move, with its history rules and the players' own decisions.
#[derive(Clone, Debug)]
pub struct GameRecord {
    start: Box<dyn DynPosition>,
    current: Box<dyn DynPosition>,
    moves: Vec<String>,
    /// Repetition keys of the positions since the last progress move, the current one last.
    keys: Vec<u64>,
    quiet: u32,
    rules: HistoryRules,
    draw_offer: Option<Player>,
    ended: Option<(Outcome, Termination)>,
}

impl GameRecord {
    #[must_use]
    pub fn new(start: Box<dyn DynPosition>) -> GameRecord {
        let rules = start.history_rules();
        let keys = vec![start.repetition_key()];
        GameRecord {
            current: start.clone(),
            start,
            moves: Vec::new(),
            keys,
            quiet: 0,
            rules,
            draw_offer: None,
            ended: None,
        }
    }

    /// Replays moves from a start position.
    ///
    /// # Errors
    ///
    /// The first move that is refused, with its index.
    pub fn replay<'a>(
        start: Box<dyn DynPosition>,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<GameRecord, (usize, RecordError)> {
        let mut record = GameRecord::new(start);
        for (i, m) in moves.into_iter().enumerate() {
            record.play(m).map_err(|e| (i, e))?;
        }
        Ok(record)
    }

    #[must_use]
    pub fn start(&self) -> &dyn DynPosition {
        self.start.as_ref()
    }

    #[must_use]
    pub fn position(&self) -> &dyn DynPosition {
        self.current.as_ref()
    }

    /// The moves played, as canonical texts.
    #[must_use]
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// Plies since the last capture or other progress.
    #[must_use]
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// The side whose draw offer stands, if any.
    #[must_use]
    pub fn draw_offer(&self) -> Option<Player> {
        self.draw_offer
    }

    /// How the game ended, or `None` while it goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<(Outcome, Termination)> {
        if let Some(end) = self.ended {
            return Some(end);
        }
        self.current.outcome().map(|o| (o, Termination::Rules))
    }

    fn check_open(&self) -> Result<(), RecordError> {
        if self.outcome().is_some() {
            Err(RecordError::GameOver)
        } else {
            Ok(())
        }
    }

    /// Plays a move (checked). A standing draw offer lapses. Returns the move's canonical text.
    pub fn play(&mut self, mv: &str) -> Result<String, RecordError> {
        self.check_open()?;
        let played = self.current.play_recorded(mv)?;
        self.moves.push(played.text.clone());
        self.draw_offer = None;
        let key = self.current.repetition_key();
        if played.progress {
            self.quiet = 0;
            self.keys.clear();
        } else {
            self.quiet += 1;
        }
        self.keys.push(key);
        if self.current.outcome().is_none() {
            let seen = self.keys.iter().filter(|&&k| k == key).count() as u32;
            if self.rules.repetitions.is_some_and(|n| seen >= n) {
                self.ended = Some((Outcome::Draw, Termination::Repetition));
            } else if self.rules.quiet_plies.is_some_and(|n| self.quiet >= n) {
                self.ended = Some((Outcome::Draw, Termination::QuietMoves));
            }
        }
        Ok(played.text)
    }

    /// `by` offers a draw; it stands until the opponent accepts or declines it, or a move is played.
    pub fn offer_draw(&mut self, by: Player) -> Result<(), RecordError> {
        self.check_open()?;
        match self.draw_offer {
            Some(p) if p == by => Err(RecordError::AlreadyOffered),
            // Offering when the opponent's offer stands is accepting it.
            Some(_) => self.accept_draw(by),
            None => {
                self.draw_offer = Some(by);
                Ok(())
            }
        }
    }

    /// `by` accepts the opponent's standing offer: the game is drawn.
    pub fn accept_draw(&mut self, by: Player) -> Result<(), RecordError> {
        self.check_open()?;
        if self.draw_offer != Some(!by) {
            return Err(RecordError::NoDrawOffer);
        }
        self.draw_offer = None;
        self.ended = Some((Outcome::Draw, Termination::Agreement));
        Ok(())
    }

    /// `by` declines the opponent's standing offer.
    pub fn decline_draw(&mut self, by: Player) -> Result<(), RecordError> {
        self.check_open()?;
        if self.draw_offer != Some(!by) {
            return Err(RecordError::NoDrawOffer);
        }
        self.draw_offer = None;
        Ok(())
    }

    /// `loser` loses on time: by its clock running out ([`Termination::Timeout`]) or by letting a
    /// correspondence deadline pass, claimed by the opponent ([`Termination::Abandoned`]).
    pub fn forfeit(&mut self, loser: Player, why: Termination) -> Result<(), RecordError> {
        self.check_open()?;
        self.ended = Some((Outcome::Win { winner: !loser }, why));
        Ok(())
    }

    /// The game ends drawn for `why` (a draw claimed after the opponent left).
    pub fn draw(&mut self, why: Termination) -> Result<(), RecordError> {
        self.check_open()?;
        self.ended = Some((Outcome::Draw, why));
        self.draw_offer = None;
        Ok(())
    }

    /// `by` resigns: the opponent wins.
    pub fn resign(&mut self, by: Player) -> Result<(), RecordError> {
        self.check_open()?;
        self.ended = Some((Outcome::Win { winner: !by }, Termination::Resignation));
        Ok(())
    }
}
