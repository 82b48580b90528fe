//! Squares `a1`..`h8` (file a on the left, rank 1 at the top), moves, transcripts such as `f5d6c3d3c4`, and
//! the one-line position text of Edax and NBoard: 64 characters a1 b1 .. h8 (`X` black, `O` white, `-`
//! empty), a space, and the side to move.

use gridplay_core::{
    Codec, CodecError, DynGame, GameFile, GameRecord, ParseMoveError, Position, PositionError, codec,
    notation::Lettered,
};

use super::{Move, ReversiPosition, bitboard::Square};

/// The squares: files a-h from the left, ranks 1-8 from the top.
const SQUARES: Lettered = Lettered::new(8, 8, true);

/// The name of a square, such as `d3`.
#[must_use]
pub fn square_name(sq: Square) -> String {
    SQUARES.name(usize::from(sq))
}

/// Reads a square name, case-insensitively (`d3` or `D3`).
pub fn parse_square(text: &str) -> Result<Square, ParseMoveError> {
    SQUARES
        .parse(text)
        .map(|i| i as Square)
        .map_err(|e| ParseMoveError::new(text, e.to_string()))
}

/// Reads a move: a square, or `pass` (also `PS` and `PA`, as other Othello programs write it).
pub fn parse_move(text: &str) -> Result<Move, ParseMoveError> {
    let t = text.trim();
    if ["pass", "ps", "pa", "--"]
        .iter()
        .any(|p| t.eq_ignore_ascii_case(p))
    {
        return Ok(Move::Pass);
    }
    parse_square(t)
        .map(Move::Place)
        .map_err(|e| ParseMoveError::new(text, e.reason))
}

/// What a parsed position text holds; validated into a position by the game.
pub(super) struct Setup {
    pub black: u64,
    pub white: u64,
    pub black_to_move: bool,
}

/// Reads the 64-character board, a space and `X` or `O`. `x`, `*` also mean black, `o` white, `.` empty.
pub(super) fn parse_setup(text: &str) -> Result<Setup, PositionError> {
    let text = text.trim();
    let (board, side) = match text.split_once(char::is_whitespace) {
        Some((b, s)) => (b, s.trim()),
        None => (text, ""),
    };
    let mut black = 0u64;
    let mut white = 0u64;
    let mut count = 0usize;
    for (i, c) in board.char_indices() {
        if count == 64 {
            return Err(PositionError::at(i, "the board has more than 64 squares"));
        }
        match c {
            'X' | 'x' | '*' => black |= 1 << count,
            'O' | 'o' => white |= 1 << count,
            '-' | '.' => {}
            _ => {
                return Err(PositionError::at(
                    i,
                    format!("`{c}` is not a square: use X for black, O for white and - for empty"),
                ));
            }
        }
        count += 1;
    }
    if count < 64 {
        return Err(PositionError::new(format!(
            "the board has {count} squares; it needs 64 (a1 b1 .. h1 a2 .. h8), then a space and X or O"
        )));
    }
    let black_to_move = match side {
        "X" | "x" | "*" => true,
        "O" | "o" => false,
        "" => {
            return Err(PositionError::new(
                "the side to move is missing: add a space and X or O",
            ));
        }
        other => {
            return Err(PositionError::at(
                board.len() + 1,
                format!("`{other}` is not a side to move: use X (black) or O (white)"),
            ));
        }
    };
    Ok(Setup {
        black,
        white,
        black_to_move,
    })
}

/// Writes the one-line text.
pub(super) fn write_setup(black: u64, white: u64, black_to_move: bool) -> String {
    let mut s = String::with_capacity(66);
    for sq in 0..64 {
        let bit = 1u64 << sq;
        s.push(if black & bit != 0 {
            'X'
        } else if white & bit != 0 {
            'O'
        } else {
            '-'
        });
    }
    s.push(' ');
    s.push(if black_to_move { 'X' } else { 'O' });
    s
}

/// The usual Othello transcript as the game's file format: the tags, then the squares one after another
/// (`f5d6c3...`, passes left out). A file without a `Game` tag whose text is only squares is read as one.
#[derive(Clone, Copy, Debug, Default)]
pub struct TranscriptCodec;

impl Codec for TranscriptCodec {
    fn extension(&self) -> &'static str {
        "txt"
    }

    fn write(&self, tags: &[(String, String)], record: &GameRecord) -> String {
        let mut out = codec::write_tags(tags, record.outcome().map(|(o, _)| o));
        let squares: String = record
            .moves()
            .iter()
            .filter(|m| !m.eq_ignore_ascii_case("pass"))
            .map(String::as_str)
            .collect();
        out.push_str(&codec::wrap(&squares));
        out.push('\n');
        out
    }

    fn recognizes(&self, _tags: &[(String, String)], body: &str) -> bool {
        let compact: Vec<u8> = body.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
        !compact.is_empty()
            && compact.len().is_multiple_of(2)
            && compact
                .chunks(2)
                .all(|c| matches!(c[0].to_ascii_lowercase(), b'a'..=b'h') && matches!(c[1], b'1'..=b'8'))
    }

    fn read(&self, game: &dyn DynGame, text: &str) -> Result<GameFile, CodecError> {
        let tags = codec::read_tags(text)?;
        let start = game.start();
        let Some(&typed) = start.as_any().downcast_ref::<ReversiPosition>() else {
            return Err(CodecError::Game(format!("{} is not Reversi", game.spec())));
        };
        let mut body = codec::strip_tags(text);
        if let Some(end) = body
            .split_whitespace()
            .find(|w| codec::parse_result(w).is_some() || *w == "*")
        {
            body = body[..body.find(end).unwrap_or(body.len())].to_owned();
        }
        let (_, moves) = typed
            .play_transcript(&body)
            .map_err(|(number, e)| CodecError::Move {
                number,
                text: String::new(),
                error: e.into(),
            })?;
        let mut record = GameRecord::new(start);
        let mut pos = typed;
        for (i, m) in moves.into_iter().enumerate() {
            let text = pos.move_text(m);
            pos.play_unchecked(m);
            record.play(&text).map_err(|error| CodecError::Move {
                number: i + 1,
                text,
                error,
            })?;
        }
        Ok(GameFile {
            record,
            names: [codec::tag(&tags, "First"), codec::tag(&tags, "Second")],
            result: codec::tag(&tags, "Result")
                .as_deref()
                .and_then(codec::parse_result),
        })
    }
}
