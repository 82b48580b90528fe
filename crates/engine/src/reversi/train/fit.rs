//! Fitting the pattern weights to labelled positions: each stage by least squares with a ridge penalty, on
//! the stage's positions and its two neighbours', by damped gradient steps or by conjugate gradients. The
//! penalty pulls each weight towards zero, or towards the weight of the stage after it ([`Prior`]).

use gridplay_games::reversi::bitboard::Board;

use super::Sample;
use crate::reversi::pattern::{Layout, SCALARS, STAGES, Weights, stage};

/// The fit of one stage, for reporting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StageFit {
    pub stage: usize,
    pub samples: usize,
    /// Root mean square error in discs: after a fit, on the stage's own positions; from [`errors`], on the
    /// positions given.
    pub rmse: f64,
}

/// The rms error of `weights` on `samples` (against [`Sample::target`] with `blend`), per stage of the
/// evaluation, and over all the samples; positions kept out of a fit measure it.
#[must_use]
pub fn errors(weights: &Weights, samples: &[Sample], blend: u32) -> (Vec<StageFit>, f64) {
    let mut sums = vec![(0usize, 0f64); STAGES];
    for s in samples {
        let b = Board {
            player: s.player,
            opponent: s.opponent,
        };
        let st = stage((!(s.player | s.opponent)).count_ones());
        let err = f64::from(weights.evaluate(b)) / 100.0 - f64::from(s.target(blend));
        sums[st].0 += 1;
        sums[st].1 += err * err;
    }
    let rms = |sq: f64, n: usize| (sq / n.max(1) as f64).sqrt();
    let all = rms(sums.iter().map(|s| s.1).sum(), samples.len());
    let stages = sums
        .iter()
        .enumerate()
        .map(|(stage, &(samples, sq))| StageFit {
            stage,
            samples,
            rmse: rms(sq, samples),
        })
        .collect();
    (stages, all)
}

/// How [`fit`] solves each stage's least squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Gradient steps in which each weight moves by a damped average error of the positions it appears in
    /// (Buro's method); stopped after the given epochs, well before it converges.
    #[default]
    Steps,
    /// Conjugate gradients on the normal equations, each weight scaled by its count of positions (Jacobi
    /// preconditioning): reaches the ridge penalty's least-squares optimum in far fewer passes.
    ConjugateGradient,
}

impl Method {
    /// Reads `steps` or `cg`.
    pub fn parse(text: &str) -> Result<Method, UnknownChoice> {
        match text {
            "steps" => Ok(Method::Steps),
            "cg" => Ok(Method::ConjugateGradient),
            _ => Err(UnknownChoice {
                text: text.to_owned(),
                what: "the fit",
                choices: "`steps` or `cg`",
            }),
        }
    }
}

/// A setting of the fit that is none of its choices.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}`: {what} is {choices}")]
pub struct UnknownChoice {
    pub text: String,
    pub what: &'static str,
    pub choices: &'static str,
}

/// What the ridge penalty pulls each weight towards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Prior {
    /// Zero: a configuration seen rarely counts for little.
    #[default]
    Zero,
    /// The same weight of the next stage (one with fewer empty squares), fitted first: the stages are fitted
    /// from the end of the game back, and a configuration seen rarely at a stage keeps about the value the
    /// later stage gave it, so that searches whose leaves lie in different stages agree more.
    LaterStage,
}

impl Prior {
    /// Reads `zero` or `later-stage`.
    pub fn parse(text: &str) -> Result<Prior, UnknownChoice> {
        match text {
            "zero" => Ok(Prior::Zero),
            "later-stage" => Ok(Prior::LaterStage),
            _ => Err(UnknownChoice {
                text: text.to_owned(),
                what: "the prior",
                choices: "`zero` or `later-stage`",
            }),
        }
    }
}

/// How to fit: passes over the positions, the target's blend ([`Sample::target`]), the ridge penalty in
/// positions (a weight is pulled towards its prior as if `l2` positions said it was that), the prior and the
/// method.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    pub epochs: usize,
    pub blend: u32,
    pub l2: f32,
    pub prior: Prior,
    pub method: Method,
}

/// One stage's positions as features: `width` canonical feature indices a position, the scalar values, and
/// how often each weight is seen (for a scalar, the sum of its squared values).
struct Design<'s> {
    set: Vec<&'s Sample>,
    width: usize,
    index: Vec<u32>,
    scalars: Vec<[f32; SCALARS]>,
    seen: Vec<f32>,
}

