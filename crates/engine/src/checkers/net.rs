//! A small neural network evaluation for checkers, in the spirit of GuiNN's: the board seen by the side to
//! move as 128 inputs (own men, own kings, opposing men, opposing kings, each on 32 squares), three hidden
//! layers of clipped ReLUs (`H1`, `H2`, `H3` units) and one output, plus a linear term of the inputs straight
//! to the output (so that material is learned at once). The first layer is shared; the layers after it
//! exist once for each of [`PHASES`] stages of the game (as GuiNN has a network for each): men only, kings
//! on the board, 7 or 8 pieces, 6 or fewer ([`phase`]). The output is a result in logits, as
//! [`super::train`]'s fit predicts it; the search reads it in hundredths of a man (`150` a logit).
//!
//! The first layer is a sum of the rows of the pieces on the board (about 24 of 128), so it costs a few
//! dozen vector additions; the hidden layers are summed row by row, over the units that are on, so that
//! they vectorize and skip the units a clipped ReLU turned off.
//!
//! Fitted by [`fit`] to the same labelled self-play positions as the pattern tables (`gridplay train
//! checkers --model net`), with Adam on minibatches; saved as little-endian `f32` ([`Net::to_bytes`]).

use gridplay_core::Player;
use gridplay_games::checkers::bitboard::Board;
use rand::{RngExt, SeedableRng, rngs::SmallRng, seq::SliceRandom};

use super::{
    eval::{Evaluate, seen_by},
    samples::Sample,
};

/// Inputs: four planes of 32 squares.
pub const INPUTS: usize = 128;
pub const H1: usize = 64;
pub const H2: usize = 32;
pub const H3: usize = 32;
/// Hundredths of a man per logit (the scale of [`super::train`]'s fit).
const SCALE: f32 = 150.0;
/// The evaluation never leaves ± this, far inside the search's proven and database scores.
const CLAMP: f32 = 10_000.0;

/// The header of a network file.
pub const MAGIC: &[u8; 8] = b"GPCHKN1\n";

/// The stages of the game that have layers of their own.
pub const PHASES: usize = 4;

/// The stage of a position: 0 men only (more than 8 pieces), 1 kings on the board (more than 8), 2 for 7 or
/// 8 pieces, 3 for 6 or fewer.
#[must_use]
pub fn phase(b: &Board) -> usize {
    match (b.pieces[0] | b.pieces[1]).count_ones() {
        0..=6 => 3,
        7..=8 => 2,
        _ if b.kings != 0 => 1,
        _ => 0,
    }
}

/// The layers after the first, for one stage. Each matrix is stored by input row: `w2[i]` holds the
/// weights from unit `i` of the layer before to every unit of this one.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    pub w2: Vec<[f32; H2]>,
    pub b2: [f32; H2],
    pub w3: Vec<[f32; H3]>,
    pub b3: [f32; H3],
    pub w4: [f32; H3],
    pub b4: f32,
    /// The inputs' linear term.
    pub linear: [f32; INPUTS],
}

/// The weights: the first layer, and a [`Stack`] for each stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub w1: Vec<[f32; H1]>,
    pub b1: [f32; H1],
    pub stacks: Vec<Stack>,
}

/// The active inputs of a position for the side to move, at most 24 of them (12 a side); returns how many.
#[inline]
fn inputs(b: &Board, turn: Player, out: &mut [u8; 32]) -> usize {
    let (own, opp, kings) = seen_by(b, turn);
    let planes = [own & !kings, own & kings, opp & !kings, opp & kings];
    let mut n = 0;
    for (p, &plane) in planes.iter().enumerate() {
        let mut bits = plane;
        while bits != 0 && n < out.len() {
            out[n] = (p * 32) as u8 + bits.trailing_zeros() as u8;
            n += 1;
            bits &= bits - 1;
        }
    }
    n
}

#[inline]
fn clipped<const N: usize>(a: &[f32; N]) -> [f32; N] {
    let mut h = [0f32; N];
    for (h, &a) in h.iter_mut().zip(a) {
        *h = a.clamp(0.0, 1.0);
    }
    h
}

