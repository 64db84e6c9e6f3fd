//! Every example of the rules page (`RULES.md`) holds: each position parses,
//! each legal move plays, each illegal one is refused, and the positions and
//! results reached are the ones the page gives.

#[test]
fn rules_page_examples_hold() {
    let checked =
        board_core::testkit::check_rules_page::<otrazhenie::Position>(include_str!("../RULES.md"));
    assert!(checked >= 10, "only {checked} examples");
}