impl Design<'_> {
    /// The prediction of position `i` by weights `w`.
    fn predict<T: Copy + Into<f64>>(&self, w: &[T], i: usize) -> f64 {
        let per = w.len();
        let f = &self.index[i * self.width..(i + 1) * self.width];
        let patterns: f64 = f[..self.width - SCALARS]
            .iter()
            .map(|&x| w[x as usize].into())
            .sum();
        let base = per - SCALARS;
        patterns
            + (0..SCALARS)
                .map(|k| w[base + k].into() * f64::from(self.scalars[i][k]))
                .sum::<f64>()
    }

    /// Adds `value` times position `i`'s features to `out`.
    fn scatter(&self, out: &mut [f64], i: usize, value: f64) {
        let per = out.len();
        let f = &self.index[i * self.width..(i + 1) * self.width];
        for &x in &f[..self.width - SCALARS] {
            out[x as usize] += value;
        }
        let base = per - SCALARS;
        for k in 0..SCALARS {
            out[base + k] += value * f64::from(self.scalars[i][k]);
        }
    }
}

/// Fits the weights to the samples' targets ([`Sample::target`] with `config.blend`) by least squares with a
/// ridge penalty; `progress` is told after each stage.
pub fn fit(samples: &[Sample], config: FitConfig, progress: &dyn Fn(StageFit)) -> Weights {
    let layout = Layout::get();
    let per = layout.per_stage;
    let mut weights = Weights::zero();
    let mut buckets: Vec<Vec<&Sample>> = vec![Vec::new(); STAGES];
    for s in samples {
        let st = stage((!(s.player | s.opponent)).count_ones());
        buckets[st].push(s);
    }
    let width = layout.table_and_pattern_features() + SCALARS;
    let canon = layout.canonical();
    let mut features = Vec::with_capacity(width);
    // The weights (canonical) each stage is pulled towards: zero, or the stage fitted before it.
    let mut prior = vec![0f32; per];
    for st in (0..STAGES).rev() {
        let own = &buckets[st];
        // The stage's positions and its neighbours'.
        let lo = st.saturating_sub(1);
        let hi = (st + 1).min(STAGES - 1);
        let set: Vec<&Sample> = buckets[lo..=hi].iter().flatten().copied().collect();
        if set.is_empty() {
            // Nothing to fit: the stage keeps its prior.
            for k in 0..per {
                let x = prior[canon[k] as usize];
                weights.values[st * per + k] = (x * 100.0).round().clamp(-32_000.0, 32_000.0) as i16;
            }
            continue;
        }
        let mut design = Design {
            index: Vec::with_capacity(set.len() * width),
            scalars: Vec::with_capacity(set.len()),
            seen: vec![0f32; per],
            width,
            set,
        };
        for s in &design.set {
            let values = layout.features(s.player, s.opponent, &mut features);
            design.index.extend(features.iter().map(|&f| canon[f as usize]));
            let v = values.map(|x| x as f32);
            design.scalars.push(v);
            let scalar_base = per - SCALARS;
            for &f in &features[..features.len() - SCALARS] {
                design.seen[canon[f as usize] as usize] += 1.0;
            }
            for (seen, x) in design.seen[scalar_base..].iter_mut().zip(v) {
                *seen += x * x;
            }
        }
        let w: Vec<f32> = match config.method {
            Method::Steps => fit_by_steps(&design, config, &prior),
            Method::ConjugateGradient => fit_by_cg(&design, config, &prior),
        };
        let own_set: Vec<usize> = (0..design.set.len())
            .filter(|&i| {
                let s = design.set[i];
                stage((!(s.player | s.opponent)).count_ones()) == st
            })
            .collect();
        let mse = own_set
            .iter()
            .map(|&i| (f64::from(design.set[i].target(config.blend)) - design.predict(&w, i)).powi(2))
            .sum::<f64>()
            / own_set.len().max(1) as f64;
        for k in 0..per {
            let x = w[canon[k] as usize];
            weights.values[st * per + k] = (x * 100.0).round().clamp(-32_000.0, 32_000.0) as i16;
        }
        progress(StageFit {
            stage: st,
            samples: own.len(),
            rmse: mse.sqrt(),
        });
        if config.prior == Prior::LaterStage {
            prior = w;
        }
    }
    weights.symmetrize();
    weights
}

