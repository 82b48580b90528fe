//! The web platform's benchmarks, kept out of the server library: `load` (`gridplay bench server`: pairs of
//! simulated players playing random legal moves over WebSockets, for throughput, latency and the database's
//! every acknowledged move) and `soak` (`gridplay bench soak`: games against the engine with hints and
//! analyses, for errors, reply times and memory) and `explorer` (`gridplay bench explorer`: the opening
//! explorer's answer time with many games stored). Each drives a server started in the process, through the
//! server's public interface, or servers already running.

#![forbid(unsafe_code)]

pub mod explorer;
pub mod load;
pub mod soak;
