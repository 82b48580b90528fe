//! One test per rule of `docs/rules/tactics.md`.

use std::collections::BTreeSet;

use gridplay_core::{Game, GameSpec, Outcome, Player, Position, perft::parse_table, testkit};
use rand::RngExt;

use super::{
    Action, Move, QUIET_LIMIT, TURN_LIMIT, Tactics, TacticsPosition, army, notation,
    units::{CLEAVE_DAMAGE, Class, HEAL_AMOUNT, SHOOT_DAMAGE, SHOOT_RANGE},
};

fn game() -> Tactics {
    Tactics::default()
}

/// A 16x16 position with Blue (first) to move and these units.
fn pos(units: &str) -> TacticsPosition {
    game()
        .parse_position(&format!("16 1 0 0 - {units}"))
        .unwrap_or_else(|e| panic!("{units}: {e}"))
}

fn sq(name: &str) -> u16 {
    notation::parse_square(name, 16).unwrap()
}

fn texts(p: &TacticsPosition) -> Vec<String> {
    p.legal_moves().iter().map(|&m| p.move_text(m)).collect()
}

fn refusal(p: &TacticsPosition, text: &str) -> String {
    let m = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.validate(m).expect_err("should be refused").reason.to_string()
}

#[test]
fn rule_1_grid_sizes() {
    for n in [16u8, 20, 32] {
        let g = Tactics::from_spec(&format!("tactics:size={n}").parse::<GameSpec>().unwrap()).unwrap();
        assert_eq!(g.start().size(), usize::from(n));
    }
    for bad in ["tactics:size=15", "tactics:size=33"] {
        assert!(Tactics::from_spec(&bad.parse().unwrap()).is_err(), "{bad}");
    }
}

#[test]
fn rule_2_units_and_classes() {
    let p = game().start();
    for u in p.units() {
        let s = u.class.stats();
        assert_eq!(u.health, s.health);
        assert_eq!(u.sprite(), u.class.name());
    }
    assert_eq!(Class::Warrior.stats().health, 25);
    assert_eq!(Class::Archer.stats().moves, 4);
    assert_eq!(Class::Healer.stats().attack, 6);
}

#[test]
fn rule_3_default_armies_are_mirrored() {
    assert_eq!(army::army_text(&army::default_army(16)), "wwhhaa");
    assert_eq!(army::default_army(24).len(), 9);
    assert_eq!(army::default_army(32).len(), 12);
    for n in 16..=32 {
        assert_eq!(army::check_composition(&army::default_army(n)), Ok(()), "{n}x{n}");
    }
    let p = game().start();
    let n = p.size() as u16;
    let (blue, orange): (Vec<&super::units::Unit>, Vec<_>) =
        p.units().iter().partition(|u| u.owner == Player::First);
    assert_eq!(blue.len(), orange.len());
    for (b, o) in blue.iter().zip(&orange) {
        assert_eq!(b.class, o.class);
        assert_eq!(
            (b.square % n, n - 1 - b.square / n),
            (o.square % n, o.square / n),
            "mirror image"
        );
        assert!(b.square / n >= n - 2, "Blue starts on its two home rows");
    }
}

