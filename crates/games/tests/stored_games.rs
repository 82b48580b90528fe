//! A game accepted before a rule that governs only new games existed is never lost: the registry restores
//! it from its stored spec (Grid Tactics' army composition rule, `docs/rules/tactics.md` rule 3).

#[test]
fn rule_3_stored_games_load_without_the_composition_rule() {
    // A game accepted before the composition rule existed is never lost: the server restores it.
    let registry = gridplay_games::registry();
    let err = registry.game("tactics:army=whhhaa").unwrap_err().to_string();
    assert!(err.contains("not 3"), "{err}");
    let stored = registry.restore("tactics:army=whhhaa,army2=aa").unwrap();
    assert_eq!(stored.spec().to_string(), "tactics:army=whhhaa,army2=aa");
    let pieces = stored
        .start()
        .view()
        .cells
        .iter()
        .filter(|c| c.piece.is_some())
        .count();
    assert_eq!(pieces, 8);
    for bad in ["tactics:army=wxz", "tactics:army=", "tactics:size=40", "chess"] {
        assert!(registry.restore(bad).is_err(), "{bad}");
    }
}
