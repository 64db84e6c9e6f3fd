//! The engine client against engines that misbehave in every way we could
//! think of: each ends with a clear error, bounded memory and nothing left
//! running. The engines are small shell scripts.

use std::path::Path;
use std::time::Duration;

use protocol::client::{ClientError, EngineCommand, EngineLog, EngineProcess, Heard};
use protocol::{EngineMessage, GuiMessage};
use tokio::time::Instant;

const WAIT: Duration = Duration::from_secs(5);

/// A well-behaved engine in shell: answers `ugi` (with a `Seed` option),
/// `isready` and `quit`; complains about any other option.
const POLITE: &str = r#"while read -r line; do
  case "$line" in
    ugi) echo "id name polite"; echo "option name Seed type spin default 0 min 0 max 9"; echo ugiok ;;
    isready) echo readyok ;;
    "setoption name Seed value "*) ;;
    setoption*) echo "info string error: unknown option" ;;
    quit) exit 0 ;;
  esac
done"#;

fn sh(script: &str) -> EngineCommand {
    EngineCommand {
        program: "sh".into(),
        args: vec!["-c".to_owned(), script.to_owned()],
        ..EngineCommand::default()
    }
}

fn spawn(script: &str) -> EngineProcess {
    EngineProcess::spawn(&sh(script)).expect("sh starts")
}

/// Whether process `pid` still runs (a zombie does not count).
fn running(pid: u32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat.rsplit(')').next().and_then(|rest| rest.split_whitespace().next());
    matches!(state, Some(s) if s != "Z" && s != "X")
}

/// The pid an engine announces as `info string child <pid>`.
async fn announced_child(engine: &mut EngineProcess) -> u32 {
    let deadline = Instant::now() + WAIT;
    let pick = |m: &EngineMessage| match m {
        EngineMessage::InfoString(text) => text.strip_prefix("child ")?.parse::<u32>().ok(),
        _ => None,
    };
    engine.expect("the child's pid", deadline, pick, |_| {}).await.expect("a pid")
}

