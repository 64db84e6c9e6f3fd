//! The rules-page checker (`testkit::check_rules_page`) on tic-tac-toe: a
//! page whose examples hold passes, and each way an example can be wrong
//! fails.

use board_core::testkit::check_rules_page;
use board_core::tictactoe::TicTacToe;

const PAGE: &str = "# Tic-tac-toe

Prose, and a block that is not an example:

```text
x.. ... ... o
```

Three in a row wins:

```text,example
# x completes the top row
position: xx.oo.... x
illegal: c3
legal: c2
after: xxxoo.... o
outcome: 1-0 reason three in a row
```

```example
position: start
only: c0 c1 c2 c3 c4 c5 c6 c7 c8
legal: c4 c0
outcome: none
```
";

fn with_block(block: &str) -> String {
    format!("```text,example\n{block}\n```\n")
}

#[test]
fn a_page_whose_examples_hold_passes() {
    assert_eq!(check_rules_page::<TicTacToe>(PAGE), 2);
}

#[test]
#[should_panic(expected = "no example block")]
fn a_page_without_examples_fails() {
    check_rules_page::<TicTacToe>("# Nothing\n\n```text\nx\n```\n");
}

#[test]
#[should_panic(expected = "RULES.md line 3: c3 in")]
fn an_illegal_move_given_as_legal_fails() {
    check_rules_page::<TicTacToe>(&with_block("position: xx.oo.... x\nlegal: c3"));
}

#[test]
#[should_panic(expected = "c2 is legal")]
fn a_legal_move_given_as_illegal_fails() {
    check_rules_page::<TicTacToe>(&with_block("position: xx.oo.... x\nillegal: c2"));
}

#[test]
#[should_panic(expected = "not even a move")]
fn an_illegal_move_that_is_no_move_at_all_fails() {
    check_rules_page::<TicTacToe>(&with_block("position: start\nillegal: z9"));
}

#[test]
#[should_panic(expected = "the position reached is")]
fn a_wrong_after_fails() {
    check_rules_page::<TicTacToe>(&with_block("position: start\nlegal: c4\nafter: x........ o"));
}

#[test]
#[should_panic(expected = "the legal moves of")]
fn a_wrong_only_fails() {
    check_rules_page::<TicTacToe>(&with_block("position: xx.oo.... x\nonly: c2"));
}

#[test]
#[should_panic(expected = "the outcome of")]
fn a_wrong_outcome_fails() {
    check_rules_page::<TicTacToe>(&with_block("position: xx.oo.... x\noutcome: 1-0"));
}

#[test]
#[should_panic(expected = "invalid position")]
fn a_bad_position_fails() {
    check_rules_page::<TicTacToe>(&with_block("position: xx.oo... x"));
}

#[test]
#[should_panic(expected = "unknown key 'legl'")]
fn an_unknown_key_fails() {
    check_rules_page::<TicTacToe>(&with_block("position: start\nlegl: c4"));
}
