//! One test per rule of `docs/rules/cornered.md`, with the vectors of RULINGS.md.

use gridplay_core::{
    Game, Outcome, Player, Position, Score,
    perft::{parse_table, perft_naive},
    testkit,
};

use super::{Cornered, CorneredPosition, Illegal, Tie, board::Cross, notation};

fn game(size: u8) -> Cornered {
    Cornered { size, tie: Tie::Draw }
}

fn play(size: u8, moves: &str) -> CorneredPosition {
    let mut p = game(size).start();
    for m in moves.split_whitespace() {
        p.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    p
}

fn glyph(c: Cross) -> char {
    match c {
        Cross::Empty => '.',
        Cross::Placed(Player::First) => 'W',
        Cross::Placed(Player::Second) => 'B',
        Cross::Occupied(Player::First) => 'w',
        Cross::Occupied(Player::Second) => 'b',
    }
}

/// A rank (1 = bottom) read left to right, as `W w W w w`.
fn rank(p: &CorneredPosition, r: usize) -> String {
    let n = p.board().size();
    let row = n - r;
    (0..n)
        .map(|c| glyph(p.board().get(row * n + c)).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A file (0 = a) read top to bottom.
fn file(p: &CorneredPosition, f: usize) -> String {
    let n = p.board().size();
    (0..n)
        .map(|row| glyph(p.board().get(row * n + f)).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn occupied(p: &CorneredPosition) -> Vec<String> {
    let n = p.board().size();
    (0..n * n)
        .filter(|&i| matches!(p.board().get(i), Cross::Occupied(_)))
        .map(|i| notation::square_name(i, n))
        .collect()
}

#[test]
fn rule_1_board_sizes_2_to_25() {
    for n in [2u8, 3, 5, 9, 19, 25] {
        let p = game(n).start();
        assert_eq!(p.legal_moves().len(), usize::from(n) * usize::from(n));
    }
    for bad in ["cornered:size=1", "cornered:size=26", "cornered:size=x"] {
        assert!(Cornered::from_spec(&bad.parse().unwrap()).is_err(), "{bad}");
    }
    assert_eq!(Cornered::default().size, 9);
}

#[test]
fn rule_2_white_first_any_empty_cross_never_a_pass() {
    let p = game(5).start();
    assert_eq!(p.turn(), Player::First);
    let p = play(5, "c3");
    assert_eq!(p.turn(), Player::Second);
    assert!(!p.legal_moves().iter().any(|&m| p.move_text(m) == "c3"));
    let err = p.validate(p.parse_move("c3").unwrap()).unwrap_err();
    assert_eq!(err.reason, Illegal::Placed("White").into());
}

#[test]
fn rule_2_occupied_cross_is_forbidden() {
    let p = play(5, "a3 b2 c3");
    let err = p.validate(p.parse_move("b3").unwrap()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "illegal move `b3`: that cross is occupied by White: placing on an occupied cross is forbidden"
    );
    assert_eq!(err.reason, Illegal::Occupied("White").into());
}

#[test]
fn rule_3_vector_row_fill_through_empty() {
    let p = play(5, "a3 b2 c3");
    assert_eq!(rank(&p, 3), "W w W w w");
    assert_eq!(p.score(), Score::new(5, 1));
}

#[test]
fn rule_3_vector_overwrite_enemy_occupation() {
    let p = play(5, "a3 b2 c3 b4");
    assert_eq!(file(&p, 1), "b B b B b");
    assert_eq!(p.score(), Score::new(4, 5));
}

#[test]
fn rule_3_vector_enemy_placed_piece_blocks() {
    let p = play(5, "a3 c3 e3");
    assert!(occupied(&p).is_empty());
}

#[test]
fn rule_3_vector_diagonal() {
    let p = play(5, "a1 e5 c3");
    assert_eq!(occupied(&p), ["d4", "b2"]);
}

#[test]
fn rule_3_vector_own_placed_passed_through() {
    let p = play(5, "b1 e5 d1");
    assert_eq!(rank(&p, 1), "w W w W w");
}

#[test]
fn rule_3_vector_fill_stops_before_enemy_placed() {
    let p = play(5, "a3 e3 c3");
    assert_eq!(rank(&p, 3), "W w W w B");
}

#[test]
fn rule_3_lines_are_decided_before_filling() {
    // Filling one line never changes a placed piece, so no line's activity depends on another's filling:
    // placing in every order of the lines gives one result. Check it against a one-line-at-a-time replay.
    let mut rng = gridplay_core::playout::seeded(3);
    for _ in 0..200 {
        let (p, _) = gridplay_core::playout::random_playout(&game(7).start(), &mut rng, 20, |_| {});
        for m in p.legal_moves() {
            let i = usize::from(m);
            let before = p.board().active_lines(i, p.turn());
            let mut after = p.clone();
            after.play_unchecked(m);
            // Any line that was active still has the mover's placed piece as its first placed piece.
            let again = after.board().active_lines(i, p.turn());
            for (b, a) in before.iter().zip(again) {
                assert!(!b || a, "{}", p.to_text());
            }
        }
    }
}

#[test]
fn rule_4_placed_pieces_never_change() {
    let mut rng = gridplay_core::playout::seeded(4);
    for _ in 0..50 {
        let mut p = game(6).start();
        while !p.is_over() {
            let before: Vec<Cross> = p.board().cells().to_vec();
            let moves = p.legal_moves();
            let m = moves[rand::RngExt::random_range(&mut rng, 0..moves.len())];
            p.play_unchecked(m);
            for (i, c) in before.iter().enumerate() {
                if matches!(c, Cross::Placed(_)) {
                    assert_eq!(p.board().get(i), *c);
                }
            }
        }
    }
}

#[test]
fn rule_5_score_is_placed_plus_occupied() {
    let p = play(5, "a3 b2 c3 b4");
    let view = p.view();
    assert_eq!(view.score, Score::new(4, 5));
    assert_eq!(view.info, vec![("difference".to_owned(), "-1".to_owned())]);
}

#[test]
fn rule_6_game_ends_when_no_empty_cross_remains() {
    let p = game(2).parse_position("WB/wW B").unwrap();
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    assert!(p.legal_moves().is_empty());
    let draw = game(2).parse_position("WB/bw W").unwrap();
    assert_eq!(draw.outcome(), Some(Outcome::Draw));
    let black_ties = Cornered {
        size: 2,
        tie: Tie::Black,
    }
    .parse_position("WB/bw W")
    .unwrap();
    assert_eq!(
        black_ties.outcome(),
        Some(Outcome::Win {
            winner: Player::Second
        })
    );
    let going = game(2).parse_position("WB/b1 W").unwrap();
    assert_eq!(going.outcome(), None);
}

#[test]
fn rule_7_perft_3x3() {
    let table = parse_table(include_str!("../../tests/perft/cornered-3x3.perft")).unwrap();
    let start = game(3).start();
    for (depth, count) in table {
        assert_eq!(start.perft(depth), count, "perft {depth}");
        assert_eq!(perft_naive(&start, depth), count, "naive perft {depth}");
    }
}

#[test]
fn rule_8_position_text() {
    let p = play(5, "a3 b2 c3 b4");
    assert_eq!(p.to_text(), "1b3/1B3/WbWww/1B3/1b3 W");
    assert_eq!(game(25).start().to_text().split('/').count(), 25);
    let g = game(5);
    assert!(
        g.parse_position("5/5/5/5 W")
            .unwrap_err()
            .reason
            .contains("must be square")
    );
    assert!(
        g.parse_position("5/5/5/5/6 W")
            .unwrap_err()
            .reason
            .contains("more than 5")
    );
    assert!(
        g.parse_position("5/5/5/5/4 W")
            .unwrap_err()
            .reason
            .contains("has 4 crosses")
    );
    assert!(
        g.parse_position("5/5/5/5/5")
            .unwrap_err()
            .reason
            .contains("missing")
    );
    assert!(
        g.parse_position("5/5/5/5/5 Q")
            .unwrap_err()
            .reason
            .contains("not a side")
    );
    assert!(
        g.parse_position("5/5/5/5/4x W")
            .unwrap_err()
            .reason
            .contains("`x` is not a cross")
    );
    assert!(g.parse_position("5/5/5/5/05 W").is_err());
    assert!(g.parse_position("99999999999999999999999/5/5/5/5 W").is_err());
}

#[test]
fn rule_8_square_names() {
    assert_eq!(notation::parse_square("a1", 5), Ok(20));
    assert_eq!(notation::parse_square("e5", 5), Ok(4));
    assert_eq!(notation::square_name(4, 5), "e5");
    assert_eq!(notation::parse_square("y25", 25), Ok(24));
    for bad in ["f1", "a6", "a0", "a", "", "11", "a01", "a+1"] {
        assert!(notation::parse_square(bad, 5).is_err(), "{bad}");
    }
}

#[test]
fn generic_invariants_hold_on_random_games() {
    for n in [2u8, 3, 4, 5, 9, 13] {
        testkit::check_game(
            &game(n),
            &testkit::Plan {
                games: 12,
                ..Default::default()
            },
            |p| {
                let s = p.score();
                let total = p.board().cells().iter().filter(|c| **c != Cross::Empty).count() as i32;
                assert_eq!(s.first + s.second, total);
            },
        );
    }
    testkit::check_game(
        &Cornered {
            size: 4,
            tie: Tie::Black,
        },
        &testkit::Plan::default(),
        |_| {},
    );
}

/// Rules 2, 3 and 6 of `docs/rules/cornered.md` written apart from the library, on positions' text, for
/// differential tests: a grid of characters, each ray walked cross by cross.
mod reference {
    use std::collections::BTreeSet;

    /// A position: `rows[0]` is the top rank; each cross `W`/`B` placed, `w`/`b` occupied or `.`; and the side
    /// to move (`W` or `B`).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub(super) struct Pos {
        rows: Vec<Vec<char>>,
        side: char,
    }

    pub(super) fn parse(text: &str) -> Pos {
        let (board, side) = text.split_once(' ').expect("a side");
        let mut rows = Vec::new();
        for row in board.split('/') {
            let mut cells = Vec::new();
            let mut digits = String::new();
            for c in row.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                } else {
                    if !digits.is_empty() {
                        cells.extend(std::iter::repeat_n('.', digits.parse().unwrap()));
                        digits.clear();
                    }
                    cells.push(c);
                }
            }
            if !digits.is_empty() {
                cells.extend(std::iter::repeat_n('.', digits.parse().unwrap()));
            }
            rows.push(cells);
        }
        let n = rows.len();
        assert!(rows.iter().all(|r| r.len() == n), "{text}");
        Pos {
            rows,
            side: side.chars().next().expect("a side"),
        }
    }

    pub(super) fn text(p: &Pos) -> String {
        let rows: Vec<String> = p
            .rows
            .iter()
            .map(|row| {
                let mut s = String::new();
                let mut run = 0;
                for &c in row {
                    if c == '.' {
                        run += 1;
                        continue;
                    }
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    s.push(c);
                }
                if run > 0 {
                    s.push_str(&run.to_string());
                }
                s
            })
            .collect();
        format!("{} {}", rows.join("/"), p.side)
    }

    /// A cross's name: file letter, then rank counted from the bottom.
    fn name(n: usize, row: usize, col: usize) -> String {
        format!("{}{}", (b'a' + col as u8) as char, n - row)
    }

    /// Every empty cross while one is left (rule 2 and 6).
    pub(super) fn moves(p: &Pos) -> BTreeSet<String> {
        let n = p.rows.len();
        let mut out = BTreeSet::new();
        for (r, row) in p.rows.iter().enumerate() {
            for (c, &x) in row.iter().enumerate() {
                if x == '.' {
                    out.insert(name(n, r, c));
                }
            }
        }
        out
    }

    pub(super) fn play(p: &Pos, mv: &str) -> Pos {
        let n = p.rows.len() as i32;
        let me = p.side;
        let enemy = if me == 'W' { 'B' } else { 'W' };
        let col = i32::from(mv.as_bytes()[0] - b'a');
        let row = n - mv[1..].parse::<i32>().unwrap();
        let mut q = p.clone();
        q.rows[row as usize][col as usize] = me;
        let inside = |r: i32, c: i32| (0..n).contains(&r) && (0..n).contains(&c);
        // Whether the ray from the move in direction (dr, dc) first meets a placed piece of the mover's.
        let meets_own = |dr: i32, dc: i32| {
            let (mut r, mut c) = (row + dr, col + dc);
            while inside(r, c) {
                match p.rows[r as usize][c as usize] {
                    x if x == me => return true,
                    x if x == enemy => return false,
                    _ => {}
                }
                r += dr;
                c += dc;
            }
            false
        };
        let active: Vec<(i32, i32)> = [(0, 1), (1, 0), (1, 1), (1, -1)]
            .into_iter()
            .filter(|&(dr, dc)| meets_own(dr, dc) || meets_own(-dr, -dc))
            .collect();
        let occupied = me.to_ascii_lowercase();
        for (dr, dc) in active {
            for (dr, dc) in [(dr, dc), (-dr, -dc)] {
                let (mut r, mut c) = (row + dr, col + dc);
                while inside(r, c) && p.rows[r as usize][c as usize] != enemy {
                    if p.rows[r as usize][c as usize] != me {
                        q.rows[r as usize][c as usize] = occupied;
                    }
                    r += dr;
                    c += dc;
                }
            }
        }
        q.side = enemy;
        q
    }

    /// The reference as the differential tests take it.
    pub(super) struct Rules;

    impl gridplay_core::testkit::Reference for Rules {
        fn moves(&self, position: &str) -> BTreeSet<String> {
            moves(&parse(position))
        }

        fn play(&self, position: &str, mv: &str) -> String {
            text(&play(&parse(position), mv))
        }
    }
}

#[test]
fn rules_2_3_and_6_match_a_reference_written_apart() {
    // Random games on boards from 2x2 to 25x25, every position compared: the crosses that may be played, and
    // the position each move leads to.
    let starts = [2, 3, 4, 5, 8, 9, 13, 25]
        .repeat(3)
        .into_iter()
        .map(|n| game(n).start());
    let games = testkit::differential(&reference::Rules, starts, 3);
    let compared: usize = games.iter().map(Vec::len).sum();
    assert!(compared > 300, "{compared} moves compared");
}

#[test]
fn the_3x3_perft_table_is_confirmed_by_the_reference() {
    use gridplay_core::testkit::Reference;
    let table = parse_table(include_str!("../../tests/perft/cornered-3x3.perft")).unwrap();
    let start = game(3).start().to_text();
    for (depth, count) in table {
        assert_eq!(reference::Rules.perft(&start, depth), count, "perft {depth}");
    }
}
