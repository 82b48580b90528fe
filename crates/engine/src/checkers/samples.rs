//! The positions a checkers evaluation is fitted to ([`Sample`]), and their file (`gridplay train checkers
//! --samples-out`, `--samples-in`).

use crate::DataError;
use gridplay_core::Player;
use gridplay_games::checkers::bitboard::Board;

/// One training position: the board, the side to move, and its label for that side, from 0 (lost) to 1 (won):
/// the game's result, or that blended with the search's score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub board: Board,
    pub turn: Player,
    pub result: f32,
}

/// The header of a samples file ([`samples_to_bytes`]).
const SAMPLES_MAGIC: &[u8; 8] = b"GPCKS01\n";
/// Bytes of one sample: three `u32` bitboards (Black's pieces, White's, the kings), the side to move (0 or
/// 1) and the label (`f32`).
const SAMPLE_BYTES: usize = 17;

/// The samples file format: an 8-byte header, then each sample in 17 little-endian bytes.
#[must_use]
pub fn samples_to_bytes(samples: &[Sample]) -> Vec<u8> {
    let mut out = Vec::with_capacity(SAMPLES_MAGIC.len() + SAMPLE_BYTES * samples.len());
    out.extend_from_slice(SAMPLES_MAGIC);
    for s in samples {
        out.extend_from_slice(&s.board.pieces[0].to_le_bytes());
        out.extend_from_slice(&s.board.pieces[1].to_le_bytes());
        out.extend_from_slice(&s.board.kings.to_le_bytes());
        out.push(s.turn.index() as u8);
        out.extend_from_slice(&s.result.to_le_bytes());
    }
    out
}

/// Reads [`samples_to_bytes`].
///
/// # Errors
///
/// When the header or the length is wrong, or a sample is not a position of checkers with a label from 0 to
/// 1: the error names the sample.
pub fn samples_from_bytes(bytes: &[u8]) -> Result<Vec<Sample>, DataError> {
    let bad = |reason: String| DataError::format("checkers samples", reason);
    let body = bytes
        .strip_prefix(SAMPLES_MAGIC.as_slice())
        .ok_or_else(|| bad("not a checkers samples file: the header is missing".into()))?;
    if !body.len().is_multiple_of(SAMPLE_BYTES) {
        return Err(bad(format!(
            "a checkers samples file holds whole samples of {SAMPLE_BYTES} bytes; this one ends {} bytes into one",
            body.len() % SAMPLE_BYTES
        )));
    }
    body.chunks_exact(SAMPLE_BYTES)
        .enumerate()
        .map(|(i, c)| {
            let word = |at: usize| u32::from_le_bytes([c[at], c[at + 1], c[at + 2], c[at + 3]]);
            let board = Board {
                pieces: [word(0), word(4)],
                kings: word(8),
            };
            let turn = match c[12] {
                0 => Player::First,
                1 => Player::Second,
                t => return Err(bad(format!("sample {}: side to move {t}, not 0 or 1", i + 1))),
            };
            let result = f32::from_le_bytes([c[13], c[14], c[15], c[16]]);
            if board.pieces[0] & board.pieces[1] != 0
                || board.kings & !(board.pieces[0] | board.pieces[1]) != 0
            {
                return Err(bad(format!(
                    "sample {}: not a checkers position (pieces overlap, or a king on an empty square)",
                    i + 1
                )));
            }
            if !(0.0..=1.0).contains(&result) {
                return Err(bad(format!("sample {}: label {result}, not from 0 to 1", i + 1)));
            }
            Ok(Sample { board, turn, result })
        })
        .collect()
}