/// A bit for each unit that is on (`h[i] > 0`), at most 64 units.
#[inline(always)]
fn on<const N: usize>(h: &[f32; N]) -> u64 {
    const { assert!(N <= 64 && N.is_multiple_of(8)) };
    let mut on = 0u64;
    for (k, chunk) in h.chunks_exact(8).enumerate() {
        #[cfg(target_feature = "avx")]
        let bits = {
            use std::arch::x86_64::{
                _CMP_GT_OQ, _mm256_cmp_ps, _mm256_loadu_ps, _mm256_movemask_ps, _mm256_setzero_ps,
            };
            // SAFETY: the build targets AVX (the `cfg` above), and `chunk` holds the 8 floats the load reads.
            unsafe {
                let v = _mm256_loadu_ps(chunk.as_ptr());
                _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_GT_OQ>(v, _mm256_setzero_ps())) as u32
            }
        };
        #[cfg(not(target_feature = "avx"))]
        let bits = chunk
            .iter()
            .enumerate()
            .fold(0u32, |m, (i, &x)| m | (u32::from(x > 0.0) << i));
        on |= u64::from(bits) << (8 * k);
    }
    on
}

/// `bias + sum of h[i] * w[i]` over the units that are on (`h[i] > 0`; about half of the first layer's and
/// a third of the second's), row by row, so that each row's sum is one run of vector multiply-adds. The units
/// that are on are found by vector compares ([`on`]) and visited bit by bit (a test per unit costs more in
/// mispredicted branches than it saves). Rows go in turn to two sums, so that twice as many multiply-adds
/// are in flight.
#[inline]
fn layer<const N: usize, const M: usize>(h: &[f32; N], w: &[[f32; M]], bias: &[f32; M]) -> [f32; M] {
    let mut on = on(h);
    let (mut a, mut b) = (*bias, [0f32; M]);
    while on != 0 {
        let i = on.trailing_zeros() as usize;
        on &= on - 1;
        if on == 0 {
            for (a, &w) in a.iter_mut().zip(&w[i]) {
                *a = madd(h[i], w, *a);
            }
            break;
        }
        let j = on.trailing_zeros() as usize;
        on &= on - 1;
        let (x0, x1) = (h[i], h[j]);
        for ((a, b), (&w0, &w1)) in a.iter_mut().zip(b.iter_mut()).zip(w[i].iter().zip(&w[j])) {
            *a = madd(x0, w0, *a);
            *b = madd(x1, w1, *b);
        }
    }
    for (a, b) in a.iter_mut().zip(b) {
        *a += b;
    }
    a
}

/// One layer's gradient carried back: adds `h[i] * d[j]` to each weight's gradient `grad[i][j]`, and returns
/// each unit's share of the error, `sum of w[i][j] * d[j]`, where the unit's clipped ReLU passed its input on
/// (`a` strictly between 0 and 1), else 0. A unit that is off adds nothing to either, so only the units that
/// are on are visited.
fn carry_back<const N: usize, const M: usize>(
    h: &[f32; N],
    a: &[f32; N],
    w: &[[f32; M]],
    grad: &mut [[f32; M]],
    d: &[f32; M],
) -> [f32; N] {
    let mut out = [0f32; N];
    let mut on = on(h);
    while on != 0 {
        let i = on.trailing_zeros() as usize;
        on &= on - 1;
        let mut back = 0f32;
        for ((gw, &w), &dj) in grad[i].iter_mut().zip(&w[i]).zip(d) {
            *gw += h[i] * dj;
            back += w * dj;
        }
        if a[i] < 1.0 {
            out[i] = back;
        }
    }
    out
}

/// `x * w + a`: one fused instruction where the target has FMA (a call to a slow software routine where it
/// does not, so there it is a multiply and an add).
#[inline(always)]
fn madd(x: f32, w: f32, a: f32) -> f32 {
    #[cfg(target_feature = "fma")]
    {
        x.mul_add(w, a)
    }
    #[cfg(not(target_feature = "fma"))]
    {
        x * w + a
    }
}

/// One position's activations, kept for the gradient.
struct Pass {
    active: [u8; 32],
    n: usize,
    phase: usize,
    a1: [f32; H1],
    h1: [f32; H1],
    a2: [f32; H2],
    h2: [f32; H2],
    a3: [f32; H3],
    h3: [f32; H3],
    out: f32,
}