#[test]
fn rule_3_army_settings() {
    let g = Tactics::from_spec(&"tactics:army=wwhaa,army2=wha".parse().unwrap()).unwrap();
    assert_eq!(g.start().units().len(), 8);
    assert_eq!(Game::spec(&g).to_string(), "tactics:army=wwhaa,army2=wha");
    for good in [
        "wha",
        "wwha",
        "wwhaa",
        "whhaaa",
        "wwwhaa",
        "wwwhhhaaa",
        "wwwwhhhhaaaa",
        "wwwwwhhhaaaa",
        "wwwwhhhaaaaa",
        "wwwhhhhaaaaa",
        "wwwwwwhhhhhaaaaa",
    ] {
        assert!(army::parse_army(good).is_ok(), "{good}");
    }
    for (bad, why) in [
        ("tactics:army=wxz", "lower-case class letters"),
        ("tactics:army=wwwwwwwwwwwwwwwww", "3 to 16"),
        ("tactics:army=wh", "3 to 16"),
        ("tactics:army2=w", "one of each class"),
        ("tactics:army2=WHA", "lower-case class letters"),
        ("tactics:army=wwwaaa", "no healer"),
        ("tactics:army=hhhaaa", "no warrior"),
        ("tactics:army2=wwhhhh", "no archer"),
        (
            "tactics:army=whhhaa",
            "a third of the army of one class: 2 healers in 6 units, not 3",
        ),
        ("tactics:army=whhaa", "1 healer in 5 units, not 2"),
        (
            "tactics:army=whaaaa",
            "half of the army of one class: 3 archers in 6 units, not 4",
        ),
        ("tactics:army2=wwwwha", "3 warriors in 6 units, not 4"),
        (
            "tactics:army=wwwhha",
            "at least a third of the army archers: 2 archers in 6 units, not 1",
        ),
        ("tactics:army2=wwwwhhhaa", "3 archers in 9 units, not 2"),
        ("tactics:army=wwwhaaaaaaaaaaaa", "8 archers in 16 units, not 12"),
        // The armies of twelve keep every class within one unit of a third (3 to 5); of six, 1 to 3.
        (
            "tactics:army=wwwwwwhhaaaa",
            "within one unit of a third of the army: 3 to 5 warriors in 12 units, not 6",
        ),
        ("tactics:army2=wwwwwhhaaaaa", "3 to 5 healers in 12 units, not 2"),
        ("tactics:army=wwhhhhaaaaaa", "3 to 5 warriors in 12 units, not 2"),
        ("tactics:army=wwwwwhaaaaaa", "3 to 5 archers in 12 units, not 6"),
        ("tactics:army=wwwwhaaaa", "2 to 4 healers in 9 units, not 1"),
        (
            "tactics:army=wwwwwwwhhhhaaaaa",
            "5 to 6 warriors in 16 units, not 7",
        ),
        ("tactics:army=wwhhaa,colour=red", "colour"),
    ] {
        let err = Tactics::from_spec(&bad.parse().unwrap()).unwrap_err().to_string();
        assert!(err.contains(why), "{bad}: {err}");
    }
}

#[test]
fn rule_4_steps_are_orthogonal_into_empty_squares() {
    // An archer (4 moves) walled in on three sides reaches squares only through the open side.
    let p = pos("0.Ah8:7,1.Wg8:10,2.Wi8:10,3.Wh7:10,4.wa16:10");
    let reach: Vec<String> = p
        .reach(0)
        .squares
        .iter()
        .map(|(s, _)| notation::square_name(*s, 16))
        .collect();
    assert!(reach.contains(&"h12".to_owned()));
    assert!(
        !reach.contains(&"h6".to_owned()),
        "cannot pass through its own unit"
    );
    assert!(!reach.contains(&"g9".to_owned()) || reach.contains(&"h9".to_owned()));
    assert!(refusal(&p, "h8-g8").contains("cannot reach g8"));
}

#[test]
fn rule_4_move_budget() {
    let p = pos("0.Wh8:10,1.wa16:10");
    let reach = p.reach(0);
    // Distance 3 along rows and columns: 1 + 4 + 8 + 12 squares on an open board.
    assert_eq!(reach.squares.len(), 25);
    assert!(reach.squares.iter().all(|(_, path)| path.len() <= 3));
    assert!(refusal(&p, "h8-h12").contains("moves up to 3 squares"));
    // Every path is a chain of orthogonal steps.
    for (_, path) in &reach.squares {
        let mut at = sq("h8");
        for &s in path {
            let (d, m) = (at.abs_diff(s), 16);
            assert!(d == 1 || d == m, "step {at} -> {s}");
            at = s;
        }
    }
}

#[test]
fn rule_5_attack_reaches_one_square_diagonals_included() {
    let p = pos("0.Wh8:10,1.wi9:10,2.wh10:10,3.wa16:10");
    let m = texts(&p);
    assert!(m.contains(&"h8-h8xi9".to_owned()), "diagonal neighbour");
    assert!(!m.contains(&"h8-h8xh10".to_owned()), "two squares away");
    assert!(m.contains(&"h8-h9xh10".to_owned()));
    assert!(refusal(&p, "h8-h8xh10").contains("out of reach"));
    assert_eq!(refusal(&p, "h8-h8xa1"), "there is no unit on a1 to attack");
}

#[test]
fn rule_5_death_frees_the_square() {
    let mut p = pos("0.Wh8:10,1.ai9:3,2.wa16:10");
    p.play_text("h8-h8xi9").unwrap();
    assert!(p.unit_at(sq("i9")).is_none());
    assert_eq!(p.outcome(), None);
}

