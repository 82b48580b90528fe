//! A shard on disk: its manifest and its labels file, opened to continue or read back.

use std::{
    fs,
    io::Write,
    path::{Path, PathBuf},
};

use super::{DataError, Label, Labelled, Recipe, Source};

/// The manifests' format name.
const FORMAT: &str = "gridplay-labels-1";

/// A shard's manifest (`SEED.json`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    pub format: String,
    pub game: String,
    /// The frozen generator that makes the positions again.
    pub generator: String,
    pub seed: u64,
    /// The recipe's name, range and label, as it was when the shard was opened.
    pub recipe: String,
    pub low: u32,
    pub high: u32,
    pub label: Label,
    /// Positions when full.
    pub target: u32,
    /// Positions labelled so far: the labels file holds this many.
    pub count: u32,
    /// Each job that added labels, in order.
    pub runs: Vec<Run>,
}

/// One job's part of a shard.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Run {
    /// The build that made these labels.
    pub build: String,
    /// What else the labels depend on (the endgame databases, for checkers).
    pub label_source: String,
    /// The positions `from..to` of the shard.
    pub from: u32,
    pub to: u32,
    /// Wall-clock seconds the run spent labelling.
    pub seconds: f64,
}

/// A shard open for labelling.
#[derive(Debug)]
pub struct Shard {
    pub manifest: Manifest,
    pub recipe: Recipe,
    manifest_path: PathBuf,
    labels: fs::File,
    labels_path: PathBuf,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DataError + '_ {
    move |source| DataError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The manifest and labels paths of shard `seed` in `folder`.
fn paths(folder: &Path, seed: u64) -> (PathBuf, PathBuf) {
    (
        folder.join(format!("{seed:06}.json")),
        folder.join(format!("{seed:06}.labels")),
    )
}

/// Reads the manifest at `path`.
fn read_manifest(path: &Path) -> Result<Manifest, DataError> {
    let text = fs::read_to_string(path).map_err(io(path))?;
    let m: Manifest = serde_json::from_str(&text).map_err(|source| DataError::Manifest {
        path: path.to_path_buf(),
        source,
    })?;
    if m.format != FORMAT {
        return Err(DataError::Invalid {
            path: path.to_path_buf(),
            what: format!("format `{}`, where this build reads `{FORMAT}`", m.format),
        });
    }
    Ok(m)
}

/// Every manifest in `folder`, by seed (none when the folder does not exist).
pub(crate) fn manifests(folder: &Path) -> Result<Vec<(PathBuf, Manifest)>, DataError> {
    let entries = match fs::read_dir(folder) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(folder)(e)),
    };
    let mut found = Vec::new();
    for entry in entries {
        let path = entry.map_err(io(folder))?.path();
        if path.extension().is_some_and(|e| e == "json") {
            let m = read_manifest(&path)?;
            found.push((path, m));
        }
    }
    found.sort_by_key(|(_, m)| m.seed);
    Ok(found)
}

/// The labels of a manifest's shard, `count` of them.
fn read_labels(manifest_path: &Path, m: &Manifest) -> Result<Vec<i16>, DataError> {
    let path = manifest_path.with_extension("labels");
    let bytes = fs::read(&path).map_err(io(&path))?;
    let count = m.count as usize;
    if bytes.len() < 2 * count {
        return Err(DataError::Invalid {
            path,
            what: format!("{} labels, where the manifest counts {count}", bytes.len() / 2),
        });
    }
    Ok(bytes[..2 * count]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect())
}

/// Every labelled position of the shards in `folder`, made again by `position` (the generator `generator`),
/// with each shard's label kind.
pub(crate) fn read_all<P>(
    folder: &Path,
    generator: &str,
    position: impl Fn(u64, u64, u32, u32) -> P,
) -> Result<Vec<(Labelled<P>, Label)>, DataError> {
    let mut out = Vec::new();
    for (path, m) in manifests(folder)? {
        if m.generator != generator {
            return Err(DataError::Invalid {
                path,
                what: format!(
                    "made by generator `{}`, where this build has `{generator}`",
                    m.generator
                ),
            });
        }
        let labels = read_labels(&path, &m)?;
        for (i, label) in labels.into_iter().enumerate() {
            let position = position(m.seed, i as u64, m.low, m.high);
            out.push((Labelled { position, label }, m.label));
        }
    }
    Ok(out)
}

