//! One test per rule of `docs/rules/ywf.md`, with the vectors of RULINGS.md.

use gridplay_core::{
    Game, GameSpec, Outcome, Player, Position, Reason, Score,
    perft::{parse_table, perft_naive},
    testkit,
};

use super::{
    DEFAULT_LAYOUT, Illegal, Move, Ywf, YwfPosition,
    board::{SIZE, Square},
    notation,
};

fn pos(text: &str) -> YwfPosition {
    Ywf::default()
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(p: &YwfPosition) -> Vec<String> {
    p.legal_moves().iter().map(|&m| p.move_text(m)).collect()
}

fn at(p: &YwfPosition, name: &str) -> Square {
    p.board().squares[notation::parse_square(name).unwrap()]
}

const W: Square = Square::Own(Player::First);
const Y: Square = Square::Own(Player::Second);
const F: Square = Square::Futsu;

#[test]
fn rule_1_board_and_first_actor() {
    let p = Ywf::default().start();
    assert_eq!(p.board().squares.len(), 81);
    assert_eq!(p.turn(), Player::First);
    assert_eq!(Ywf::default().info().sides[0].name, "Warui-ko");
}

#[test]
fn rule_2_initial_position() {
    let p = Ywf::default().start();
    assert_eq!(p.to_text(), "9/9/9/3YWF3/3WFY3/3FYW3/9/9/9 W C -");
    for (sq, s) in [
        ("d4", Y),
        ("e4", W),
        ("f4", F),
        ("d5", W),
        ("e5", F),
        ("f5", Y),
        ("d6", F),
        ("e6", Y),
        ("f6", W),
    ] {
        assert_eq!(at(&p, sq), s, "{sq}");
    }
    // Every row and column of the block holds one piece of each kind.
    for k in 3..6 {
        let row: Vec<Square> = (3..6).map(|c| p.board().squares[k * SIZE + c]).collect();
        let col: Vec<Square> = (3..6).map(|r| p.board().squares[r * SIZE + k]).collect();
        for kind in [W, Y, F] {
            assert!(row.contains(&kind) && col.contains(&kind));
        }
    }
    assert_eq!(p.token(), None);
}

#[test]
fn rule_2_layout_is_a_setting() {
    let spec: GameSpec = "ywf:layout=9/9/9/3WYF3/3YFW3/3FWY3/9/9/9".parse().unwrap();
    let g = Ywf::from_spec(&spec).unwrap();
    assert_eq!(at(&g.start(), "d4"), W);
    assert_eq!(gridplay_core::Game::spec(&g), spec);
    assert_eq!(gridplay_core::Game::spec(&Ywf::default()).to_string(), "ywf");
    for bad in [
        "ywf:layout=9/9",
        "ywf:layout=9/9/9/9/9/9/9/9/9",
        "ywf:layout=9/9/9/3WWF3/9/9/9/9/9",
    ] {
        let err = Ywf::from_spec(&bad.parse().unwrap()).unwrap_err();
        assert!(err.to_string().contains("layout"), "{bad}: {err}");
    }
    assert_eq!(notation::write_rows(&Ywf::default().layout), DEFAULT_LAYOUT);
}

#[test]
fn rule_3_conversion_futsu_to_own_and_opponent_to_futsu() {
    let p = pos("1FYW5/9/9/9/9/9/9/9/8Y W C -");
    let after = p.play(Move::Play(0)).unwrap();
    assert_eq!(
        (
            at(&after, "a1"),
            at(&after, "b1"),
            at(&after, "c1"),
            at(&after, "d1")
        ),
        (W, W, F, W)
    );
}

#[test]
fn rule_3_conversion_needs_an_own_piece_after_the_run() {
    // An empty square inside the run, or the edge, stops it.
    let gap = pos("1F1W5/9/9/9/9/9/9/9/8Y W C -");
    assert!(!moves(&gap).contains(&"a1".to_owned()));
    let edge = pos("1FY6/9/9/9/9/9/9/9/8W W C -");
    assert!(!moves(&edge).contains(&"a1".to_owned()));
}

#[test]
fn rule_3_all_eight_directions_convert_together() {
    // Warui-ko plays e5 with a run ending in W in every direction.
    let p = pos("9/9/2W1W1W2/3FYF3/2WY1YW2/3FYF3/2W1W1W2/9/9 W C -");
    let after = p.play(p.parse_move("e5").unwrap()).unwrap();
    for sq in ["d4", "f4", "d6", "f6"] {
        assert_eq!(at(&after, sq), W, "{sq} was Futsu-no-ko");
    }
    for sq in ["e4", "d5", "f5", "e6"] {
        assert_eq!(at(&after, sq), F, "{sq} was Yoi-ko");
    }
}

#[test]
fn rule_4_play_must_change_a_piece() {
    let p = Ywf::default().start();
    let e = p.validate(p.parse_move("a1").unwrap()).unwrap_err();
    assert_eq!(e.reason, Illegal::PlayChangesNothing.into());
    let e = p.validate(p.parse_move("e5").unwrap()).unwrap_err();
    assert!(e.reason.to_string().starts_with("that square is not empty"));
}

#[test]
fn rule_5_change_turns_a_futsu_and_converts() {
    let p = pos("FYW6/9/9/9/9/9/9/9/8Y W C -");
    assert!(moves(&p).contains(&"*a1".to_owned()));
    let after = p.play(p.parse_move("*a1").unwrap()).unwrap();
    assert_eq!((at(&after, "a1"), at(&after, "b1")), (W, F));
    assert!(after.last_change());
}

#[test]
fn rule_5_change_must_convert_another_piece() {
    let p = Ywf::default().start();
    let e = p.validate(p.parse_move("*e5").unwrap()).unwrap_err();
    assert_eq!(e.reason, Illegal::ChangeChangesNothing.into());
    let e = p.validate(p.parse_move("*e4").unwrap()).unwrap_err();
    assert_eq!(e.reason, Illegal::NotFutsu.into());
}

#[test]
fn rule_5_no_change_right_after_the_opponents_change() {
    let banned = pos("FYW6/9/9/9/9/9/9/9/8Y W C c");
    let e = banned.validate(banned.parse_move("*a1").unwrap()).unwrap_err();
    assert_eq!(e.reason, Illegal::ChangeAfterChange.into());
    // Its only action was that Change, so Warui-ko must pass; the pass lifts the ban.
    assert_eq!(moves(&banned), ["pass"]);
    let after_pass = banned.play(Move::Pass).unwrap();
    assert!(!after_pass.last_change());
    assert!(after_pass.to_text().ends_with(" Y C -"));
}

#[test]
fn rule_5_no_change_while_the_token_is_on_the_opponents_side() {
    let p = pos("FYW6/9/9/9/9/9/9/9/8Y W Y -");
    let e = p.validate(p.parse_move("*a1").unwrap()).unwrap_err();
    assert_eq!(e.reason, Illegal::TokenAway.into());
}

#[test]
fn rule_5_token_moves_one_step_away_from_the_changer() {
    let from_centre = pos("FYW6/9/9/9/9/9/9/9/8Y W C -").play(Move::Change(0)).unwrap();
    assert_eq!(from_centre.token(), Some(Player::Second));
    let from_own_side = pos("FYW6/9/9/9/9/9/9/9/8Y W W -").play(Move::Change(0)).unwrap();
    assert_eq!(from_own_side.token(), None);
    // A Play leaves the token where it is.
    let p = Ywf::default().start();
    assert_eq!(p.play(p.parse_move("c3").unwrap()).unwrap().token(), None);
}

#[test]
fn rule_6_pass_only_when_no_play_and_no_change() {
    let p = Ywf::default().start();
    assert_eq!(
        p.validate(Move::Pass).unwrap_err().reason,
        Illegal::PassWithActions.into()
    );
}

#[test]
fn rule_7_end_when_no_empty_square() {
    let full = pos(
        "WWWWWWWWW/WWWWWWWWW/WWWWWWWWW/WWWWWWWWW/WWWWWYYYY/YYYYYYYYY/YYYYYYYYY/YYYYYYYYY/YYYYYYYYY Y C -",
    );
    assert!(full.legal_moves().is_empty());
    assert_eq!(
        full.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    assert_eq!(full.score(), Score::new(41, 40));
}

#[test]
fn rule_7_end_after_two_compulsory_passes() {
    let stuck = pos("W8/9/9/9/9/9/9/9/8Y W C -");
    assert!(stuck.legal_moves().is_empty());
    assert!(stuck.outcome().is_some());
    assert_eq!(stuck.validate(Move::Pass).unwrap_err().reason, Reason::GameOver);
}

#[test]
fn rule_7_end_when_a_player_has_no_piece() {
    let p = pos("1YW6/9/9/9/9/9/9/9/8F W C -");
    let after = p.play(p.parse_move("a1").unwrap()).unwrap();
    // Warui-ko's Play on a1 turned b1's Yoi-ko into Futsu-no-ko: Yoi-ko has no piece left.
    assert_eq!(after.score(), Score::new(2, 0));
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
}

#[test]
fn rule_7_equal_counts_go_to_the_token_side() {
    assert_eq!(pos("W8/9/9/9/9/9/9/9/8Y W C -").outcome(), Some(Outcome::Draw));
    assert_eq!(
        pos("W8/9/9/9/9/9/9/9/8Y W Y -").outcome(),
        Some(Outcome::Win {
            winner: Player::Second
        })
    );
    assert_eq!(
        pos("W8/9/9/9/9/9/9/9/8Y Y W -").outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    // More pieces wins whatever the token says.
    assert_eq!(
        pos("WW7/9/9/9/9/9/9/9/8Y W Y -").outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
}

#[test]
fn rule_8_first_actions() {
    let mut got = moves(&Ywf::default().start());
    got.sort();
    let mut want: Vec<String> = [
        "*d6", "*f4", "c3", "c4", "c6", "d3", "d7", "e7", "f3", "f7", "g4", "g5", "g6",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn rule_8_perft() {
    let table = parse_table(include_str!("../../tests/perft/ywf.perft")).unwrap();
    let start = Ywf::default().start();
    for (depth, count) in table {
        assert_eq!(start.perft(depth), count, "perft {depth}");
        assert_eq!(perft_naive(&start, depth), count, "naive perft {depth}");
    }
}

#[test]
fn rule_9_notation() {
    assert_eq!(notation::parse_move("e5"), Ok(Move::Play(40)));
    assert_eq!(notation::parse_move("*D6"), Ok(Move::Change(48)));
    assert_eq!(notation::parse_move("PASS"), Ok(Move::Pass));
    for bad in ["j1", "a0", "**a1", "*", "e", "e55"] {
        assert!(notation::parse_move(bad).is_err(), "{bad}");
    }
    let g = Ywf::default();
    assert!(
        g.parse_position("9/9/9 W C -")
            .unwrap_err()
            .reason
            .contains("needs 9")
    );
    assert!(
        g.parse_position(&format!("{DEFAULT_LAYOUT} W C"))
            .unwrap_err()
            .reason
            .contains("4 fields")
    );
    assert!(
        g.parse_position(&format!("{DEFAULT_LAYOUT} X C -"))
            .unwrap_err()
            .reason
            .contains("side to act")
    );
    assert!(
        g.parse_position(&format!("{DEFAULT_LAYOUT} W Q -"))
            .unwrap_err()
            .reason
            .contains("token")
    );
    assert!(
        g.parse_position(&format!("{DEFAULT_LAYOUT} W C x"))
            .unwrap_err()
            .reason
            .contains("last action")
    );
    assert!(
        g.parse_position("9/9/9/3YWF4/3WFY3/3FYW3/9/9/9 W C -")
            .unwrap_err()
            .reason
            .contains("more than 9")
    );
    assert!(
        g.parse_position("9/9/9/3YWQ3/3WFY3/3FYW3/9/9/9 W C -")
            .unwrap_err()
            .at
            .is_some()
    );
}

#[test]
fn generic_invariants_hold_on_random_games() {
    testkit::check_game(&Ywf::default(), &testkit::Plan::default(), |p| {
        // Changes are offered only when allowed.
        if p.last_change() || p.token() == Some(!p.turn()) {
            assert!(!p.legal_moves().iter().any(|m| matches!(m, Move::Change(_))));
        }
    });
}

/// Rules 3 to 7 and 9 of `docs/rules/ywf.md` written apart from the library, on positions' text, for
/// differential tests: a board of characters, runs walked square by square.
mod reference {
    use std::collections::BTreeSet;

    const N: usize = 9;
    const DIRECTIONS: [(i32, i32); 8] = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];

    /// A position: `rows[r][f]` is rank `r + 1`, file `a + f`, one of `W`, `Y`, `F` or `.`; the side to act
    /// (`W` or `Y`); the token (`W`, `C` or `Y`); whether the previous action was a Change.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub(super) struct Pos {
        rows: [[char; N]; N],
        side: char,
        token: char,
        after_change: bool,
    }

    fn other(side: char) -> char {
        if side == 'W' { 'Y' } else { 'W' }
    }

    pub(super) fn parse(text: &str) -> Pos {
        let fields: Vec<&str> = text.split(' ').collect();
        assert_eq!(fields.len(), 4, "{text}");
        let mut rows = [['.'; N]; N];
        for (r, row) in fields[0].split('/').enumerate() {
            let mut f = 0;
            for c in row.chars() {
                match c.to_digit(10) {
                    Some(d) => f += d as usize,
                    None => {
                        rows[r][f] = c;
                        f += 1;
                    }
                }
            }
            assert_eq!(f, N, "{text}");
        }
        let one = |s: &str| s.chars().next().expect("a field");
        Pos {
            rows,
            side: one(fields[1]),
            token: one(fields[2]),
            after_change: fields[3] == "c",
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
                    } else {
                        if run > 0 {
                            s.push_str(&run.to_string());
                            run = 0;
                        }
                        s.push(c);
                    }
                }
                if run > 0 {
                    s.push_str(&run.to_string());
                }
                s
            })
            .collect();
        format!(
            "{} {} {} {}",
            rows.join("/"),
            p.side,
            p.token,
            if p.after_change { 'c' } else { '-' }
        )
    }

    fn name(r: usize, f: usize) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    fn square(name: &str) -> (usize, usize) {
        let f = usize::from(name.as_bytes()[0] - b'a');
        let r: usize = name[1..].parse().expect("a rank");
        (r - 1, f)
    }

    /// The squares that convert when `me` converts from `(r, f)`: in each direction the run next to it of
    /// Futsu-no-ko and the opponent's pieces, where an own piece follows it.
    fn converted(p: &Pos, r: usize, f: usize, me: char) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (dr, df) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut rr, mut ff) = (r as i32 + dr, f as i32 + df);
            let closed = loop {
                if !(0..N as i32).contains(&rr) || !(0..N as i32).contains(&ff) {
                    break false;
                }
                let c = p.rows[rr as usize][ff as usize];
                if c == 'F' || c == other(me) {
                    run.push((rr as usize, ff as usize));
                    rr += dr;
                    ff += df;
                } else {
                    break c == me;
                }
            };
            if closed {
                out.extend(run);
            }
        }
        out
    }

    fn convert(p: &mut Pos, squares: &[(usize, usize)], me: char) {
        for &(r, f) in squares {
            let c = &mut p.rows[r][f];
            *c = if *c == 'F' { me } else { 'F' };
        }
    }

    /// Plays and Changes of the side to act (rules 4 and 5).
    fn actions(p: &Pos) -> Vec<String> {
        let me = p.side;
        let mut out = Vec::new();
        let may_change = !p.after_change && p.token != other(me);
        for r in 0..N {
            for f in 0..N {
                match p.rows[r][f] {
                    '.' if !converted(p, r, f, me).is_empty() => out.push(name(r, f)),
                    'F' if may_change => {
                        let mut q = p.clone();
                        q.rows[r][f] = me;
                        if !converted(&q, r, f, me).is_empty() {
                            out.push(format!("*{}", name(r, f)));
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }

    fn passed(p: &Pos) -> Pos {
        Pos {
            side: other(p.side),
            after_change: false,
            ..p.clone()
        }
    }

    /// The legal actions (rules 4 to 7): none once the game is over.
    pub(super) fn moves(p: &Pos) -> BTreeSet<String> {
        let all = p.rows.iter().flatten();
        let has = |c: char| p.rows.iter().flatten().any(|&x| x == c);
        if !all.clone().any(|&c| c == '.') || !has('W') || !has('Y') {
            return BTreeSet::new();
        }
        let acts = actions(p);
        if !acts.is_empty() {
            return acts.into_iter().collect();
        }
        // A compulsory pass, unless the opponent could not act after it either: then the game is over.
        if actions(&passed(p)).is_empty() {
            BTreeSet::new()
        } else {
            BTreeSet::from(["pass".to_owned()])
        }
    }

    pub(super) fn play(p: &Pos, mv: &str) -> Pos {
        let me = p.side;
        if mv == "pass" {
            return passed(p);
        }
        let mut q = p.clone();
        let change = mv.starts_with('*');
        let (r, f) = square(mv.trim_start_matches('*'));
        q.rows[r][f] = me;
        let squares = converted(&q, r, f, me);
        convert(&mut q, &squares, me);
        if change {
            q.token = match p.token {
                'C' => other(me),
                _ => 'C',
            };
        }
        q.side = other(me);
        q.after_change = change;
        q
    }

    /// The reference as the differential tests take it (a pass is a ply; an ended game has no moves).
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
fn rules_3_to_7_match_a_reference_written_apart() {
    use std::collections::BTreeSet;
    // Random games from the default layout and from another, every position compared: the actions listed,
    // and the position each action leads to.
    let other = Ywf::from_spec(
        &"ywf:layout=9/9/2WYF4/2YFW4/2FWY4/9/9/9/9"
            .parse::<GameSpec>()
            .unwrap(),
    )
    .unwrap();
    let starts = [Ywf::default().start(), other.start()].repeat(20);
    let games = testkit::differential(&reference::Rules, starts, 7);
    let played: Vec<&String> = games.iter().flatten().collect();
    assert!(played.len() > 1000, "{} moves compared", played.len());
    let kinds: BTreeSet<&str> = played
        .iter()
        .map(|m| {
            if *m == "pass" {
                "pass"
            } else if m.starts_with('*') {
                "change"
            } else {
                "play"
            }
        })
        .collect();
    assert_eq!(kinds.len(), 3, "plays, changes and passes all met: {kinds:?}");
}

#[test]
fn the_perft_table_is_confirmed_by_the_reference() {
    use gridplay_core::testkit::Reference;
    let table = parse_table(include_str!("../../tests/perft/ywf.perft")).unwrap();
    let start = Ywf::default().start().to_text();
    for (depth, count) in table {
        assert_eq!(reference::Rules.perft(&start, depth), count, "perft {depth}");
    }
}