impl Net {
    /// A network of small random weights.
    #[must_use]
    pub fn random(seed: u64) -> Net {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut uniform = |fan_in: f32| {
            let a = (3.0 / fan_in).sqrt();
            rng.random_range(-a..a)
        };
        let w1 = (0..INPUTS)
            .map(|_| std::array::from_fn(|_| uniform(24.0)))
            .collect();
        let stacks = (0..PHASES)
            .map(|_| Stack {
                w2: (0..H1)
                    .map(|_| std::array::from_fn(|_| uniform(H1 as f32 / 2.0)))
                    .collect(),
                b2: [0.0; H2],
                w3: (0..H2)
                    .map(|_| std::array::from_fn(|_| uniform(H2 as f32 / 2.0)))
                    .collect(),
                b3: [0.0; H3],
                w4: std::array::from_fn(|_| uniform(H3 as f32 / 2.0)),
                b4: 0.0,
                linear: [0.0; INPUTS],
            })
            .collect();
        Net {
            w1,
            b1: [0.5; H1],
            stacks,
        }
    }

    /// Every activation of a position, and the output but for the last layer's sum (the bias and the linear
    /// term): the fit and the play each add that sum their own way.
    #[inline(always)]
    fn hidden(&self, b: &Board, turn: Player) -> Pass {
        let mut active = [0u8; 32];
        let n = inputs(b, turn, &mut active);
        let phase = phase(b);
        let stack = &self.stacks[phase];
        let mut a1 = self.b1;
        let mut out = stack.b4;
        for &k in &active[..n] {
            for (a, &w) in a1.iter_mut().zip(&self.w1[usize::from(k)]) {
                *a += w;
            }
            out += stack.linear[usize::from(k)];
        }
        let h1 = clipped(&a1);
        let a2 = layer(&h1, &stack.w2, &stack.b2);
        let h2 = clipped(&a2);
        let a3 = layer(&h2, &stack.w3, &stack.b3);
        let h3 = clipped(&a3);
        Pass {
            active,
            n,
            phase,
            a1,
            h1,
            a2,
            h2,
            a3,
            h3,
            out,
        }
    }

    /// [`Net::hidden`] with the last layer summed in order, as the fit sums it.
    fn pass(&self, b: &Board, turn: Player) -> Pass {
        let mut pass = self.hidden(b, turn);
        let w4 = &self.stacks[pass.phase].w4;
        pass.out += pass.h3.iter().zip(w4).map(|(h, w)| h * w).sum::<f32>();
        pass
    }

    /// The predicted result for the side to move, in logits. The last layer is summed in eight lanes, which
    /// differs from the fit's sum in order only in the last bits.
    #[must_use]
    pub fn logit(&self, b: &Board, turn: Player) -> f32 {
        let pass = self.hidden(b, turn);
        let w4 = &self.stacks[pass.phase].w4;
        let mut sums = [0f32; 8];
        for (c, w) in pass.h3.chunks_exact(8).zip(w4.chunks_exact(8)) {
            for i in 0..8 {
                sums[i] += c[i] * w[i];
            }
        }
        pass.out + sums.iter().sum::<f32>()
    }