#[test]
fn rule_6_a_unit_acts_once_a_turn_and_the_turn_ends_when_all_have_acted() {
    let mut p = pos("0.Wh8:10,1.Wc3:10,2.wa16:10");
    p.play_text("h8-h9").unwrap();
    assert_eq!(p.turn(), Player::First, "Blue still has a unit to use");
    assert_eq!(refusal(&p, "h9-h10"), "that unit has already acted this turn");
    p.play_text("c3-c4").unwrap();
    assert_eq!(p.turn(), Player::Second, "all Blue units have acted");
    assert!(p.units().iter().all(|u| !u.used));
    assert_eq!(p.turns(), 1);
}

#[test]
fn rule_6_end_turn_early() {
    let mut p = pos("0.Wh8:10,1.Wc3:10,2.wa16:10");
    p.play_text("h8-h9").unwrap();
    p.play_text("end").unwrap();
    assert_eq!(p.turn(), Player::Second);
    assert_eq!(refusal(&p, "h9-h10"), "that unit is not yours");
}

#[test]
fn rule_7_cleave_hits_every_adjacent_enemy() {
    let mut p = pos("0.Wh8:10,1.wg9:10,2.ai7:7,3.hh10:10");
    assert_eq!(
        refusal(&pos("0.Wh8:10,1.wa16:10"), "h8-h8*"),
        "Cleave needs an enemy next to the warrior"
    );
    p.play_text("h8-h8*").unwrap();
    let health = |s: &str| p.units()[p.unit_at(sq(s)).unwrap()].health;
    assert_eq!(
        (health("g9"), health("i7"), health("h10")),
        (10 - CLEAVE_DAMAGE, 7 - CLEAVE_DAMAGE, 10),
        "the allied healer on h10 is spared"
    );
}

#[test]
fn rule_7_shoot_hits_at_distance_two_to_four() {
    assert_eq!(SHOOT_RANGE, 4);
    let p = pos("0.Ah8:7,1.wh12:10,2.wh9:10,3.wa16:10,4.wm8:10");
    let m = texts(&p);
    assert!(m.contains(&"h8-h8*h12".to_owned()), "distance 4");
    assert!(
        !m.contains(&"h8-h8*h9".to_owned()),
        "distance 1 is an attack, not a shot"
    );
    assert!(refusal(&p, "h8-h8*h9").contains("Shoot reaches 2 to 4"));
    assert!(!m.contains(&"h8-h8*m8".to_owned()), "distance 5 is out of range");
    assert!(refusal(&p, "h8-h8*m8").contains("Shoot reaches 2 to 4"));
    let mut p = p;
    p.play_text("h8-h8*h12").unwrap();
    assert_eq!(p.units()[p.unit_at(sq("h12")).unwrap()].health, 10 - SHOOT_DAMAGE);
}

#[test]
fn rule_7_an_archer_shoots_only_from_where_it_starts() {
    // The enemy on h14 is out of range from h8 but in range after a step to h10: a moved archer may not shoot.
    let p = pos("0.Ah8:7,1.wh14:10");
    let m = texts(&p);
    assert!(m.contains(&"h8-h10".to_owned()), "the archer may still move");
    assert!(!m.iter().any(|t| t.contains('*')), "no shot after moving: {m:?}");
    assert_eq!(
        refusal(&p, "h8-h10*h14"),
        "an archer shoots only from the square it starts on: write h8-h8*target"
    );
    // It may still step next to an enemy and attack it.
    let q = pos("0.Ah8:7,1.wh11:10");
    assert!(texts(&q).contains(&"h8-h10xh11".to_owned()));
}

#[test]
fn rule_7_heal_restores_an_adjacent_ally_up_to_full() {
    let mut p = pos("0.Hh8:10,1.Wh9:3,2.Wg7:9,3.wa16:10");
    p.play_text("h8-h8*h9").unwrap();
    assert_eq!(p.units()[p.unit_at(sq("h9")).unwrap()].health, 3 + HEAL_AMOUNT);
    let full = Class::Warrior.stats().health;
    let q = pos(&format!("0.Hh8:10,1.Wh9:{full},2.wa16:10"));
    assert_eq!(refusal(&q, "h8-h8*h9"), "that unit already has full health");
    assert!(refusal(&q, "h8-h8*h8").contains("no other unit of yours"));
    let mut r = pos(&format!("0.Hh8:10,1.Wg7:{},2.wa16:10", full - 1));
    r.play_text("h8-h8*g7").unwrap();
    assert_eq!(
        r.units()[r.unit_at(sq("g7")).unwrap()].health,
        full,
        "never above the maximum"
    );
}

