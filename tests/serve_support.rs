#![allow(dead_code)] // each test target uses a part

//! Shared by the `serve` and `gui` tests: a running `igroteka serve`, its
//! child processes, and a plain engine to ask the protocol's queries.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_igroteka");

/// `igroteka serve --port 0 <args>`, killed when dropped.
pub struct Server {
    child: Child,
    /// Kept open: the server must not write into a closed pipe.
    _stdout: BufReader<ChildStdout>,
    /// `127.0.0.1:<port>`.
    pub address: String,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
        let mut command = Command::new(BIN);
        command.args(["serve", "--port", "0"]).args(args);
        Server::start_command(&mut command)
    }

    /// As [`start`](Self::start), with at most `files` open files (`prlimit`).
    pub fn start_with_open_files(files: u32, args: &[&str]) -> Server {
        let mut command = Command::new("prlimit");
        command.arg(format!("--nofile={files}:{files}")).args([BIN, "serve", "--port", "0"]);
        Server::start_command(command.args(args))
    }

    fn start_command(command: &mut Command) -> Server {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("igroteka serve starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("serve prints its address");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned();
        Server { child, _stdout: stdout, address }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The processor time the server has used (user and system), in clock
    /// ticks (1/100 s on Linux).
    pub fn cpu_ticks(&self) -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).expect("the stat");
        // pid (comm) state ... utime stime: the 14th and 15th fields.
        let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        after.split_whitespace().skip(11).take(2).filter_map(|t| t.parse::<u64>().ok()).sum()
    }

    /// The processes whose parent is the server (its engines), zombies too.
    pub fn children(&self) -> Vec<u32> {
        let mut children = Vec::new();
        for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
            // pid (comm) state ppid ...: the comm may contain spaces, so read after ')'.
            let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            let ppid = after.split_whitespace().nth(1).and_then(|p| p.parse::<u32>().ok());
            if ppid == Some(self.pid()) {
                children.push(pid);
            }
        }
        children
    }

    /// Waits (at most 20 s) until the server has `count` children, and
    /// returns them; panics with what it saw otherwise.
    pub fn wait_for_children(&self, count: usize) -> Vec<u32> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let children = self.children();
            if children.len() == count {
                return children;
            }
            assert!(
                Instant::now() < deadline,
                "the server has children {children:?}, expected {count} of them"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Server {
    /// Sends SIGINT (Ctrl-C) and waits (at most 20 s) for the server to exit;
    /// its exit status.
    pub fn interrupt(&mut self) -> std::process::ExitStatus {
        self.signal("-INT")
    }

    /// Sends `signal` (`-TERM`) and waits (at most 20 s) for the server to end.
    pub fn signal(&mut self, signal: &str) -> std::process::ExitStatus {
        let status = Command::new("kill")
            .args([signal, &self.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server ignores Ctrl-C");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Every process whose parent is `pid`, and theirs, recursively.
pub fn descendants(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        if after.split_whitespace().nth(1).and_then(|p| p.parse::<u32>().ok()) == Some(pid) {
            found.push(child);
            found.extend(descendants(child));
        }
    }
    found
}

/// Waits (at most 20 s) until none of `pids` is a live process.
pub fn wait_gone(pids: &[u32]) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let alive: Vec<u32> = pids
            .iter()
            .copied()
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                    !stat
                        .rsplit_once(')')
                        .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
                })
            })
            .collect();
        if alive.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "processes {alive:?} outlive the server");
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A plain `igroteka engine`, to learn what the referee of a page knows.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    pub fn start(game: &str, variant: &str) -> Engine {
        let mut child = Command::new(BIN)
            .args(["engine", "--game", game, "--variant", variant])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("igroteka engine starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Engine { child, stdin, stdout }
    }

    /// Sends `line` (a command, e.g. `position ...`) without waiting.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads");
    }

    /// `query <what>`: the text after `response `.
    pub fn query(&mut self, what: &str) -> String {
        self.send(&format!("query {what}"));
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.stdout.read_line(&mut line).expect("the engine writes") > 0,
                "engine gone"
            );
            if let Some(text) = line.trim_end().strip_prefix("response") {
                return text.trim_start().to_owned();
            }
        }
    }

    /// `query <what>` read as JSON.
    pub fn json(&mut self, what: &str) -> serde_json::Value {
        let text = self.query(what);
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("query {what}: {e}: {text}"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The games and their variants, as `igroteka games` lists them.
pub fn games() -> Vec<(String, Vec<String>)> {
    let out = Command::new(BIN).arg("games").output().expect("igroteka games");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let name = words.next()?.to_owned();
            let rest = line.split("variants:").nth(1)?;
            let variants = rest.split("first:").next()?;
            let variants = variants.split(',').map(|v| v.trim().to_owned()).collect();
            Some((name, variants))
        })
        .collect()
}

/// A fake engine: a shell script that speaks just enough of the protocol and
/// misbehaves on `go` as `behaviour` says (`crash`, `hang`, `illegal`,
/// `none`), refusing every option.
pub fn fake_engine(behaviour: &str) -> PathBuf {
    let on_go = match behaviour {
        "crash" => "exit 3",
        "hang" => ":",
        "illegal" => "echo 'bestmove zz99'",
        "none" => "echo 'bestmove (none)'",
        _ => panic!("unknown behaviour {behaviour}"),
    };
    script(
        behaviour,
        &format!("setoption*) echo 'info string error: unknown option' ;;\n    go*) {on_go} ;;"),
    )
}

/// A shell script engine named `name`: `cases` (shell `case` branches,
/// tried first) say what it answers; it answers `ugi` and `isready` unless
/// they say otherwise.
pub fn script(name: &str, cases: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve-fakes");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    {cases}\n    ugi) echo 'id name \
         {name}'; echo ugiok ;;\n    isready) echo readyok ;;\n  esac\ndone\n"
    );
    // A file of its own per call: tests run at once, and a script being
    // rewritten while a shell reads it would misbehave in other ways.
    static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = dir.join(format!("{name}-{}-{call}.sh", std::process::id()));
    std::fs::write(&path, script).expect("write the fake engine");
    let mut permissions = std::fs::metadata(&path).expect("metadata").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&path, permissions).expect("chmod");
    path
}

pub fn fake_flag(behaviour: &str) -> String {
    format!("cmd={}", fake_engine(behaviour).display())
}

/// A field of `/proc/<pid>/status` in kB (`VmRSS`, `VmHWM`).
pub fn memory_kb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no {field} in the status of {pid}"))
}
