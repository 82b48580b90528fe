//! An external engine's process for `gridplay match`: lines written to it, and lines read back with a limit on
//! the wait, so that a hung engine cannot stop a match.

use std::{
    io::{BufRead, BufReader, Write},
    os::unix::process::CommandExt,
    process::{Child, ChildStdin, Command, Stdio},
    sync::mpsc::{self, Receiver, RecvTimeoutError},
    time::{Duration, Instant},
};

/// An external engine's process: lines to its standard input, and its output's lines read by a thread of
/// their own, so that an answer can be waited for with a limit.
pub(super) struct External {
    child: Child,
    input: ChildStdin,
    lines: Receiver<Result<String, String>>,
    limit: Duration,
}

impl External {
    /// Starts `command` under `sh -c`, in a process group of its own so that [`External::kill`] stops whatever
    /// the command started (`cd dir && ./engine` leaves the engine a child of the shell).
    pub(super) fn start(command: &str, limit: Duration) -> Result<External, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("starting `{command}`: {e}"))?;
        let input = child.stdin.take().ok_or("no standard input for the engine")?;
        let mut output = BufReader::new(child.stdout.take().ok_or("no standard output from the engine")?);
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            loop {
                let mut line = String::new();
                let read = match output.read_line(&mut line) {
                    Ok(0) => Err("the engine closed its output".to_owned()),
                    Ok(_) => Ok(line.trim().to_owned()),
                    Err(e) => Err(format!("engine output: {e}")),
                };
                let end = read.is_err();
                if send.send(read).is_err() || end {
                    return;
                }
            }
        });
        Ok(External {
            child,
            input,
            lines,
            limit,
        })
    }

    pub(super) fn tell(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("engine input: {e}"))
    }

    pub(super) fn ask(&mut self, line: &str) -> Result<String, String> {
        self.tell(line)?;
        self.read()
    }

    /// The engine's next line, waited for at most the answer limit.
    pub(super) fn read(&mut self) -> Result<String, String> {
        match self.lines.recv_timeout(self.limit) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "no answer in {:.1} s (`--answer-limit`)",
                self.limit.as_secs_f64()
            )),
            Err(RecvTimeoutError::Disconnected) => Err("the engine closed its output".into()),
        }
    }

    /// Stops the engine's whole process group at once (it may be hung or half dead).
    pub(super) fn kill(&mut self) {
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