#[test]
fn rule_8_eliminating_every_enemy_wins() {
    let mut p = pos("0.Wh8:10,1.Wa1:10,2.ah9:3");
    p.play_text("h8-h8xh9").unwrap();
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    assert!(p.legal_moves().is_empty());
    assert_eq!(refusal(&p, "a1-a2"), "the game is over");
}

#[test]
fn rule_9_turn_limit_decides_on_health() {
    let g = game();
    let near = g
        .parse_position(&format!("16 2 {} 0 - 0.Wa1:10,1.wp16:9", TURN_LIMIT - 1))
        .unwrap();
    assert_eq!(near.outcome(), None);
    let mut p = near;
    p.play_text("end").unwrap();
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Player::First
        })
    );
    let even = g
        .parse_position(&format!("16 1 {TURN_LIMIT} 0 - 0.Wa1:9,1.wp16:9"))
        .unwrap();
    assert_eq!(even.outcome(), Some(Outcome::Draw));
}

#[test]
fn rule_9_quiet_limit_counts_turns_without_damage() {
    let g = game();
    let mut p = g
        .parse_position(&format!("16 1 10 {} - 0.Wa1:9,1.wp16:10", QUIET_LIMIT - 1))
        .unwrap();
    p.play_text("end").unwrap();
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Player::Second
        })
    );
    // Damage resets the count.
    let mut q = g
        .parse_position(&format!(
            "16 1 10 {} - 0.Wa1:9,1.wa2:10,2.wp16:10",
            QUIET_LIMIT - 1
        ))
        .unwrap();
    q.play_text("a1-a1xa2").unwrap();
    assert_eq!(q.quiet_turns(), 0);
    assert_eq!(q.outcome(), None);
}

#[test]
fn rule_10_notation_round_trips_and_explains_errors() {
    let p = game().start();
    for m in p.legal_moves() {
        assert_eq!(p.parse_move(&p.move_text(m)), Ok(m));
    }
    assert_eq!(p.parse_move("end"), Ok(Move::EndTurn));
    let w = p.parse_move("c2-c3").unwrap();
    assert!(matches!(
        w,
        Move::Activate {
            action: Action::Wait,
            ..
        }
    ));
    for (bad, why) in [
        ("c2", "write an activation as from-to"),
        ("z2-c3", "off the board"),
        ("c2-c0", "rank must be"),
        ("c2-c3q", "not an action"),
        ("e8-e9", "there is no unit on e8"),
    ] {
        assert!(p.parse_move(bad).unwrap_err().reason.contains(why), "{bad}");
    }
    assert_eq!(notation::file_name(26), "aa");
    assert_eq!(notation::parse_square("af32", 32), Ok(31));
    let g = Tactics::from_spec(&"tactics:size=32".parse().unwrap()).unwrap();
    let start = g.start();
    assert_eq!(g.parse_position(&start.to_text()).unwrap(), start);
    for (bad, why) in [
        ("16 1 0 0 -", "expected 6 fields"),
        ("15 1 0 0 - 0.Wa1:10", "board size"),
        ("16 3 0 0 - 0.Wa1:10", "side to move"),
        ("16 1 0 0 x 0.Wa1:10", "must be d"),
        ("16 1 0 0 - 0.Qa1:10", "class must be"),
        ("16 1 0 0 - 0.Wa1:26", "health is 1 to 25"),
        ("16 1 0 0 - 0.Wa1:10,1.wa1:10", "two units stand"),
        ("16 1 0 0 - 0.Wa1:10,0.wa2:10", "same id"),
        ("16 1 0 0 - 0.wa1:10!", "only units of the side to move"),
        ("24 1 0 0 - 0.Wa1:10", "this game is 16x16"),
    ] {
        let err = game().parse_position(bad).unwrap_err();
        assert!(err.reason.contains(why), "{bad}: {}", err.reason);
    }
}

