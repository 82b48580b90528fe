//! An external engine's process for `gridplay match`: lines written to it, and lines read back with a limit on
//! the wait, so that a hung engine cannot stop a match.

use std::{
    io::{BufRead, BufReader, Write},
    os::unix::process::CommandExt,
    process::{Child, ChildStdin, Command, Stdio},
    sync::{
        Arc, Mutex, PoisonError,
        mpsc::{self, Receiver, RecvTimeoutError},
    },
    time::{Duration, Instant},
};

/// The most lines of an engine's standard error kept, to say why it stopped.
const LAST_WORDS: usize = 5;
/// The most characters kept of each of those lines.
const LINE_CHARS: usize = 200;

/// An external engine's process: lines to its standard input, and its output's lines read by a thread of
/// their own, so that an answer can be waited for with a limit. Its standard error is not shown (engines
/// talk there as they think); its last lines are kept to say why it stopped, should it stop.
pub(crate) struct External {
    command: String,
    child: Child,
    input: ChildStdin,
    lines: Receiver<anyhow::Result<String>>,
    last_words: Arc<Mutex<Vec<String>>>,
    /// Disconnected once the engine's standard error has been read to its end.
    errors_read: Receiver<()>,
    limit: Duration,
}

impl External {
    /// Starts `command` under `sh -c`, in a process group of its own so that [`External::kill`] stops whatever
    /// the command started (`cd dir && ./engine` leaves the engine a child of the shell).
    pub(crate) fn start(command: &str, limit: Duration) -> anyhow::Result<External> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| anyhow::anyhow!("starting `{command}`: {e}"))?;
        let input = child
            .stdin
            .take()
            .ok_or_else(|| anyhow::anyhow!("no standard input for the engine"))?;
        let errors = BufReader::new(
            child
                .stderr
                .take()
                .ok_or_else(|| anyhow::anyhow!("no standard error from the engine"))?,
        );
        let last_words = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&last_words);
        let (reading, errors_read) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            let _reading = reading;
            for line in errors.lines() {
                let Ok(line) = line else { return };
                let line: String = line.trim().chars().take(LINE_CHARS).collect();
                if line.is_empty() {
                    continue;
                }
                let mut kept = kept.lock().unwrap_or_else(PoisonError::into_inner);
                if kept.len() == LAST_WORDS {
                    kept.remove(0);
                }
                kept.push(line);
            }
        });
        let mut output = BufReader::new(
            child
                .stdout
                .take()
                .ok_or_else(|| anyhow::anyhow!("no standard output from the engine"))?,
        );
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            loop {
                let mut line = String::new();
                let read = match output.read_line(&mut line) {
                    Ok(0) => Err(anyhow::anyhow!("the engine closed its output")),
                    Ok(_) => Ok(line.trim().to_owned()),
                    Err(e) => Err(anyhow::anyhow!("engine output: {e}")),
                };
                let end = read.is_err();
                if send.send(read).is_err() || end {
                    return;
                }
            }
        });
        Ok(External {
            command: command.to_owned(),
            child,
            input,
            lines,
            last_words,
            errors_read,
            limit,
        })
    }

    pub(crate) fn tell(&mut self, line: &str) -> anyhow::Result<()> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| self.stopped(&format!("engine input: {e}")))
    }

    pub(crate) fn ask(&mut self, line: &str) -> anyhow::Result<String> {
        self.tell(line)?;
        self.read()
    }

    /// The engine's next line, waited for at most the answer limit.
    pub(crate) fn read(&mut self) -> anyhow::Result<String> {
        match self.lines.recv_timeout(self.limit) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(e)) => Err(self.stopped(&format!("{e:#}"))),
            Err(RecvTimeoutError::Timeout) => Err(anyhow::anyhow!(
                "no answer in {:.1} s (`--answer-limit`)",
                self.limit.as_secs_f64()
            )),
            Err(RecvTimeoutError::Disconnected) => Err(self.stopped("the engine closed its output")),
        }
    }

    /// `what` went wrong with the engine's pipes: it, with how the engine ended if it did (waited for a
    /// moment) and the last lines it wrote to its standard error.
    fn stopped(&mut self, what: &str) -> anyhow::Error {
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
                _ => break None,
            }
        };
        let mut text = format!("{what} (`{}`", self.command);
        match status {
            Some(status) => {
                match status.code() {
                    Some(127) => text.push_str(" could not be run: exit status 127"),
                    Some(code) => text.push_str(&format!(" exited with status {code}")),
                    None => text.push_str(&format!(" ended: {status}")),
                }
                // Its last lines may still be on their way to the reader.
                let _ = self.errors_read.recv_timeout(Duration::from_millis(200));
            }
            None => text.push_str(" is still running"),
        }
        let words = self
            .last_words
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .join(" | ");
        if words.is_empty() {
            text.push_str(", and wrote nothing to its standard error)");
        } else {
            text.push_str(&format!("; its standard error ended: {words})"));
        }
        anyhow::anyhow!(text)
    }

    /// Stops the engine's whole process group at once (it may be hung or half dead).
    pub(crate) fn kill(&mut self) {
        if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: `kill` takes plain integers; the group is the one this process started the engine in
            // (`process_group(0)` makes the shell's pid its group's id), and a group already gone is an error
            // that is ignored.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for External {
    /// Asks the engine to quit and waits a little for it; one that does not quit by then is killed.
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_)) | Err(_)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}