#[tokio::test]
async fn a_polite_engine_shakes_hands_and_reports_option_errors() {
    let mut engine = spawn(POLITE);
    let options = [("Seed".to_owned(), "3".to_owned()), ("Hash".to_owned(), "8".to_owned())];
    let handshake = engine.handshake(&options, WAIT).await.expect("a handshake");
    assert_eq!(handshake.name.as_deref(), Some("polite"));
    assert!(handshake.declares("seed") && !handshake.declares("Hash"));
    assert_eq!(handshake.missing, ["Hash"]);
    assert!(handshake.errors.is_empty(), "{:?}", handshake.errors);
    // An option the engine declares but refuses is an error.
    let refused = [("Seed".to_owned(), "x".to_owned())];
    let mut strict = spawn(&POLITE.replace(r#""setoption name Seed value "*) ;;"#, ""));
    let handshake = strict.handshake(&refused, WAIT).await.expect("a handshake");
    assert_eq!(handshake.errors, ["unknown option"]);
    strict.quit(Duration::from_secs(1)).await;
    engine.quit(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn silence_is_a_timeout_naming_what_was_awaited() {
    let mut engine = spawn("echo 'still thinking' >&2; exec sleep 60");
    let started = Instant::now();
    let error = engine.sync(Duration::from_millis(300)).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(matches!(error, ClientError::Timeout { .. }), "{error:?}");
    let text = error.to_string();
    assert!(text.starts_with("no 'readyok' within "), "{text}");
    assert!(text.ends_with("; stderr: still thinking"), "{text}");
    engine.quit(Duration::from_millis(100)).await;
}

#[tokio::test]
async fn an_endless_line_is_garbage_at_the_limit_not_a_memory_leak() {
    let mut engine = spawn("tr '\\0' 'x' < /dev/zero");
    let error = engine.sync(WAIT).await.unwrap_err();
    assert_eq!(error.to_string(), "a line longer than 1024 KiB");
    engine.quit(Duration::from_millis(100)).await;
}

#[tokio::test]
async fn a_line_that_is_not_utf8_is_garbage_at_once() {
    let mut engine = spawn("printf 'id name x\\n\\377readyok\\n'; exec sleep 60");
    let error = engine.sync(WAIT).await.unwrap_err();
    assert!(matches!(error, ClientError::Garbage { .. }), "{error:?}");
    assert!(error.to_string().starts_with("a line that is not UTF-8"), "{error}");
    engine.quit(Duration::from_millis(100)).await;
}

#[tokio::test]
async fn a_crash_says_why_with_the_exit_status_and_stderr() {
    let mut engine = spawn("read -r line; echo 'panicked at search.rs:12' >&2; exit 3");
    let error = engine.sync(WAIT).await.unwrap_err();
    let text = error.to_string();
    assert!(matches!(error, ClientError::Disconnect { .. }), "{error:?}");
    assert!(text.contains("exit status: 3"), "{text}");
    assert!(text.ends_with("; stderr: panicked at search.rs:12"), "{text}");
}

#[tokio::test]
async fn a_flood_of_other_lines_is_bounded() {
    let mut engine = spawn("exec yes 'info string hello'");
    let error = engine.sync(WAIT).await.unwrap_err();
    assert!(error.to_string().starts_with("more than 10000 lines without 'readyok'"), "{error}");
    engine.quit(Duration::from_millis(100)).await;
}

#[tokio::test]
async fn nothing_sent_becomes_two_lines() {
    let mut engine = spawn(POLITE);
    // A move cannot even be made with a line break (protocol::MoveToken).
    let crafted =
        GuiMessage::SetOption { name: "Seed\ngo infinite".to_owned(), value: Some("1".to_owned()) };
    let error = engine.send(&crafted).await.unwrap_err();
    assert!(matches!(error, ClientError::Unsendable { .. }), "{error:?}");
    let option = GuiMessage::SetOption { name: "Seed".to_owned(), value: Some("1\r2".to_owned()) };
    assert!(engine.send(&option).await.is_err());
    // The engine heard nothing of it and still answers.
    assert!(engine.sync(WAIT).await.is_ok());
    engine.quit(Duration::from_secs(1)).await;
}

/// An engine behind a wrapper script (no `exec`) that ignores `quit`, the end
/// of its input and SIGTERM: the whole group ends, grandchild included.
#[tokio::test]
async fn quit_ends_the_whole_group_of_a_stubborn_wrapped_engine() {
    let script = "trap '' TERM; sh -c \"trap '' TERM; exec sleep 600\" & \
                  echo \"info string child $!\"; while :; do sleep 1; done";
    let mut engine = spawn(script);
    let child = announced_child(&mut engine).await;
    assert!(running(child));
    let started = Instant::now();
    engine.quit(Duration::from_millis(200)).await;
    assert!(started.elapsed() < Duration::from_secs(3));
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!running(child), "the grandchild {child} outlived quit");
}

#[tokio::test]
async fn dropping_the_client_kills_the_group_too() {
    let mut engine = spawn("sleep 600 & echo \"info string child $!\"; wait");
    let child = announced_child(&mut engine).await;
    drop(engine);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!running(child), "the grandchild {child} outlived the client");
}

#[tokio::test]
async fn the_log_holds_both_directions_and_stderr() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("igroteka-client-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let log = dir.join("engine.log");
    let command = EngineCommand {
        log: Some(EngineLog::new(log.clone())),
        ..sh(&format!("echo oops >&2; {POLITE}"))
    };
    let mut engine = EngineProcess::spawn(&command).expect("starts");
    engine.sync(WAIT).await.expect("readyok");
    engine.quit(Duration::from_secs(1)).await;
    let text = std::fs::read_to_string(&log).expect("a log");
    for line in ["> isready", "< readyok", "! oops", "> quit"] {
        assert!(text.lines().any(|l| l == line), "{line:?} missing from {text}");
    }
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}

/// Issue 30, item 10: an engine that floods its output and stderr fills its
/// log up to the limit, then one line says it was cut.
#[tokio::test]
async fn a_log_stops_at_its_limit_with_a_note() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("igroteka-client-cap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let log = dir.join("engine.log");
    let flood = "i=0; while [ $i -lt 2000 ]; do echo \"info string $i of a flood\"; \
                 echo \"stderr $i\" >&2; i=$((i+1)); done";
    let command = EngineCommand {
        log: Some(EngineLog { path: log.clone(), max_bytes: 10_000 }),
        ..sh(&format!("{flood}; {POLITE}"))
    };
    let mut engine = EngineProcess::spawn(&command).expect("starts");
    engine.sync(WAIT).await.expect("readyok");
    engine.quit(Duration::from_secs(1)).await;
    let text = std::fs::read_to_string(&log).expect("a log");
    let (kept, note) = text.trim_end().rsplit_once('\n').expect("lines");
    assert!(kept.len() < 10_000, "{} bytes kept", kept.len());
    assert!(kept.len() > 9_900, "filled up to the limit: {} bytes", kept.len());
    assert!(note.starts_with("# log cut here: it reached its limit of 10000 bytes"), "{note}");
    assert_eq!(text.matches("# log cut").count(), 1);
    assert_eq!(EngineLog::new(log).max_bytes, 16 << 20);
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}

#[tokio::test]
async fn unreadable_lines_are_heard_as_such() {
    let mut engine = spawn("echo 'hello there'; echo readyok; exec sleep 60");
    let first = engine.next_line(Instant::now() + WAIT).await.expect("a line");
    assert!(matches!(first, Some(Heard::Unreadable(ref line, _)) if line == "hello there"));
    let second = engine.next_line(Instant::now() + WAIT).await.expect("a line");
    assert_eq!(second, Some(Heard::Message(EngineMessage::ReadyOk)));
    engine.quit(Duration::from_millis(100)).await;
}

#[tokio::test]
async fn a_program_that_does_not_exist_cannot_start() {
    let command = EngineCommand { program: "/no/such/engine".into(), ..EngineCommand::default() };
    let error = EngineProcess::spawn(&command).unwrap_err();
    assert!(error.to_string().starts_with("cannot start '/no/such/engine': "), "{error}");
}

/// This process's resident memory, in KiB.
fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let rss = status.lines().find_map(|l| l.strip_prefix("VmRSS:"));
    rss.and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()).unwrap_or(0)
}