/// [`Method::Steps`] on one stage (in `f32`, as the shipped weights were fitted), from `prior` and pulled
/// towards it.
fn fit_by_steps(design: &Design<'_>, config: FitConfig, prior: &[f32]) -> Vec<f32> {
    let per = design.seen.len();
    let width = design.width;
    let mut w = prior.to_vec();
    let mut grad = vec![0f32; per];
    let step = 1.5 / width as f32;
    let shrink = 3.0;
    let base = per - SCALARS;
    let predict = |w: &[f32], i: usize| -> f32 {
        let f = &design.index[i * width..(i + 1) * width];
        let patterns: f32 = f[..width - SCALARS].iter().map(|&x| w[x as usize]).sum();
        patterns
            + (0..SCALARS)
                .map(|k| w[base + k] * design.scalars[i][k])
                .sum::<f32>()
    };
    for _ in 0..config.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for (i, s) in design.set.iter().enumerate() {
            let err = s.target(config.blend) - predict(&w, i);
            let f = &design.index[i * width..(i + 1) * width];
            for &x in &f[..width - SCALARS] {
                grad[x as usize] += err;
            }
            for k in 0..SCALARS {
                grad[base + k] += err * design.scalars[i][k];
            }
        }
        for (((wi, g), n), w0) in w.iter_mut().zip(&grad).zip(&design.seen).zip(prior) {
            if *n > 0.0 {
                *wi += step * (g - config.l2 * (*wi - w0)) / (n + shrink);
            }
        }
    }
    w
}

/// [`Method::ConjugateGradient`] on one stage: minimises the squared errors plus `l2` times the squared
/// distances of the weights from `prior`, over the weights seen at least once (the others keep the prior),
/// by preconditioned conjugate gradients from the prior, `config.epochs` iterations at most (each one pass
/// over the positions).
fn fit_by_cg(design: &Design<'_>, config: FitConfig, prior: &[f32]) -> Vec<f32> {
    let per = design.seen.len();
    let l2 = f64::from(config.l2);
    let inverse: Vec<f64> = design
        .seen
        .iter()
        .map(|&n| {
            if n > 0.0 {
                1.0 / (f64::from(n) + l2.max(1.0))
            } else {
                0.0
            }
        })
        .collect();
    // The normal equations' product: (XᵀX + l2) p, over the seen weights.
    let product = |p: &[f64], out: &mut [f64]| {
        out.iter_mut().for_each(|x| *x = 0.0);
        for i in 0..design.set.len() {
            let q = design.predict(p, i);
            design.scatter(out, i, q);
        }
        for ((o, pi), inv) in out.iter_mut().zip(p).zip(&inverse) {
            if *inv > 0.0 {
                *o += l2 * pi;
            }
        }
    };
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    // The fit is of the change from the prior, d = w - prior: the same system on the errors the prior
    // leaves, with the penalty on d.
    let start_at: Vec<f64> = prior.iter().map(|&x| f64::from(x)).collect();
    let mut w = vec![0f64; per];
    let mut r = vec![0f64; per];
    for (i, s) in design.set.iter().enumerate() {
        let left = f64::from(s.target(config.blend)) - design.predict(&start_at, i);
        design.scatter(&mut r, i, left);
    }
    let mut z: Vec<f64> = r.iter().zip(&inverse).map(|(a, b)| a * b).collect();
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    let start = rz;
    let mut ap = vec![0f64; per];
    for _ in 0..config.epochs {
        if rz <= start * 1e-12 {
            break;
        }
        product(&p, &mut ap);
        let pap = dot(&p, &ap);
        if pap <= 0.0 {
            break;
        }
        let alpha = rz / pap;
        for ((wi, ri), (pi, api)) in w.iter_mut().zip(r.iter_mut()).zip(p.iter().zip(&ap)) {
            *wi += alpha * pi;
            *ri -= alpha * api;
        }
        for ((zi, ri), inv) in z.iter_mut().zip(&r).zip(&inverse) {
            *zi = ri * inv;
        }
        let next = dot(&r, &z);
        let beta = next / rz;
        rz = next;
        for (pi, zi) in p.iter_mut().zip(&z) {
            *pi = zi + beta * *pi;
        }
    }
    w.iter().zip(&start_at).map(|(d, w0)| (d + w0) as f32).collect()
}