    /// The file format: an 8-byte header, the three hidden widths and the number of stages (`u16`), then
    /// every weight as a little-endian `f32`: `w1`, `b1`, then each stage's `w2`, `b2`, `w3`, `b3`, `w4`,
    /// `b4` and linear term.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for d in [H1, H2, H3, PHASES] {
            out.extend_from_slice(&(d as u16).to_le_bytes());
        }
        for w in self.flat() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Reads [`Net::to_bytes`].
    ///
    /// # Errors
    ///
    /// When the header, the widths or the length are not those of this network, or a weight is not finite.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, crate::DataError> {
        let bad = |reason: String| crate::DataError::format("checkers network", reason);
        let body = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or_else(|| bad("not a checkers network file: the header is missing".into()))?;
        let (dims, body) = body
            .split_at_checked(8)
            .ok_or_else(|| bad("a checkers network file ends in its header".into()))?;
        let dims: Vec<usize> = dims
            .chunks_exact(2)
            .map(|c| usize::from(u16::from_le_bytes([c[0], c[1]])))
            .collect();
        if dims != [H1, H2, H3, PHASES] {
            return Err(bad(format!(
                "a checkers network of hidden layers and stages {dims:?}; this build reads {:?}",
                [H1, H2, H3, PHASES]
            )));
        }
        let mut net = Net::zero();
        let count = net.flat().count();
        if body.len() != 4 * count {
            return Err(bad(format!(
                "a checkers network file has {} bytes, this one {}",
                MAGIC.len() + 8 + 4 * count,
                bytes.len()
            )));
        }
        let values: Vec<f32> = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(bad(format!(
                "weight {i} of the checkers network is not a finite number"
            )));
        }
        for (w, v) in net.flat_mut().zip(values) {
            *w = v;
        }
        Ok(net)
    }

    fn flat(&self) -> impl Iterator<Item = f32> + '_ {
        self.w1
            .iter()
            .flatten()
            .chain(&self.b1)
            .copied()
            .chain(self.stacks.iter().flat_map(|s| {
                s.w2.iter()
                    .flatten()
                    .chain(&s.b2)
                    .chain(s.w3.iter().flatten())
                    .chain(&s.b3)
                    .chain(&s.w4)
                    .chain(std::iter::once(&s.b4))
                    .chain(&s.linear)
                    .copied()
            }))
    }

    fn flat_mut(&mut self) -> impl Iterator<Item = &mut f32> + '_ {
        self.w1
            .iter_mut()
            .flatten()
            .chain(&mut self.b1)
            .chain(self.stacks.iter_mut().flat_map(|s| {
                s.w2.iter_mut()
                    .flatten()
                    .chain(&mut s.b2)
                    .chain(s.w3.iter_mut().flatten())
                    .chain(&mut s.b3)
                    .chain(&mut s.w4)
                    .chain(std::iter::once(&mut s.b4))
                    .chain(&mut s.linear)
            }))
    }

    /// Adds the gradient of the cross-entropy of `sample` (the output's error `g = p - y` carried back) to
    /// `grad`, a network of the same shape.
    fn backward(&self, pass: &Pass, g: f32, grad: &mut Net) {
        let (stack, gs) = (&self.stacks[pass.phase], &mut grad.stacks[pass.phase]);
        gs.b4 += g;
        let mut d3 = [0f32; H3];
        for (((d, gw), (&h, &a)), &w) in d3
            .iter_mut()
            .zip(gs.w4.iter_mut())
            .zip(pass.h3.iter().zip(&pass.a3))
            .zip(&stack.w4)
        {
            *gw += g * h;
            if a > 0.0 && a < 1.0 {
                *d = g * w;
            }
        }
        let d2 = carry_back(&pass.h2, &pass.a2, &stack.w3, &mut gs.w3, &d3);
        for (b, d) in gs.b3.iter_mut().zip(&d3) {
            *b += d;
        }
        let d1 = carry_back(&pass.h1, &pass.a1, &stack.w2, &mut gs.w2, &d2);
        for (b, d) in gs.b2.iter_mut().zip(&d2) {
            *b += d;
        }
        for &k in &pass.active[..pass.n] {
            gs.linear[usize::from(k)] += g;
        }
        for (b, d) in grad.b1.iter_mut().zip(&d1) {
            *b += d;
        }
        for &k in &pass.active[..pass.n] {
            let row = &mut grad.w1[usize::from(k)];
            for (r, d) in row.iter_mut().zip(&d1) {
                *r += d;
            }
        }
    }

    fn zero() -> Net {
        Net {
            w1: vec![[0.0; H1]; INPUTS],
            b1: [0.0; H1],
            stacks: vec![
                Stack {
                    w2: vec![[0.0; H2]; H1],
                    b2: [0.0; H2],
                    w3: vec![[0.0; H3]; H2],
                    b3: [0.0; H3],
                    w4: [0.0; H3],
                    b4: 0.0,
                    linear: [0.0; INPUTS],
                };
                PHASES
            ],
        }
    }
}

impl Evaluate for Net {
    #[inline]
    fn evaluate(&self, b: &Board, turn: Player) -> i32 {
        (self.logit(b, turn) * SCALE).clamp(-CLAMP, CLAMP) as i32
    }
}

/// How the network is fitted.
#[derive(Clone, Copy, Debug)]
pub struct NetFit {
    pub epochs: usize,
    /// Positions a step.
    pub batch: usize,
    /// Adam's step size at the start; it falls linearly to a tenth by the last epoch.
    pub rate: f32,
    pub seed: u64,
    pub threads: usize,
}

impl Default for NetFit {
    fn default() -> NetFit {
        NetFit {
            epochs: 10,
            batch: 512,
            rate: 2e-3,
            seed: 1,
            threads: 2,
        }
    }
}

fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// The mean cross-entropy of the network's predictions on `samples`.
#[must_use]
pub fn loss(net: &Net, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = f64::from(sigmoid(net.logit(&s.board, s.turn))).clamp(1e-6, 1.0 - 1e-6);
            let y = f64::from(s.result);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Fits a network to `samples` by Adam on minibatches, the gradient of each batch summed on `threads`
/// threads; `progress(epoch, net)` is called after each epoch.
#[must_use]
pub fn fit(samples: &[Sample], config: NetFit, mut progress: impl FnMut(usize, &Net)) -> Net {
    let mut net = Net::random(config.seed);
    let count = net.flat().count();
    let (mut m, mut v) = (vec![0f32; count], vec![0f32; count]);
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let mut rng = SmallRng::seed_from_u64(config.seed);
    let threads = config.threads.max(1);
    let mut step = 0i32;
    for epoch in 0..config.epochs {
        order.shuffle(&mut rng);
        let rate = config.rate * (1.0 - 0.9 * epoch as f32 / config.epochs.max(1) as f32);
        for batch in order.chunks(config.batch.max(1)) {
            let per = batch.len().div_ceil(threads);
            let grads: Vec<Net> = std::thread::scope(|scope| {
                let net = &net;
                let handles: Vec<_> = batch
                    .chunks(per)
                    .map(|part| {
                        scope.spawn(move || {
                            let mut grad = Net::zero();
                            for &i in part {
                                let s = &samples[i];
                                let pass = net.pass(&s.board, s.turn);
                                net.backward(&pass, sigmoid(pass.out) - s.result, &mut grad);
                            }
                            grad
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a fitting thread panicked"))
                    .collect()
            });
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            let mut sums = grads.iter().map(Net::flat).collect::<Vec<_>>();
            for ((w, m), v) in net.flat_mut().zip(&mut m).zip(&mut v) {
                let g = sums.iter_mut().map(|s| s.next().unwrap_or(0.0)).sum::<f32>() * scale;
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                *w -= rate * (*m / c1) / ((*v / c2).sqrt() + eps);
            }
        }
        progress(epoch + 1, &net);
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridplay_core::{Game, Position};
    use gridplay_games::checkers::Checkers;

    #[test]
    fn the_file_format_round_trips_and_refuses_other_files() {
        let net = Net::random(3);
        assert_eq!(Net::from_bytes(&net.to_bytes()).unwrap(), net);
        assert!(
            Net::from_bytes(b"nonsense")
                .unwrap_err()
                .to_string()
                .contains("header")
        );
        let mut short = net.to_bytes();
        short.pop();
        assert!(Net::from_bytes(&short).unwrap_err().to_string().contains("bytes"));
        let mut odd = net.to_bytes();
        odd[8] = 7;
        assert!(
            Net::from_bytes(&odd)
                .unwrap_err()
                .to_string()
                .contains("hidden layers and stages")
        );
        let mut nan = net.to_bytes();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(Net::from_bytes(&nan).unwrap_err().to_string().contains("finite"));
    }

    #[test]
    fn a_position_and_its_mirror_with_the_other_side_to_move_read_alike() {
        let net = Net::random(5);
        let p = Checkers.parse_position("B:W18,K24,27:B3,K9,14").unwrap();
        let turned = crate::checkers::eval::turned(p.board());
        assert_eq!(net.logit(p.board(), p.turn()), net.logit(&turned, !p.turn()));
    }

    /// The output as the layers' definitions say, every unit summed in order, on or off.
    fn plain(net: &Net, b: &Board, turn: Player) -> f32 {
        let mut active = [0u8; 32];
        let n = inputs(b, turn, &mut active);
        let stack = &net.stacks[phase(b)];
        let mut a1 = net.b1.to_vec();
        let mut out = stack.b4;
        for &k in &active[..n] {
            for (a, w) in a1.iter_mut().zip(&net.w1[usize::from(k)]) {
                *a += w;
            }
            out += stack.linear[usize::from(k)];
        }
        fn dense<const M: usize>(a: &[f32], w: &[[f32; M]], bias: &[f32; M]) -> Vec<f32> {
            (0..M)
                .map(|j| {
                    bias[j]
                        + a.iter()
                            .zip(w)
                            .map(|(x, row)| x.clamp(0.0, 1.0) * row[j])
                            .sum::<f32>()
                })
                .collect()
        }
        let a2 = dense(&a1, &stack.w2, &stack.b2);
        let a3 = dense(&a2, &stack.w3, &stack.b3);
        out + a3
            .iter()
            .zip(&stack.w4)
            .map(|(a, w)| a.clamp(0.0, 1.0) * w)
            .sum::<f32>()
    }

    /// The evaluation summed over the units that are on agrees with the plain sum over every unit, for the
    /// shipped network and a random one, on the positions of random games in every stage.
    #[test]
    fn the_sum_over_units_on_agrees_with_the_plain_sum() {
        let shipped = Net::from_bytes(include_bytes!("net.bin")).expect("the shipped network");
        let mut rng = SmallRng::seed_from_u64(6);
        let mut seen = [0usize; PHASES];
        for _ in 0..400 {
            let (mut b, mut turn) = (Board::START, Player::First);
            for _ in 0..rng.random_range(0..120) {
                let mut moves = gridplay_games::checkers::movegen::Moves::new();
                gridplay_games::checkers::movegen::generate(&b, turn, &mut moves);
                if moves.is_empty() {
                    break;
                }
                b = gridplay_games::checkers::movegen::apply(
                    &b,
                    turn,
                    moves[rng.random_range(0..moves.len())],
                );
                turn = !turn;
            }
            seen[phase(&b)] += 1;
            for net in [&shipped, &Net::random(8)] {
                let (fast, slow) = (net.logit(&b, turn), plain(net, &b, turn));
                assert!(
                    (fast - slow).abs() <= 1e-4 * (1.0 + slow.abs()),
                    "{fast} against {slow}"
                );
            }
        }
        assert!(seen.iter().all(|&n| n > 0), "positions of each stage: {seen:?}");
    }

    /// The gradient carried back agrees with the change of the loss when a weight is moved a little.
    #[test]
    fn the_gradient_agrees_with_finite_differences() {
        let net = Net::random(9);
        let p = Checkers.parse_position("B:W18,K24,27,30:B3,K9,14,11").unwrap();
        let (b, turn, y) = (*p.board(), p.turn(), 0.8f32);
        let loss_of = |n: &Net| {
            let p = f64::from(sigmoid(n.logit(&b, turn)));
            -(f64::from(y) * p.ln() + (1.0 - f64::from(y)) * (1.0 - p).ln())
        };
        let mut grad = Net::zero();
        let pass = net.pass(&b, turn);
        net.backward(&pass, sigmoid(pass.out) - y, &mut grad);
        let analytic: Vec<f32> = grad.flat().collect();
        let count = analytic.len();
        let mut checked = 0;
        for i in (0..count).step_by(7) {
            if analytic[i] == 0.0 {
                continue;
            }
            let h = 1e-3f32;
            let mut up = net.clone();
            *up.flat_mut().nth(i).unwrap() += h;
            let mut down = net.clone();
            *down.flat_mut().nth(i).unwrap() -= h;
            let numeric = (loss_of(&up) - loss_of(&down)) / (2.0 * f64::from(h));
            let a = f64::from(analytic[i]);
            assert!(
                (numeric - a).abs() <= 2e-3 + 0.05 * a.abs(),
                "weight {i}: carried back {a}, measured {numeric}"
            );
            checked += 1;
        }
        assert!(checked > 50, "only {checked} weights checked");
    }

    #[test]
    fn the_fit_lowers_the_loss_and_learns_that_material_wins() {
        // Positions labelled by material: the side with more pieces wins.
        let mut rng = SmallRng::seed_from_u64(4);
        let mut samples = Vec::new();
        while samples.len() < 4000 {
            let (mut red, mut white) = (0u32, 0u32);
            for sq in 0..32 {
                match rng.random_range(0..6) {
                    0 => red |= 1 << sq,
                    1 => white |= 1 << sq,
                    _ => {}
                }
            }
            let diff = red.count_ones() as i32 - white.count_ones() as i32;
            if diff == 0 {
                continue;
            }
            let result = if diff > 0 { 1.0 } else { 0.0 };
            samples.push(Sample {
                board: Board {
                    pieces: [red, white],
                    kings: 0,
                },
                turn: Player::First,
                result,
            });
        }
        let config = NetFit {
            epochs: 6,
            batch: 64,
            threads: 2,
            ..NetFit::default()
        };
        let before = loss(&Net::random(config.seed), &samples);
        let mut epochs = 0;
        let net = fit(&samples, config, |e, _| epochs = e);
        let after = loss(&net, &samples);
        assert_eq!(epochs, 6);
        assert!(after < before * 0.5, "cross-entropy {before:.4} -> {after:.4}");
        let up = Checkers
            .parse_position("B:W21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,12")
            .unwrap();
        assert!(net.evaluate(up.board(), Player::First) > 0);
    }
}