#[test]
fn view_gives_reach_paths_and_targets_for_the_browser() {
    let p = pos("0.Ah8:7,1.wh12:10,2.wa16:10");
    let view = p.view();
    let from = u32::from(sq("h8"));
    let mine: Vec<_> = view.moves.iter().filter(|m| m.from == Some(from)).collect();
    // Every reachable square has a wait move whose path ends on it.
    let reach = p.reach(0).squares;
    for (s, path) in &reach {
        let wait = mine
            .iter()
            .find(|m| m.kind == "move" && m.path.last().copied().unwrap_or(from) == u32::from(*s));
        assert!(wait.is_some(), "square {s}");
        assert_eq!(wait.unwrap().path.len(), path.len());
    }
    let shot = mine.iter().find(|m| m.kind == "shoot").expect("a shot");
    assert_eq!(shot.target, Some(u32::from(sq("h12"))));
    assert_eq!(view.moves.last().unwrap().kind, "end-turn");
    let cell = view.cells[from as usize].piece.as_ref().unwrap();
    assert_eq!((cell.kind.as_ref(), cell.label.as_deref()), ("archer", Some("7")));
}

#[test]
fn generic_invariants_hold_on_random_games() {
    testkit::check_game(
        &game(),
        &testkit::Plan {
            games: 6,
            seed: 1,
            max_plies: 20_000,
        },
        |p| {
            let s = p.score();
            assert!(s.first >= 0 && s.second >= 0);
            assert!(
                p.units()
                    .iter()
                    .all(|u| u.health > 0 && u.health <= u.class.stats().health)
            );
        },
    );
}

#[test]
fn greedy_games_end_and_respect_the_rules() {
    let mut rng = gridplay_core::playout::seeded(9);
    for _ in 0..20 {
        let mut p = game().start();
        while let Some(m) = super::policy::greedy_move(&p, &mut rng) {
            assert!(p.validate(m).is_ok());
            p.play_unchecked(m);
        }
        assert!(p.outcome().is_some());
    }
}

/// Full health by class, from the table of rule 2 (written here, not read from `Class::stats`).
fn full_health(c: Class) -> i32 {
    match c {
        Class::Warrior => 25,
        Class::Archer => 15,
        Class::Healer => 20,
    }
}

/// The moves of `p` as rules 4 to 9 of `docs/rules/tactics.md` state them, written apart from the library for
/// differential tests. A unit's squares come from a depth-first walk of every path of orthogonal steps into
/// empty squares (the library searches breadth-first and keeps one path a square), its budget and the
/// figures from the table of rule 2.
fn reference_moves(p: &TacticsPosition) -> BTreeSet<String> {
    let units = p.units();
    let mut out = BTreeSet::new();
    let alive = |o| units.iter().any(|u| u.owner == o);
    if !alive(Player::First) || !alive(Player::Second) || p.turns() >= 200 || p.quiet_turns() >= 30 {
        return out;
    }
    let n = p.size() as i32;
    let xy = |s: u16| (i32::from(s) % n, i32::from(s) / n);
    let apart = |a: u16, b: u16| {
        let ((ax, ay), (bx, by)) = (xy(a), xy(b));
        (ax - bx).abs().max((ay - by).abs())
    };
    let name = |s: u16| notation::square_name(s, p.size());
    for (i, u) in units.iter().enumerate() {
        if u.owner != p.turn() || u.used {
            continue;
        }
        let budget = match u.class {
            Class::Archer => 4,
            Class::Warrior | Class::Healer => 3,
        };
        // The unit's own square is free to it: it is leaving it.
        let empty = |s: u16| s == u.square || units.iter().all(|v| v.square != s);
        let mut reached = BTreeSet::new();
        let mut stack = vec![(u.square, budget)];
        while let Some((s, left)) = stack.pop() {
            reached.insert(s);
            let (x, y) = xy(s);
            for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                if left > 0 && (0..n).contains(&nx) && (0..n).contains(&ny) {
                    let next = (ny * n + nx) as u16;
                    if empty(next) {
                        stack.push((next, left - 1));
                    }
                }
            }
        }
        let from = name(u.square);
        for to in reached {
            let go = format!("{from}-{}", name(to));
            out.insert(go.clone());
            let enemies: Vec<&super::units::Unit> = units.iter().filter(|e| e.owner != u.owner).collect();
            for e in &enemies {
                if apart(to, e.square) == 1 {
                    out.insert(format!("{go}x{}", name(e.square)));
                }
            }
            match u.class {
                Class::Warrior => {
                    if enemies.iter().any(|e| apart(to, e.square) == 1) {
                        out.insert(format!("{go}*"));
                    }
                }
                Class::Archer => {
                    for e in enemies
                        .iter()
                        .filter(|e| to == u.square && (2..=4).contains(&apart(to, e.square)))
                    {
                        out.insert(format!("{go}*{}", name(e.square)));
                    }
                }
                Class::Healer => {
                    for (j, a) in units.iter().enumerate() {
                        if j != i
                            && a.owner == u.owner
                            && a.health < full_health(a.class)
                            && apart(to, a.square) == 1
                        {
                            out.insert(format!("{go}*{}", name(a.square)));
                        }
                    }
                }
            }
        }
    }
    out.insert("end".to_owned());
    out
}