/// An engine that floods long lines while nobody reads them costs a few MiB,
/// not a thousand lines of up to 1 MiB each.
#[tokio::test]
async fn an_unread_flood_of_long_lines_is_bounded_in_bytes() {
    let before = resident_kib();
    let mut engine = spawn(
        "l=$(head -c 500000 /dev/zero | tr '\\0' x); while :; do printf 'info string %s\\n' \"$l\"; done",
    );
    // Until the queue is full and the engine held back by its pipe.
    let mut grown = 0;
    for _ in 0..40 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = resident_kib().saturating_sub(before);
        if now > 64 << 10 || (now == grown && now > 0) {
            break;
        }
        grown = now;
    }
    let grown = resident_kib().saturating_sub(before);
    assert!(grown < 64 << 10, "{grown} KiB held for an engine nobody reads");
    // What is queued still arrives, whole and in order.
    let heard = engine.next_line(Instant::now() + WAIT).await.expect("a line");
    assert!(
        matches!(heard, Some(Heard::Message(EngineMessage::InfoString(ref t))) if t.len() == 500_000)
    );
    engine.quit(Duration::from_millis(100)).await;
}

/// An engine that crashes while a grandchild in a session of its own (out of
/// reach of its group) holds its output: the crash is reported at once, with
/// its exit status, not as silence at the deadline.
#[tokio::test]
async fn a_crash_is_reported_at_once_while_an_escaped_grandchild_holds_the_output() {
    let mut engine =
        spawn("setsid sleep 600 & echo \"info string child $!\"; read -r line; exit 5");
    let child = announced_child(&mut engine).await;
    let started = Instant::now();
    let error = engine.sync(WAIT).await.unwrap_err();
    let _ = std::process::Command::new("kill").arg(child.to_string()).status();
    assert!(started.elapsed() < Duration::from_secs(2), "{error}");
    assert!(matches!(error, ClientError::Disconnect { .. }), "{error:?}");
    assert!(error.to_string().contains("exit status: 5"), "{error}");
}

/// A UCI engine answers `uciok`, or nothing, to `ugi`: the error says so, at
/// once when `uciok` comes.
#[tokio::test]
async fn a_uci_engine_is_named_as_such() {
    let mut engine = spawn("read -r line; echo 'id name Stockfish'; echo uciok; exec sleep 60");
    let started = Instant::now();
    let error = engine.handshake(&[], WAIT).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(2), "{error}");
    assert!(error.to_string().contains("a UCI engine"), "{error}");
    engine.quit(Duration::from_millis(100)).await;
    let mut silent = spawn("read -r line; echo \"Unknown command: '$line'\"; exec sleep 60");
    let error = silent.handshake(&[], Duration::from_millis(300)).await.unwrap_err();
    assert!(matches!(error, ClientError::Timeout { .. }), "{error:?}");
    assert!(error.to_string().contains("UCI"), "{error}");
    silent.quit(Duration::from_millis(100)).await;
}
