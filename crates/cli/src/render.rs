//! Draws a [`BoardView`] as text. It knows no rules: legal targets come from the view's moves.

use std::collections::HashSet;

use gridplay_core::{BoardView, GameInfo, Player, Status};

/// The board with coordinates, legal targets marked `*` (placements) or in brackets (other actions), and a
/// status line.
pub(crate) fn board(view: &BoardView, info: &GameInfo) -> String {
    let targets: HashSet<u32> = view
        .moves
        .iter()
        .filter(|m| m.kind == "place")
        .flat_map(|m| m.path.iter().copied())
        .collect();
    // Actions on a square that move no piece there (YWF's Change) are bracketed; piece moves (checkers, Grid
    // Tactics) are listed instead, since every square they pass would be marked.
    let marked: HashSet<u32> = view
        .moves
        .iter()
        .filter(|m| m.kind != "place" && m.from.is_none())
        .flat_map(|m| m.path.iter().copied())
        .collect();
    let rank_width = view.ranks.iter().map(String::len).max().unwrap_or(1);
    // Cells are one character and a space; with bracketed targets, three characters centred.
    let wide = !marked.is_empty();
    let file_width = view.files.iter().map(String::len).max().unwrap_or(1) + 1;
    let cell = |text: &str| {
        if wide {
            format!("{text:^3}")
        } else {
            format!("{text:>file_width$}")
        }
    };
    let mut out = String::new();
    let header: String = view.files.iter().map(|f| cell(f)).collect();
    out.push_str(&format!("{:rank_width$}{header}\n", ""));
    for (row, rank) in view.ranks.iter().enumerate() {
        out.push_str(&format!("{rank:>rank_width$}"));
        for col in 0..view.width {
            let i = row as u32 * view.width + col;
            let square = &view.cells[i as usize];
            let glyph = match &square.piece {
                Some(p) => p.glyph,
                None if targets.contains(&i) => '*',
                None => '.',
            };
            let text = if marked.contains(&i) {
                format!("[{glyph}]")
            } else {
                glyph.to_string()
            };
            out.push_str(&cell(&text));
        }
        out.push_str(&format!(" {rank}\n"));
    }
    out.push_str(&format!("{:rank_width$}{header}\n", ""));
    if wide {
        let mut kinds: Vec<&str> = view
            .moves
            .iter()
            .filter(|m| m.kind != "place" && m.from.is_none() && !m.path.is_empty())
            .map(|m| m.kind.as_ref())
            .collect();
        kinds.dedup();
        out.push_str(&format!("[ ] marks the targets of: {}\n", kinds.join(", ")));
    }
    if view.cells.iter().any(|c| c.label.is_some()) {
        out.push_str(&numbering(view));
    }
    if view
        .cells
        .iter()
        .any(|c| c.piece.as_ref().is_some_and(|p| p.label.is_some()))
    {
        out.push_str(&pieces(view, info));
    }
    out.push_str(&status(view, info));
    out.push('\n');
    for (label, value) in &view.info {
        out.push_str(&format!("{label}: {value}\n"));
    }
    out
}

fn side(info: &GameInfo, p: Player) -> &str {
    &info.sides[p.index()].name
}

/// `Black 2 - 2 White, Black to move` or the result.
pub(crate) fn status(view: &BoardView, info: &GameInfo) -> String {
    let score = format!(
        "{} {} - {} {}",
        side(info, Player::First),
        view.score.first,
        view.score.second,
        side(info, Player::Second)
    );
    match (view.status, view.turn) {
        (Status::Over { outcome }, _) => match outcome.winner() {
            Some(w) => format!("{score}. Game over: {} wins.", side(info, w)),
            None => format!("{score}. Game over: a draw."),
        },
        (Status::Ongoing, Some(turn)) => format!("{score}. {} to move.", side(info, turn)),
        (Status::Ongoing, None) => score,
    }
}

/// The square numbers, for games that name squares by number (checkers), laid out like the board.
fn numbering(view: &BoardView) -> String {
    let width = view
        .cells
        .iter()
        .filter_map(|c| c.label.as_ref())
        .map(String::len)
        .max()
        .unwrap_or(1)
        + 1;
    let mut out = String::from("Squares:\n");
    for row in view.cells.chunks(view.width as usize) {
        let line: String = row
            .iter()
            .map(|c| format!("{:>width$}", c.label.as_deref().unwrap_or(".")))
            .collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Pieces that carry a label (units and their health), one line per side.
fn pieces(view: &BoardView, info: &GameInfo) -> String {
    let mut out = String::new();
    for p in Player::BOTH {
        let units: Vec<String> = view
            .cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                c.piece
                    .as_ref()
                    .filter(|pc| pc.owner == Some(p))
                    .map(|pc| (i, pc))
            })
            .map(|(i, pc)| {
                let (x, y) = (i % view.width as usize, i / view.width as usize);
                let used = if pc.ghost { " (acted)" } else { "" };
                let label = pc.label.as_deref().unwrap_or("");
                format!("{}{} {} {label}{used}", view.files[x], view.ranks[y], pc.kind)
            })
            .collect();
        out.push_str(&format!("{}: {}\n", info.sides[p.index()].name, units.join(", ")));
    }
    out
}