/// Perft with the reference generator: each move is found by its text and played by the library.
fn reference_perft(p: &TacticsPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = reference_moves(p);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|text| {
            let mut next = p.clone();
            next.play_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            reference_perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn rules_4_to_9_moves_match_a_reference_generator() {
    // Games of greedy moves, one in four at random, so that units meet, fight, heal and die; every position
    // on the way is compared, crowded armies and the largest board included.
    let mut rng = gridplay_core::playout::seeded(25);
    let mut compared = 0;
    let mut kinds = BTreeSet::new();
    for spec in [
        "tactics",
        "tactics:army=wwwwwhhhhhaaaaaa",
        "tactics:size=20,army=whhaaa,army2=wwwwhhaaa",
        "tactics:size=32",
    ]
    .repeat(2)
    {
        let mut p = Tactics::from_spec(&spec.parse::<GameSpec>().unwrap())
            .unwrap()
            .start();
        while p.outcome().is_none() {
            let list = p.legal_moves();
            let got: BTreeSet<String> = list.iter().map(|&m| p.move_text(m)).collect();
            assert_eq!(
                got.len(),
                list.len(),
                "{spec}: a move listed twice in {}",
                p.to_text()
            );
            assert_eq!(got, reference_moves(&p), "{spec}: {}", p.to_text());
            compared += 1;
            let m = if rng.random_range(0..4) == 0 {
                list[rng.random_range(0..list.len())]
            } else {
                super::policy::greedy_move(&p, &mut rng).unwrap()
            };
            if let Move::Activate { unit, action, .. } = m {
                kinds.insert(p.action_kind(usize::from(unit), action));
            }
            p.play_unchecked(m);
        }
        assert!(
            reference_moves(&p).is_empty(),
            "{spec}: a finished game has no moves"
        );
    }
    assert!(compared > 1000, "{compared} positions");
    for kind in ["move", "attack", "cleave", "shoot", "heal"] {
        assert!(kinds.contains(kind), "no {kind} was played: {kinds:?}");
    }
}

#[test]
fn perft_matches_the_table_and_the_reference_generator() {
    // docs/rules/tactics.md, "Perft": a skirmish in which every class can act on the first ply.
    let text = include_str!("../../tests/perft/tactics.perft");
    let start_text = text
        .lines()
        .find_map(|l| l.strip_prefix("# position "))
        .expect("the table names its position");
    let start = game().parse_position(start_text).unwrap();
    for (depth, count) in parse_table(text).unwrap() {
        assert_eq!(start.perft(depth), count, "perft {depth}");
        assert_eq!(reference_perft(&start, depth), count, "reference perft {depth}");
    }
}

/// The army builder's clauses are the composition rule: an army meets every clause exactly when the rule
/// accepts it, for every count of each class from 0 to 16.
#[test]
fn rule_3_the_builders_clauses_are_the_composition_rule() {
    use super::{army, units::Class};
    for w in 0..=16 {
        for a in 0..=16 - w {
            for h in 0..=16 - w - a {
                let units: Vec<Class> = std::iter::repeat_n(Class::Warrior, w)
                    .chain(std::iter::repeat_n(Class::Archer, a))
                    .chain(std::iter::repeat_n(Class::Healer, h))
                    .collect();
                if units.is_empty() {
                    continue;
                }
                let text = army::army_text(&units);
                let clauses = army::clauses_met(&units);
                assert_eq!(
                    clauses.iter().all(|c| *c),
                    army::parse_army(&text).is_ok(),
                    "{text}: {clauses:?}"
                );
            }
        }
    }
}