impl Shard {
    /// The shard to label next in `folder`: the lowest seed of `seeds` whose shard is unfinished and made by
    /// this generator and a recipe this build knows, else a new shard at the lowest free seed.
    ///
    /// # Errors
    /// A folder or file that cannot be read or written, or a manifest that cannot be parsed.
    pub fn next(
        folder: &Path,
        source: &mut dyn Source,
        seeds: std::ops::Range<u64>,
        build: &str,
    ) -> Result<Shard, DataError> {
        fs::create_dir_all(folder).map_err(io(folder))?;
        let existing = manifests(folder)?;
        let recipes: &'static [Recipe] = source.recipes();
        let recipe_of = |name: &str| recipes.iter().find(|r| r.name == name).copied();
        for (path, m) in &existing {
            if seeds.contains(&m.seed)
                && m.count < m.target
                && m.generator == source.generator()
                && let Some(recipe) = recipe_of(&m.recipe)
                && (recipe.low, recipe.high, recipe.label) == (m.low, m.high, m.label)
            {
                return Shard::open(path, m.clone(), recipe, source, build);
            }
        }
        let taken: std::collections::HashSet<u64> = existing.iter().map(|(_, m)| m.seed).collect();
        let Some(seed) = seeds.clone().find(|s| !taken.contains(s)) else {
            return Err(DataError::Invalid {
                path: folder.to_path_buf(),
                what: format!("every seed of {}..{} has a shard", seeds.start, seeds.end),
            });
        };
        let recipe = recipes[(seed % recipes.len() as u64) as usize];
        let manifest = Manifest {
            format: FORMAT.to_string(),
            game: source.game().to_string(),
            generator: source.generator().to_string(),
            seed,
            recipe: recipe.name.to_string(),
            low: recipe.low,
            high: recipe.high,
            label: recipe.label,
            target: recipe.shard_size,
            count: 0,
            runs: Vec::new(),
        };
        let (manifest_path, _) = paths(folder, seed);
        Shard::open(&manifest_path, manifest, recipe, source, build)
    }

    /// Opens a shard to add labels: its labels file is cut to whole labels (at most `target`), and a run of
    /// this build begins at its length.
    fn open(
        manifest_path: &Path,
        mut manifest: Manifest,
        recipe: Recipe,
        source: &mut dyn Source,
        build: &str,
    ) -> Result<Shard, DataError> {
        let labels_path = manifest_path.with_extension("labels");
        let labels = fs::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(&labels_path)
            .map_err(io(&labels_path))?;
        let len = labels.metadata().map_err(io(&labels_path))?.len();
        let count = u32::try_from(len / 2).unwrap_or(u32::MAX).min(manifest.target);
        labels.set_len(u64::from(count) * 2).map_err(io(&labels_path))?;
        manifest.count = count;
        manifest.runs.push(Run {
            build: build.to_string(),
            label_source: source.label_source(),
            from: count,
            to: count,
            seconds: 0.0,
        });
        let shard = Shard {
            manifest,
            recipe,
            manifest_path: manifest_path.to_path_buf(),
            labels,
            labels_path,
        };
        shard.write_manifest()?;
        Ok(shard)
    }

    #[must_use]
    pub fn is_full(&self) -> bool {
        self.manifest.count >= self.manifest.target
    }

    /// Appends a label and records it in the manifest, with the run's `seconds` so far.
    ///
    /// # Errors
    /// The labels file or the manifest cannot be written.
    pub fn push(&mut self, label: i16, seconds: f64) -> Result<(), DataError> {
        self.labels
            .write_all(&label.to_le_bytes())
            .map_err(io(&self.labels_path))?;
        self.manifest.count += 1;
        if let Some(run) = self.manifest.runs.last_mut() {
            run.to = self.manifest.count;
            run.seconds = (seconds * 10.0).round() / 10.0;
        }
        self.write_manifest()
    }

    /// Writes the manifest through a temporary file, so that it is always whole.
    fn write_manifest(&self) -> Result<(), DataError> {
        let tmp = self.manifest_path.with_extension("json.tmp");
        let mut text =
            serde_json::to_string_pretty(&self.manifest).map_err(|source| DataError::Manifest {
                path: self.manifest_path.clone(),
                source,
            })?;
        text.push('\n');
        fs::write(&tmp, text).map_err(io(&tmp))?;
        fs::rename(&tmp, &self.manifest_path).map_err(io(&self.manifest_path))
    }
}
